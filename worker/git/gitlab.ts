/**
 * @module The GitLab adapter of {@link GitHost} (REST API v4, `PRIVATE-TOKEN`: a project access token in
 * `GITLAB_TOKEN`): archive (`GET /projects/:id/repository/archive.tar.gz?sha=`), commit statuses named "Portico"
 * (`POST /projects/:id/statuses/:sha`: pending → success/failed, the summary as its description) instead of check
 * runs (GitLab has no line annotations: the findings go in the merge-request note), and one merge-request note,
 * updated (`PUT /projects/:id/merge_requests/:iid/notes/:note_id`); a backlog draft's merge request (repository
 * files, one commit that creates its branch, merge requests). Calls go through outbound.ts.
 */
import { FileExists, type CheckOutcome, type FileProposal, type GitHost, type OpenedPullRequest } from "./host";
import { OutboundError, outboundFetch, readLimited } from "./outbound";
import { CHECK_NAME } from "./github";

type GitLabEnv = Pick<Env, "PORTICO_ENVIRONMENT" | "PORTICO_BASE_URL">;

export class GitLabProject implements GitHost {
  private readonly project: string;

  constructor(
    private readonly env: GitLabEnv,
    private readonly apiUrl: string,
    repository: string,
    private readonly token: string,
  ) {
    this.project = encodeURIComponent(repository);
  }

  private async send(method: string, path: string, body?: unknown): Promise<Response> {
    if (!this.token) throw new OutboundError("GitLab sync is not configured: set GITLAB_TOKEN (a project access token)");
    const headers = new Headers({ "private-token": this.token, "user-agent": "Portico-Git-Sync" });
    if (body !== undefined) headers.set("content-type", "application/json");
    return outboundFetch(this.env, `${this.apiUrl}/projects/${this.project}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  private async call(method: string, path: string, body?: unknown): Promise<Response> {
    const res = await this.send(method, path, body);
    if (res.status >= 300) {
      const said = await res.text().then((t) => (JSON.parse(t) as { message?: unknown }).message, () => undefined);
      throw new OutboundError(`GitLab answered ${method} ${path.split("?")[0]} with HTTP ${res.status}${typeof said === "string" ? ` (${said.slice(0, 200)})` : ""}`, res.status);
    }
    return res;
  }

  /**
   * The backlog draft's merge request: `GET repository/files/:path?ref=` (404 wanted), one `POST repository/commits`
   * that creates the branch from `base` with a "create" action (GitLab refuses it for an existing file), then
   * `POST merge_requests` (the source branch removed on merge); a failure after the commit deletes the branch.
   */
  async openPullRequest(p: FileProposal): Promise<OpenedPullRequest> {
    const existing = await this.send("GET", `/repository/files/${encodeURIComponent(p.path)}?ref=${encodeURIComponent(p.base)}`);
    await existing.body?.cancel();
    if (existing.status === 200) throw new FileExists(p.path, p.base);
    if (existing.status !== 404) throw new OutboundError(`GitLab answered GET /repository/files with HTTP ${existing.status}`, existing.status);
    await (await this.call("POST", "/repository/commits", { branch: p.branch, start_branch: p.base, commit_message: p.commitMessage, actions: [{ action: "create", file_path: p.path, content: p.content }] })).body?.cancel();
    try {
      const mr = (await (await this.call("POST", "/merge_requests", { source_branch: p.branch, target_branch: p.base, title: p.title, description: p.body, remove_source_branch: true })).json()) as { web_url?: unknown; iid?: unknown };
      if (typeof mr.web_url !== "string" || typeof mr.iid !== "number") throw new OutboundError("GitLab's merge request answer has no web_url or iid");
      return { url: mr.web_url, number: mr.iid };
    } catch (error) {
      await this.call("DELETE", `/repository/branches/${encodeURIComponent(p.branch)}`).then((r) => r.body?.cancel(), (e) => console.error("git: the merge request's branch could not be deleted", p.branch, e));
      throw error;
    }
  }

  async archive(ref: string, maxBytes: number): Promise<Uint8Array> {
    return readLimited(await this.call("GET", `/repository/archive.tar.gz?sha=${encodeURIComponent(ref)}`), maxBytes);
  }

  async startCheck(sha: string, detailsUrl?: string): Promise<string> {
    await (await this.call("POST", `/statuses/${sha}`, { state: "pending", name: CHECK_NAME, description: "Portico is checking this commit", ...(detailsUrl ? { target_url: detailsUrl } : {}) })).body?.cancel();
    return sha;
  }

  async completeCheck(_id: string, sha: string, outcome: CheckOutcome): Promise<void> {
    const state = outcome.conclusion === "failure" ? "failed" : "success";
    await (await this.call("POST", `/statuses/${sha}`, { state, name: CHECK_NAME, description: outcome.title.slice(0, 255), ...(outcome.detailsUrl ? { target_url: outcome.detailsUrl } : {}) })).body?.cancel();
  }

  async upsertComment(mergeRequest: number, body: string, noteId?: string | null): Promise<string> {
    if (noteId) {
      try {
        const res = await this.call("PUT", `/merge_requests/${mergeRequest}/notes/${noteId}`, { body });
        return String(((await res.json()) as { id: unknown }).id);
      } catch (error) {
        if (!(error instanceof OutboundError) || error.status !== 404) throw error;
      }
    }
    const res = await this.call("POST", `/merge_requests/${mergeRequest}/notes`, { body });
    return String(((await res.json()) as { id: unknown }).id);
  }
}
