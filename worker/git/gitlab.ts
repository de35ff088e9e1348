/**
 * @module The GitLab adapter of {@link GitHost} (REST API v4, `PRIVATE-TOKEN`: a project access token in
 * `GITLAB_TOKEN`): archive (`GET /projects/:id/repository/archive.tar.gz?sha=`), commit statuses named "Portico"
 * (`POST /projects/:id/statuses/:sha`: pending → success/failed, the summary as its description) instead of check
 * runs (GitLab has no line annotations: the findings go in the merge-request note), and one merge-request note,
 * updated (`PUT /projects/:id/merge_requests/:iid/notes/:note_id`). Calls go through outbound.ts.
 */
import type { CheckOutcome, GitHost } from "./host";
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

  private async call(method: string, path: string, body?: unknown): Promise<Response> {
    if (!this.token) throw new OutboundError("GitLab sync is not configured: set GITLAB_TOKEN (a project access token)");
    const headers = new Headers({ "private-token": this.token, "user-agent": "Portico-Git-Sync" });
    if (body !== undefined) headers.set("content-type", "application/json");
    const res = await outboundFetch(this.env, `${this.apiUrl}/projects/${this.project}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 300) {
      await res.body?.cancel();
      throw new OutboundError(`GitLab answered ${method} ${path.split("?")[0]} with HTTP ${res.status}`, res.status);
    }
    return res;
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
