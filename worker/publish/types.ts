/** @module Messages between the upload route and the PortalPublisher Durable Object. */
import type { WorkBudget } from "../openapi/work-budget";

/** What the upload route asks the publisher to do. The raw body is already in R2 under `sha256`. */
export interface PublishRequest {
  portalId: number;
  portalSlug: string;
  sha256: string;
  contentType: string;
  /** `?api=`: the API slug; default: a slug of `info.title`. */
  apiSlug?: string;
  /** `?version=`: the version label; default: `info.version`. */
  versionLabel?: string;
  /** `?root=`: the root file inside an archive. */
  root?: string;
  /** `?strict=true`: refuse with 422 when lint finds any error. */
  strict?: boolean;
  /** Scheme + host the reader URLs in the answer are built on. */
  origin: string;
}

/** One problem in an upload answer's `lint` block. */
export interface UploadIssue {
  severity: "error" | "warning" | "info" | "hint";
  rule: string;
  message: string;
  line: number | null;
  column?: number | null;
  path: (string | number)[];
  file?: string;
  /** On the "…and N more like this" issue of a rule listed only in part: how many of its problems are not listed. */
  more?: number;
}

/** The `lint` block of an upload answer. */
export interface UploadLint {
  errors: number;
  warnings: number;
  issues: UploadIssue[];
  /** Present when more issues were found than an answer carries (or a rule's were listed only in part). */
  truncated?: boolean;
  /** Present when lint could not run to the end (the publish went on without it). */
  note?: string;
}

/**
 * The `lint` block of an upload answer (issue 12): the report itself when lint ran within the upload's request
 * (`status: "complete"`), or only where it will be (`status: "pending"`) when the definition was too large to lint
 * before going live. `url` is `GET /v1/apis/{api}/versions/{version}/lint` either way.
 */
export type AnswerLint = (UploadLint & { status: "complete"; url: string }) | { status: "pending"; url: string };

/**
 * Lint left for after the live flip (issue 12): the PortalPublisher runs `run` once the upload has been answered,
 * within its own deadline, before the portal's next publish starts. `run` stores the report on the version
 * (D1 `versions.lint`, `lint_status` "complete").
 */
export interface LateLint {
  versionId: number;
  run(attempt: { budget: WorkBudget; checkpoint(step: string): void }): Promise<void>;
}

/** The publisher's answer: the HTTP status and the JSON body (serialised once, here) the upload route returns. */
export interface PublishResponse {
  status: 200 | 201 | 400 | 404 | 413 | 415 | 422;
  json: string;
  /** Milliseconds per phase (r2-read, build, lint, kv-write, d1-write), sent as Server-Timing. */
  timings: Record<string, number>;
  /** Lint to run once this answer is sent (never crosses RPC: the PortalPublisher takes it off the answer). */
  lateLint?: LateLint;
  /**
   * Set on an answer whose lint runs after it: the version to pass to `PortalPublisher.startLateLint` once the
   * upload's response has been handed to the runtime.
   */
  lateLintVersion?: number;
}

/** Checks a message crossing into the Durable Object; RPC types are not enforced at run time. */
export function isPublishRequest(value: unknown): value is PublishRequest {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  const optString = (k: string) => v[k] === undefined || typeof v[k] === "string";
  return (
    typeof v.portalId === "number" &&
    typeof v.portalSlug === "string" &&
    typeof v.sha256 === "string" &&
    /^[0-9a-f]{64}$/.test(v.sha256) &&
    typeof v.contentType === "string" &&
    typeof v.origin === "string" &&
    optString("apiSlug") &&
    optString("versionLabel") &&
    optString("root") &&
    (v.strict === undefined || typeof v.strict === "boolean")
  );
}
