/**
 * @module Webhook payload → the work Git sync does for one connected portal (a {@link GitJob}), for GitHub's
 * `push`, `pull_request` and `release` events and GitLab's Push Hook, Merge Request Hook and Release Hook.
 * Platform-free; payloads are hostile JSON: every field is checked before use.
 */
import { validBranch, type GitConnection, type GitPaths, type GitProvider } from "./config";

/** What one delivery asks of one portal. */
export type GitWork =
  /** A push to the production branch: publish definitions and content as one release. */
  | { kind: "production"; sha: string; branch: string }
  /** A push to another branch or an opened/updated pull request: build a preview (if on) and run the checks. */
  | { kind: "preview"; sha: string; branch: string; pullRequest?: number; build: boolean }
  /** A closed pull request: its preview expires 7 days later; a deleted branch (`deleted`): its preview goes now. */
  | { kind: "close"; branch: string; pullRequest?: number; deleted?: boolean }
  /** A published release: publish the definitions at the tag under the release's version label. */
  | { kind: "release"; sha: string; tag: string; label: string };

/** A job as it crosses into the PortalPublisher (RPC): the work plus who asked and where the portal is. */
export type GitJob = GitWork & {
  /** "upload": `POST /v1/git/sync` (`portico sync`), the files in R2 under `upload.sha256`. */
  provider: GitProvider | "upload";
  upload?: { sha256: string; paths?: GitPaths };
  deliveryId: string;
  event: string;
  portalId: number;
  portalSlug: string;
  basePath: string;
  origin: string;
};

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.length <= 1024 ? v : undefined);
const sha = (v: unknown): string | undefined => (typeof v === "string" && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(v) ? v : undefined);
const int = (v: unknown): number | undefined => (typeof v === "number" && Number.isSafeInteger(v) && v > 0 ? v : undefined);

/** The repository a payload is about (`owner/name`), or undefined. GitHub: `repository.full_name`; GitLab: `project.path_with_namespace`. */
export function payloadRepository(provider: GitProvider, payload: Obj): string | undefined {
  return provider === "github" ? str(obj(payload.repository)?.full_name) : str(obj(payload.project)?.path_with_namespace);
}

/** The installation id of a GitHub payload, or undefined. */
export function payloadInstallation(payload: Obj): number | undefined {
  return int(obj(payload.installation)?.id);
}

/** `v2.1.0` → `2.1.0`; other tags as they are. */
export function releaseLabel(tag: string): string {
  return /^v\d/.test(tag) ? tag.slice(1) : tag;
}

function pushWork(conn: GitConnection, ref: string | undefined, after: string | undefined, deleted: boolean): GitWork | undefined {
  if (!ref?.startsWith("refs/heads/") || !after) return undefined;
  const branch = ref.slice("refs/heads/".length);
  if (!validBranch(branch)) return undefined;
  if (deleted || /^0+$/.test(after)) return branch === conn.productionBranch ? undefined : { kind: "close", branch, deleted: true };
  if (branch === conn.productionBranch) return { kind: "production", sha: after, branch };
  if (conn.previews === "all-branches") return { kind: "preview", sha: after, branch, build: true };
  return undefined;
}

/**
 * The work a GitHub event asks of a connection, or undefined (nothing to do: another branch without previews,
 * a tag push, an action Portico does not act on).
 */
export function githubWork(conn: GitConnection, event: string, payload: Obj): GitWork | undefined {
  if (event === "push") return pushWork(conn, str(payload.ref), sha(payload.after), payload.deleted === true);
  if (event === "pull_request") {
    const pr = obj(payload.pull_request);
    const number = int(payload.number) ?? int(pr?.number);
    const head = obj(pr?.head);
    const branch = str(head?.ref);
    if (!number || !branch || !validBranch(branch)) return undefined;
    const action = payload.action;
    if (action === "closed") return { kind: "close", branch, pullRequest: number };
    if (action !== "opened" && action !== "synchronize" && action !== "reopened") return undefined;
    const headSha = sha(head?.sha);
    return headSha ? { kind: "preview", sha: headSha, branch, pullRequest: number, build: conn.previews !== "off" } : undefined;
  }
  if (event === "release") {
    const release = obj(payload.release);
    const tag = str(release?.tag_name);
    if (payload.action !== "published" || !conn.releases || !tag || release?.draft === true) return undefined;
    // The tag's commit is resolved by the archive call; `target_commitish` may be a branch name.
    return { kind: "release", sha: tag, tag, label: releaseLabel(tag) };
  }
  return undefined;
}

/** The work a GitLab hook asks of a connection (`X-Gitlab-Event`: Push Hook, Merge Request Hook, Release Hook). */
export function gitlabWork(conn: GitConnection, event: string, payload: Obj): GitWork | undefined {
  if (event === "Push Hook") return pushWork(conn, str(payload.ref), sha(payload.after) ?? sha(payload.checkout_sha), false);
  if (event === "Merge Request Hook") {
    const attrs = obj(payload.object_attributes);
    const number = int(attrs?.iid);
    const branch = str(attrs?.source_branch);
    if (!number || !branch || !validBranch(branch)) return undefined;
    const action = attrs?.action;
    if (action === "close" || action === "merge") return { kind: "close", branch, pullRequest: number };
    if (action !== "open" && action !== "update" && action !== "reopen") return undefined;
    const head = sha(obj(attrs?.last_commit)?.id);
    return head ? { kind: "preview", sha: head, branch, pullRequest: number, build: conn.previews !== "off" } : undefined;
  }
  if (event === "Release Hook") {
    const tag = str(payload.tag);
    if (payload.action !== "create" || !conn.releases || !tag) return undefined;
    return { kind: "release", sha: tag, tag, label: releaseLabel(tag) };
  }
  return undefined;
}

/** Checks a job crossing into the Durable Object (RPC types are not enforced at run time). */
export function isGitJob(value: unknown): value is GitJob {
  const v = obj(value);
  if (!v) return false;
  const upload = obj(v.upload);
  if (v.provider === "upload" && (!upload || typeof upload.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(upload.sha256))) return false;
  const common = (v.provider === "github" || v.provider === "gitlab" || v.provider === "upload") && typeof v.deliveryId === "string" && typeof v.event === "string" && typeof v.portalId === "number" &&
    typeof v.portalSlug === "string" && typeof v.basePath === "string" && typeof v.origin === "string";
  if (!common) return false;
  switch (v.kind) {
    case "production": return typeof v.sha === "string" && typeof v.branch === "string";
    case "preview": return typeof v.sha === "string" && typeof v.branch === "string" && typeof v.build === "boolean";
    case "close": return typeof v.branch === "string" && (typeof v.pullRequest === "number" || (v.pullRequest === undefined && v.deleted === true));
    case "release": return typeof v.sha === "string" && typeof v.tag === "string" && typeof v.label === "string";
    default: return false;
  }
}
