/** @module Messages between the upload route and the PortalPublisher Durable Object. */
import type { WorkBudget } from "../openapi/work-budget";

/**
 * Largest body (bytes) the upload route hands to the publisher with the request (`PublishMessage.body`) instead of
 * storing it in R2 first: 16 MiB, the largest body built whole (openapi/stream/build.ts STREAM_BUILD_MIN_BYTES; a
 * test holds them equal). It crosses RPC as a byte stream, not inside the message, so the 32 MiB limit on a
 * serialised RPC message does not bound it. Larger bodies are in R2 before the publisher is called, as they always were.
 */
export const HANDED_BODY_MAX_BYTES = 16 * 1024 * 1024;

/**
 * One publish as the publisher runs it (publish-definition.ts). The raw body is either in R2 under `sha256` already,
 * or (at most {@link HANDED_BODY_MAX_BYTES}) carried in `body`, for the publisher to store in R2 while it builds
 * (issue 12). Over RPC it travels as a {@link PublishMessage}.
 */
export interface PublishRequest {
  portalId: number;
  portalSlug: string;
  /** The portal's reader URL prefix (`/p/{slug}`, "" on its custom hostname: render/shell/base-path.ts). */
  basePath: string;
  /** SHA-256 (lowercase hex) of the raw body; the route computed it from the bytes, `body` included. */
  sha256: string;
  /**
   * The raw body itself, when the route has not stored it: the publisher puts it in R2 under `sha256` beside the
   * build and awaits that write before any D1 write, so nothing published can name a body not yet stored.
   */
  body?: Uint8Array;
  /**
   * `body` is already in R2 under `sha256` (the route stored it while it arrived: store/early-store.ts); the
   * publisher builds from it and does not put it again.
   */
  stored?: boolean;
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
  /**
   * Where the version goes (default "live"). "preview": a Git branch preview's version (docs/git.md), never live:
   * stored as status "preview" (no live pointer, no live search index, never listed), its search documents kept in
   * KV under `documents` of the answer, its id answered as `publication`. A definition equal to the live one is
   * answered with the live version's id and `unchanged`. "staged": one part of a Git release that goes live with
   * the others in one D1 batch (worker/git/sync.ts): stored as status "staged", no live pointer, no search index
   * (rebuilt once the release is live), answered with `staged: { apiId, title }` for the flip. In-process only.
   */
  target?: "live" | "preview" | "staged";
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
  /** The portal the version is in (its catalog stores the report). */
  portalId: number;
  versionId: number;
  /**
   * What runs: the version's lint (default), or (storage37c) the search shard of a definition built streamed, which
   * follows its answer the same way; a search step that fails or runs out of time is logged and leaves the API's
   * previous shard live (no lint report is touched).
   */
  step?: "lint" | "search";
  run(attempt: { budget: WorkBudget; checkpoint(step: string): void }): Promise<void>;
}

/** The publisher's answer: the HTTP status and the JSON body (serialised once, here) the upload route returns. */
export interface PublishResponse {
  status: 200 | 201 | 400 | 404 | 413 | 415 | 422;
  json: string;
  /**
   * Milliseconds per consecutive phase (a definition's build, lint, kv-write, search, d1-write; a content release's
   * r2-read first), sent as Server-Timing; plus, for a handed body, `r2-store`: its R2 write, which ran beside them.
   */
  timings: Record<string, number>;
  /** Lint or search shard to run once this answer is sent (never crosses RPC: the PortalPublisher takes it off the answer). */
  lateLint?: LateLint;
  /**
   * Set on an answer whose lint (or, for a definition built streamed, search shard) runs after it: the version to
   * pass to `PortalPublisher.startLateLint` once the upload's response has been handed to the runtime.
   */
  lateLintVersion?: number;
}

/**
 * What the upload route sends the publisher over RPC: a {@link PublishRequest} whose handed body is a byte stream of
 * exactly `bodyBytes` bytes (1 to {@link HANDED_BODY_MAX_BYTES}). A stream because workerd serialises a Uint8Array
 * argument into the RPC message (V8's serializer, then a copy out of it): for GitHub's 13 MB that cost ~0.1 s of CPU
 * on the one thread a local `wrangler dev` shares with R2, KV and D1, where a stream costs about half; the publisher
 * reads it into one buffer (lib/pieces.ts readExactly) before the publish joins the portal's queue.
 */
export interface PublishMessage extends Omit<PublishRequest, "body"> {
  body?: ReadableStream<Uint8Array>;
  /** The handed body's length in bytes; present exactly when `body` is. */
  bodyBytes?: number;
}

/** Checks a message crossing into the Durable Object; RPC types are not enforced at run time. */
export function isPublishMessage(value: unknown): value is PublishMessage {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  const optString = (k: string) => v[k] === undefined || typeof v[k] === "string";
  return (
    typeof v.portalId === "number" &&
    typeof v.portalSlug === "string" &&
    typeof v.basePath === "string" &&
    typeof v.sha256 === "string" &&
    /^[0-9a-f]{64}$/.test(v.sha256) &&
    typeof v.contentType === "string" &&
    typeof v.origin === "string" &&
    optString("apiSlug") &&
    optString("versionLabel") &&
    optString("root") &&
    (v.strict === undefined || typeof v.strict === "boolean") &&
    (v.stored === undefined || (v.stored === true && v.body !== undefined)) &&
    (v.body === undefined
      ? v.bodyBytes === undefined
      : v.body instanceof ReadableStream && typeof v.bodyBytes === "number" && Number.isInteger(v.bodyBytes) && v.bodyBytes > 0 && v.bodyBytes <= HANDED_BODY_MAX_BYTES)
  );
}
