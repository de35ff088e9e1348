/**
 * @module One content publish, end to end: R2 raw bundle → archive (openapi/archive limits) → compile against
 * the portal's live operations → checks → KV page chunks and R2 assets (content-addressed) → D1 rows and the live
 * pointer in one batch (store/content.ts). Refusals (4xx) write nothing a reader can see.
 */
import { readContentArchive } from "../content/archive";
import { compileBundle, MAX_ASSETS, MAX_PAGES, type CompiledRelease } from "../content/compile";
import { commitRelease, getBundle, liveOperationIndex, liveRelease, packPages, putAssets, putChunks, releaseDigest } from "../store/content";
import { sha256 } from "../content/hash";
import type { PublishAttempt } from "./deadline";
import type { PublishResponse } from "./types";
import { afterIndexLive, contentChange, ensurePortalIndex, portalIndex } from "./search-index";
import { putDocumentParts } from "../store/search";

/** How long a dry run's preview link works. */
export const PREVIEW_TTL_MS = 24 * 60 * 60 * 1000;

/** 256 random bits, base64url: a preview link's secret. */
function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return "pv_" + btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** What the content upload route asks the publisher to do; the raw bundle is already in R2 under `sha256`. */
export interface ContentPublishRequest {
  portalId: number;
  portalSlug: string;
  /** The portal's reader URL prefix (`/p/{slug}`, "" on its custom hostname: render/shell/base-path.ts). */
  basePath: string;
  sha256: string;
  /** `?dryRun=true`: compile and check; nothing goes live, the release is kept as a preview behind a minted link. */
  dryRun?: boolean;
  /** `?allowBrokenLinks=true`: publish despite broken links (they stay in `checks`). */
  allowBrokenLinks?: boolean;
  origin: string;
  /**
   * A Git branch preview (worker/git/sync.ts; in-process only, never over RPC): the dry run is stored under this
   * token hash, reached at `{basePath}/preview/{path}/` and kept until `expiresAt`, and it is stored even when the
   * content equals the live release (the branch may change only its definitions).
   */
  branchPreview?: { tokenHash: string; path: string; expiresAt: string; operations?: OperationIndex; compiled?: CompiledRelease };
  /**
   * A part of a Git release (worker/git/sync.ts; in-process only): compiled against `operations` (the release's
   * definitions, staged with it), recorded as "staged" without the live pointer or a search index, and answered
   * 201 with its `release` id for the release's single flip.
   */
  staged?: { operations: OperationIndex; compiled?: CompiledRelease };
}

/** Operations by API slug, as content links resolve against them (store/content.ts liveOperationIndex). */
type OperationIndex = Parameters<typeof compileBundle>[1];

/** Checks a message crossing into the Durable Object. */
export function isContentPublishRequest(value: unknown): value is ContentPublishRequest {
  if (!value || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return typeof v.portalId === "number" && typeof v.portalSlug === "string" && typeof v.basePath === "string" && typeof v.sha256 === "string" && /^[0-9a-f]{64}$/.test(v.sha256) &&
    typeof v.origin === "string" && (v.dryRun === undefined || typeof v.dryRun === "boolean") && (v.allowBrokenLinks === undefined || typeof v.allowBrokenLinks === "boolean");
}

function answer(status: PublishResponse["status"], body: unknown, timings: Record<string, number>): PublishResponse {
  return { status, json: JSON.stringify(body), timings };
}

function summary(release: CompiledRelease) {
  const count = (k: string) => release.pages.filter((p) => p.meta.kind === k).length;
  return { pages: count("guide"), steps: count("step"), changelog: count("changelog"), glossary: release.glossary.length, locales: release.config.locales, checks: release.checks };
}

/** Runs one content publish; called by PortalPublisher one at a time per portal. Never throws on bad input. */
export async function publishContent(env: Env, req: ContentPublishRequest, attempt?: PublishAttempt): Promise<PublishResponse> {
  const timings: Record<string, number> = {};
  let last = Date.now();
  const lap = (name: string) => {
    const now = Date.now();
    timings[name] = now - last;
    last = now;
  };
  // Git sync hands the folder it already compiled (its checks, or a release's build check): the 1,000 guides of a
  // large repository are parsed once per job, not twice.
  let release: CompiledRelease | undefined = req.branchPreview?.compiled ?? req.staged?.compiled;
  if (!release) {
    const raw = await getBundle(env.DEFINITIONS, req.sha256);
    lap("r2-read");
    if (!raw) return answer(404, { error: { code: "bundle-missing", message: "the uploaded bundle was not found in storage; upload it again" } }, timings);
    const archive = readContentArchive(raw);
    if (!archive.ok) return answer(archive.status, { error: { code: archive.code, message: archive.message } }, timings);
    // A branch preview's links resolve against the branch's definitions (worker/git/sync.ts), else the live ones.
    const operations = req.branchPreview?.operations ?? req.staged?.operations ?? (await liveOperationIndex(env, req.portalId));
    try {
      release = await compileBundle(archive.files, operations);
    } catch (e) {
      const message = e instanceof RangeError ? "the bundle is too large or too deeply nested to process" : "the bundle could not be processed";
      return answer(422, { error: { code: "unprocessable", message } }, timings);
    }
    lap("compile");
  }
  const { checks } = release;
  if (release.refusal === "too-many-assets") {
    return answer(413, { error: { code: "too-many-assets", message: `a bundle holds at most ${MAX_ASSETS} assets (images, PDFs, text files)` } }, timings);
  }
  if (release.refusal === "too-many-pages") {
    return answer(413, { error: { code: "too-many-pages", message: `a bundle holds at most ${MAX_PAGES} pages (guides, code steps and changelog entries, all locales)` } }, timings);
  }
  if (release.refusal === "invalid-front-matter") {
    const n = checks.invalidFrontMatter.length;
    // A brand colour readers could not read is named with its ratio in the message itself (docs/branding.md).
    const contrast = checks.invalidFrontMatter.filter((p) => p.file === "portico.yaml" && p.message.includes("WCAG AA needs"));
    if (contrast.length) {
      const others = n - contrast.length;
      return answer(422, { error: { code: "low-contrast", message: `portico.yaml: ${contrast.map((p) => p.message).join("; ")}${others ? `; and ${others} other problem(s)` : ""}; nothing was published`, details: { checks } } }, timings);
    }
    return answer(422, { error: { code: "invalid-front-matter", message: `${n} page(s) or settings file(s) have invalid front matter or syntax; nothing was published`, details: { checks } } }, timings);
  }
  if (release.refusal === "broken-links" && !req.allowBrokenLinks) {
    const n = checks.brokenLinks.length;
    return answer(422, { error: { code: "broken-links", message: `${n} broken link(s); nothing was published (fix them, or publish with ?allowBrokenLinks=true)`, details: { checks } } }, timings);
  }
  const packed = await packPages(release);
  const digest = await releaseDigest(release, packed.at);
  const live = await liveRelease(env.DB, req.portalId);
  lap("digest");
  const url = `${req.origin}${req.basePath}/`;
  if (live && live.digest === digest && !req.branchPreview) {
    await ensurePortalIndex(env, req.portalId, attempt);
    return answer(200, { release: live.id, digest, unchanged: true, url, ...summary(release) }, timings);
  }
  attempt?.checkpoint("storing the pages");
  await Promise.all([putChunks(env.MODELS, packed.chunks), putAssets(env.DEFINITIONS, release)]);
  lap("kv-write");
  // The portal's search index as it will be with this release live (previews are not searchable).
  const search = req.dryRun || req.staged ? undefined : await portalIndex(env, req.portalId, { content: await contentChange(release.config, release.pages, release.glossary, digest) }, attempt);
  if (search) lap("search");
  if (req.staged) {
    // The release's index is built before its flip (git/sync.ts) from these documents.
    const staged = await contentChange(release.config, release.pages, release.glossary, digest);
    await putDocumentParts(env.MODELS, staged.documents.key, staged.documents.parts);
  }
  attempt?.checkpoint("making the release live");
  if (attempt) attempt.committing = true;
  const now = new Date().toISOString();
  if (req.dryRun) {
    // Not published: recorded as a preview that only its link (shown once, valid for a day) can open.
    const token = req.branchPreview ? undefined : randomToken();
    const expiresAt = req.branchPreview?.expiresAt ?? new Date(Date.now() + PREVIEW_TTL_MS).toISOString();
    const tokenHash = req.branchPreview?.tokenHash ?? (await sha256(token!));
    const releaseId = await commitRelease(env, req.portalId, req.sha256, digest, release, packed.at, now, { tokenHash, expiresAt });
    lap("d1-write");
    const preview = { url: `${req.origin}${req.basePath}/preview/${req.branchPreview?.path ?? token}/`, expiresAt, ...(req.branchPreview ? { release: releaseId } : {}) };
    return answer(200, { release: null, digest, dryRun: true, url, preview, ...summary(release) }, timings);
  }
  const id = await commitRelease(env, req.portalId, req.sha256, digest, release, packed.at, now, undefined, search?.pointer, !!req.staged);
  if (req.staged) return answer(201, { release: id, digest, staged: true, url, ...summary(release) }, timings);
  lap("d1-write");
  await afterIndexLive(env, req.portalId, search);
  return answer(201, { release: id, digest, publishedAt: now, url, ...summary(release) }, timings);
}
