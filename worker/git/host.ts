/**
 * @module The `GitHost` port (docs/git.md): what Git sync asks of a provider, whatever it is. GitHub App
 * (github.ts) and GitLab (gitlab.ts) implement it; tests run them against a recorded fake of the REST API.
 */

/** One annotation of a check run (GitHub's shape: path, 1-based lines, level). */
export interface CheckAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: "notice" | "warning" | "failure";
  message: string;
  title?: string;
}

/** A check run's outcome. */
export interface CheckOutcome {
  conclusion: "success" | "failure" | "neutral";
  title: string;
  /** Markdown. */
  summary: string;
  annotations: CheckAnnotation[];
  detailsUrl?: string;
}

/** Provider operations Git sync needs. Every method throws OutboundError (outbound.ts) on a failed call. */
export interface GitHost {
  /** The repository's files at `ref` as a gzipped tar (GitHub's and GitLab's archive), at most `maxBytes`. @throws TooLarge */
  archive(ref: string, maxBytes: number): Promise<Uint8Array>;
  /** Starts the "Portico" check (GitHub: a check run in progress; GitLab: a pending commit status); its id. */
  startCheck(sha: string, detailsUrl?: string): Promise<string>;
  /** Completes the check started as `id` on `sha`. */
  completeCheck(id: string, sha: string, outcome: CheckOutcome): Promise<void>;
  /** Creates the pull request's Portico comment, or updates `commentId`; the comment's id. */
  upsertComment(pullRequest: number, body: string, commentId?: string | null): Promise<string>;
  /**
   * Proposes one new file as a pull request (GitLab: a merge request): a new branch `branch` from `base`, one commit
   * adding `path` (never replacing a file), and the request from it. Whatever it made before a failure (the branch)
   * is deleted again, best effort.
   * @throws FileExists when `path` exists on `base`; OutboundError for a failed call.
   */
  openPullRequest(proposal: FileProposal): Promise<OpenedPullRequest>;
}

/** A new file proposed for review (a backlog draft: worker/git/pull-request.ts). */
export interface FileProposal {
  /** The branch the request targets (the connection's production branch). */
  base: string;
  /** The new branch holding the commit (must not exist). */
  branch: string;
  /** Repository path of the new file. */
  path: string;
  /** The file's text (UTF-8). */
  content: string;
  commitMessage: string;
  title: string;
  /** Markdown. */
  body: string;
}

/** The opened request: its web address and number (GitLab: the merge request's iid). */
export interface OpenedPullRequest {
  url: string;
  number: number;
}

/** Thrown when a proposed file is already in the repository at the base branch (nothing was made). */
export class FileExists extends Error {
  constructor(readonly path: string, readonly base: string) {
    super(`${path} already exists on ${base}: rename the draft (its title gives the file name) or edit that file instead`);
    this.name = "FileExists";
  }
}

/** GitHub's limit of annotations per check-run request (more go in further updates). */
export const ANNOTATIONS_PER_REQUEST = 50;

/**
 * The host of an uploaded folder (`POST /v1/git/sync`, `portico sync`): its archive is the uploaded tarball
 * (in R2 under its SHA-256), and there is no check run nor comment to write (the answer carries the summary).
 */
export class UploadedTree implements GitHost {
  constructor(private readonly read: () => Promise<Uint8Array | undefined>) {}

  async archive(): Promise<Uint8Array> {
    const body = await this.read();
    if (!body) throw new Error("the uploaded folder is no longer stored; upload it again");
    return body;
  }
  async startCheck(): Promise<string> {
    return "upload";
  }
  async completeCheck(): Promise<void> {}
  async upsertComment(): Promise<string> {
    return "";
  }
  async openPullRequest(): Promise<OpenedPullRequest> {
    throw new Error("an uploaded folder has no repository to open a pull request in");
  }
}
