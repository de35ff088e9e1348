/**
 * @module The portal's API references over the service API (portal token): upload, list, raw definition, layout.
 */
import { meteredChangelogWriter } from "../workspace/ai-drafts";
import { portalBasePath } from "../render/shell/base-path";
import { Hono } from "hono";
import type { PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publishAnswer, survivingReset } from "../http/publish-answer";
import { ClientAbortError } from "../http/read-body";
import { publicOrigin } from "../http/public-origin";
import { readJsonObject } from "../http/read-json";
import { changesLabel, strictQuery, uploadNames } from "../http/upload-query";
import { requirePortal } from "../middleware/auth";
import { versionChanges } from "../publish/changes";
import { workersAiChangelogWriter } from "../publish/changelog-ai-writer";
import { ensureDrafts, writerInput } from "../publish/changelog-drafts";
import { checkDraft, embeddedChangelogWriter } from "../publish/changelog-writer";
import { publisherFor } from "../publish/portal-publisher";
import { HANDED_BODY_MAX_BYTES, type PublishMessage } from "../publish/types";
import { listApiSummaries } from "../store/api-listing";
import { findApi, findPublishedVersion, findVersionById, publishedVersionsQuery, setLayout, withLintReport } from "../store/apis";
import { storedLintReport } from "../publish/lint-step";
import { lintReportUrl } from "../publish/publish-definition";
import { editDraft, findDraft, listDrafts, reviewDraft, type DraftRow } from "../store/changelog";
import { getDb } from "../store/db";
import { catalogFor } from "../store/portal-catalog";
import { definitionMediaType, getDefinition, openDefinition, putDefinition } from "../store/definitions";
import { sha256Hex } from "../store/tokens";
import { BodyRefused, receiveBody, type ReceivedBody } from "../store/definition-upload";
import { EARLY_STORE_MIN_BYTES, storeWhileArriving } from "../store/early-store";

/**
 * Largest accepted upload body: 100 MB, decimal (100,000,000 bytes). It is the request body limit of the Workers
 * plans our users have (Free and Pro; Cloudflare states it in MB), and the decimal reading is the smaller one, so
 * a body we accept is never one the platform would cut. Bodies past {@link MAX_BUFFERED_UPLOAD_BYTES} are
 * streamed to R2 (store/definition-upload.ts) and built from R2 without holding the whole document (issue 12).
 */
export const MAX_UPLOAD_BYTES = 100_000_000;

/** Bodies up to 25 MiB are read whole, hashed and stored as before issue 12 (the build parses them whole). */
export const MAX_BUFFERED_UPLOAD_BYTES = 25 * 1024 * 1024;

/** The 413 of a body past {@link MAX_UPLOAD_BYTES}. */
function tooLarge(): ApiError {
  return new ApiError(413, "too-large", `request body exceeds the ${MAX_UPLOAD_BYTES} byte limit (100 MB, the Workers request limit)`);
}

/** Media types that are never a definition: form encodings (send the raw file) and media. */
const REFUSED_MEDIA = /^(multipart\/|application\/x-www-form-urlencoded|image\/|audio\/|video\/|font\/|application\/pdf)/i;

/** Layouts a reference can use. */
export const LAYOUTS = ["page-per-operation", "single-page"] as const;

function optionalParam(value: string | undefined, name: string, max = 512): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (value.length > max) throw new ApiError(400, "invalid-query", `${name} is longer than ${max} characters`);
  return value;
}

/**
 * A handed body as the byte stream it crosses RPC as (publish/types.ts PublishMessage): a FixedLengthStream, so the
 * publisher's side knows its length, fed the bytes in one write. The write settles as the publisher reads; should it
 * never read (a refused message), the write is dropped with the stream.
 */
function handedStream(body: Uint8Array): ReadableStream<Uint8Array> {
  const stream = new FixedLengthStream(body.byteLength);
  const writer = stream.writable.getWriter();
  writer.write(body).then(() => writer.close()).catch(() => undefined);
  return stream.readable;
}

/** Largest upload (bytes) whose changelog draft is written right after its answer (larger ones when drafts are listed). */
export const DRAFT_ON_PUBLISH_MAX_BYTES = 1024 * 1024;

/**
 * Milliseconds between the upload's answer and its changelog draft: the draft builds two versions and diffs them
 * (synchronous CPU), and where the Worker and the runtime's other isolates share one thread (`wrangler dev`) work
 * started at once would hold the answer inside the runtime until it was done (as the late lint would: portal-publisher.ts).
 */
export const DRAFT_AFTER_ANSWER_MS = 100;

/**
 * Best effort, after the answer (issue 37: the draft was the largest step of a small publish, up to 1.8 s under
 * load): the publish already succeeded, so a draft that cannot be written is logged, and nothing is lost, since
 * listing drafts (the review page, `GET …/changelog/drafts`) and Git sync write every missing pair's draft.
 */
async function draftAfterPublish(env: PortalAppEnv["Bindings"], portal: { id: number; slug: string; hostname: string | null }, origin: string, answer: string): Promise<void> {
  try {
    const apiSlug = (JSON.parse(answer) as { api?: unknown }).api;
    if (typeof apiSlug !== "string") return;
    const db = getDb(env.DB);
    const api = await findApi(db, portal.id, apiSlug);
    if (!api) return;
    await ensureDrafts(env, db, portal, api, origin, new Date().toISOString(), embeddedChangelogWriter, 1);
  } catch (e) {
    console.warn("changelog draft after publish failed", portal.slug, e instanceof Error ? e.message : String(e));
  }
}

/**
 * Keeps `work` (already started, its failures handled) alive after the answer through the request's `waitUntil`;
 * without an execution context (the app called directly, as tests of whole-app answers do) it is left running.
 */
function afterAnswer(executionCtx: () => { waitUntil(promise: Promise<unknown>): void }, work: Promise<unknown>): void {
  let ctx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    ctx = executionCtx();
  } catch {
    ctx = undefined;
  }
  ctx?.waitUntil(work);
}

async function publishedApi(db: ReturnType<typeof getDb>, portalId: number, slug: string) {
  const api = await findApi(db, portalId, slug);
  if (!api || api.liveVersionId === null) throw new ApiError(404, "not-found", `no published API "${slug}"`);
  return api;
}

function draftId(raw: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(raw)) throw new ApiError(404, "not-found", "no such draft");
  return Number(raw);
}

/** Why an edit or review did nothing: the draft is unknown (404) or already reviewed (409). */
async function reviewRefusal(db: ReturnType<typeof getDb>, apiId: number, id: number): Promise<ApiError> {
  const draft = await findDraft(db, apiId, id);
  return draft ? new ApiError(409, "already-reviewed", `this draft was already ${draft.status}`) : new ApiError(404, "not-found", "no such draft");
}

function draftJson(d: DraftRow, labels?: Map<number, string>) {
  return {
    id: d.id,
    ...(labels ? { from: labels.get(d.fromVersionId), to: labels.get(d.toVersionId) } : {}),
    type: d.type,
    version: d.version,
    date: d.date,
    title: d.title,
    body: d.body,
    bullets: JSON.parse(d.bullets) as unknown,
    status: d.status,
    createdAt: d.createdAt,
    reviewedAt: d.reviewedAt,
  };
}

export const apisRoutes = new Hono<PortalAppEnv>()
  .use("/v1/apis/*", requirePortal)
  .use("/v1/apis", requirePortal)
  .post("/v1/apis/upload", async (c) => {
    const portal = c.get("portal");
    const contentType = c.req.header("content-type") ?? "application/octet-stream";
    if (REFUSED_MEDIA.test(contentType)) {
      throw new ApiError(
        415,
        "unsupported-media-type",
        `${contentType.split(";")[0]} is not accepted: post the raw definition (YAML or JSON) or a .tar.gz/.zip archive as the body`,
      );
    }
    const names = uploadNames(strictQuery(c.req.url, "api"), strictQuery(c.req.url, "version"));
    // A declared length past the limit is refused before a byte is read; the count refuses the rest (no or
    // wrong Content-Length) as soon as it passes.
    const declared = Number(c.req.header("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES) throw tooLarge();
    const started = Date.now();
    // A body the publisher will build whole, large enough for its R2 put to matter, is stored while it arrives
    // (store/early-store.ts); the rest as before: handed to the publisher, which stores it beside its build.
    const early =
      c.req.raw.body && Number.isInteger(declared) && declared >= EARLY_STORE_MIN_BYTES && declared <= HANDED_BODY_MAX_BYTES
        ? storeWhileArriving(c.env.DEFINITIONS, declared)
        : undefined;
    let received: ReceivedBody;
    try {
      received = await receiveBody(c.env.DEFINITIONS, c.req.raw.body, {
        maxBytes: MAX_UPLOAD_BYTES,
        bufferBytes: MAX_BUFFERED_UPLOAD_BYTES,
        ...(Number.isFinite(declared) ? { expectedBytes: declared } : {}),
        ...(early ? { onBytes: (bytes: Uint8Array) => early.write(bytes) } : {}),
      });
    } catch (error) {
      early?.abandon();
      if (error instanceof BodyRefused && error.reason === "short") {
        // A client whose connection is really gone never reads this; one that stopped sending early does.
        throw new ApiError(400, "incomplete-body", error.message, { declared: error.expected, received: error.received });
      }
      if (error instanceof BodyRefused) throw error.reason === "over-limit" ? tooLarge() : new ClientAbortError({ cause: error.cause });
      throw error;
    }
    let sha256: string;
    let size: number;
    let handed: Uint8Array | undefined;
    // Milliseconds the route waited, after hashing, for the early store's put and alias (Server-Timing `r2-tail`).
    let tailMs: number | undefined;
    if (received.kind === "buffered") {
      const body = received.bytes;
      if (body.byteLength === 0) {
        early?.abandon();
        throw new ApiError(400, "empty-body", "the request body is empty: post the definition as the body");
      }
      sha256 = await sha256Hex(body);
      size = body.byteLength;
      // A body built whole goes to the publisher with the request, which stores it in R2 while it builds (issue 12:
      // GitHub's 13 MB took ~0.5 s to store locally, then as long again to read back) unless it was stored while it
      // arrived; a larger one is stored first. The blob is shared by every portal posting these bytes: the
      // Content-Type is not stored with it.
      if (size <= HANDED_BODY_MAX_BYTES) handed = body;
      else await putDefinition(c.env.DEFINITIONS, sha256, body);
      if (early) {
        const waited = Date.now();
        // Stored (and named by its hash) before the publisher is called: nothing can publish a body not stored.
        await early.finish(sha256, size);
        tailMs = Date.now() - waited;
      }
    } else {
      early?.abandon();
      ({ sha256, size } = received);
    }
    const receiveMs = Date.now() - started - (tailMs ?? 0);
    const request: PublishMessage = {
      portalId: portal.id,
      portalSlug: portal.slug,
      basePath: portalBasePath(portal),
      sha256,
      ...(handed ? { body: handedStream(handed), bodyBytes: handed.byteLength, ...(early ? { stored: true } : {}) } : {}),
      contentType,
      ...names,
      root: optionalParam(c.req.query("root"), "root"),
      strict: c.req.query("strict") === "true",
      origin: publicOrigin(c.env, portal),
    };
    const publisher = publisherFor(c.env.PUBLISHER, portal.slug);
    const { lateLintVersion, ...result } = await survivingReset(() => publisher.publish(request));
    // `receive`: the body read and hashed (its R2 write is the publisher's `r2-store`, or, stored while it arrived,
    // the put's tail `r2-tail`); `r2-write`: read, hashed, stored.
    const response = publishAnswer(result, { [handed ? "receive" : "r2-write"]: receiveMs, ...(tailMs !== undefined ? { "r2-tail": tailMs } : {}), ...result.timings });
    // The version is live and answered; its late step (lint, or a streamed definition's search shard) starts once
    // this response is the runtime's (issue 12).
    if (lateLintVersion !== undefined) afterAnswer(() => c.executionCtx, publisher.startLateLint(lateLintVersion).catch(() => undefined));
    // A new live version with an earlier one gets its changelog draft moments after the answer when it is small (two
    // builds and a diff); larger ones are drafted when writers list drafts. Neither is in the upload's time.
    if (result.status === 201 && size <= DRAFT_ON_PUBLISH_MAX_BYTES) {
      const origin = request.origin;
      afterAnswer(() => c.executionCtx, new Promise((resolve) => setTimeout(resolve, DRAFT_AFTER_ANSWER_MS)).then(() => draftAfterPublish(c.env, portal, origin, result.json)));
    }
    return response;
  })
  .get("/v1/apis", async (c) => {
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const listed = await listApiSummaries(db, portal.id);
    const apis = listed.map(({ api, versions, liveLabel, publications }) => ({
      slug: api.slug,
      title: api.title,
      layout: api.layout,
      liveVersion: liveLabel,
      url: `${publicOrigin(c.env, portal)}${portalBasePath(portal)}/reference/${api.slug}/`,
      versions: versions.map((v) => ({
        label: v.label,
        live: v.id === api.liveVersionId,
        sha256: v.sha256,
        sourceVersion: v.sourceVersion,
        publishedAt: v.createdAt,
        operations: v.operations,
        schemas: v.schemas,
        securitySchemes: v.securitySchemes,
        webhooks: v.webhooks,
        callbacks: v.callbacks,
        lint: v.lintStatus === "pending" ? { status: "pending" } : { status: "complete", errors: v.lintErrors, warnings: v.lintWarnings },
      })),
      publications,
    }));
    return c.json({ apis });
  })
  .get("/v1/apis/:api/versions/:version/lint", async (c) => {
    // A published version's lint report (issue 12): 200 with it, or 202 while a large definition, already live,
    // is still being linted by its publisher (the upload answer's lint.url points here).
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await findApi(db, portal.id, c.req.param("api"));
    if (!api) throw new ApiError(404, "not-found", `no API "${c.req.param("api")}"`);
    const label = c.req.param("version").normalize("NFC");
    const version = await findPublishedVersion(db, api.id, label);
    if (!version) throw new ApiError(404, "not-found", `no published version "${label}" of "${api.slug}"`);
    const head = { api: api.slug, version: version.label, publication: version.id, publishedAt: version.createdAt, url: lintReportUrl(publicOrigin(c.env, portal), api.slug, version.label) };
    const report = storedLintReport(await withLintReport(catalogFor(c.env, portal.id), version));
    if (report === "pending") return c.json({ ...head, status: "pending" }, 202, { "retry-after": "2" });
    return c.json({ ...head, status: "complete", ...report });
  })
  .get("/v1/apis/:api/definition", async (c) => {
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await findApi(db, portal.id, c.req.param("api"));
    const live = api?.liveVersionId ? await findVersionById(db, api.liveVersionId) : undefined;
    if (!api || !live) throw new ApiError(404, "not-found", `no published API "${c.req.param("api")}"`);
    const headers = { "x-portico-version": encodeURIComponent(live.label) };
    // The media type is the publication's, decided by Portico: the body is streamed on, never held (up to 100 MB,
    // issue 12). Rows from before it was kept (bodies within 25 MiB): read whole, the type from the bytes.
    if (live.mediaType) {
      const stored = await openDefinition(c.env.DEFINITIONS, live.sha256);
      if (!stored) throw new ApiError(404, "not-found", "the live definition's raw body is missing");
      return new Response(stored.body, { headers: { ...headers, "content-type": live.mediaType } });
    }
    const raw = await getDefinition(c.env.DEFINITIONS, live.sha256);
    if (!raw) throw new ApiError(404, "not-found", "the live definition's raw body is missing");
    return new Response(raw.body, { headers: { ...headers, "content-type": definitionMediaType(raw.body) } });
  })
  .get("/v1/apis/:api/changes", async (c) => {
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await findApi(db, portal.id, c.req.param("api"));
    if (!api || api.liveVersionId === null) throw new ApiError(404, "not-found", `no published API "${c.req.param("api")}"`);
    const from = changesLabel(c.req.url, "from");
    const to = changesLabel(c.req.url, "to");
    const { from: f, to: t, result } = await versionChanges(c.env, db, api, from, to);
    return c.json({
      api: api.slug,
      from: { label: f.label, sha256: f.sha256, publishedAt: f.createdAt },
      to: { label: t.label, sha256: t.sha256, publishedAt: t.createdAt },
      ...result,
    });
  })
  .get("/v1/apis/:api/changelog-draft", async (c) => {
    // A preview of the draft the embedded writer proposes for any pair of versions (not stored; stored drafts are below).
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await findApi(db, portal.id, c.req.param("api"));
    if (!api || api.liveVersionId === null) throw new ApiError(404, "not-found", `no published API "${c.req.param("api")}"`);
    const { from, to, result } = await versionChanges(c.env, db, api, changesLabel(c.req.url, "from"), changesLabel(c.req.url, "to"));
    const draft = await embeddedChangelogWriter.write(await writerInput(catalogFor(c.env, portal.id), portal, api, publicOrigin(c.env, portal), from, to, result));
    const problems = checkDraft(draft, result);
    if (problems.length) throw new ApiError(500, "invalid-draft", "the draft cites changes the diff does not contain", problems);
    return c.json({ api: api.slug, from: from.label, to: to.label, status: "draft", draft });
  })
  .get("/v1/apis/:api/changelog/drafts", async (c) => {
    // Drafts missing for the newest version pairs are written first (a few per call), then all are listed.
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await publishedApi(db, portal.id, c.req.param("api"));
    // Production words drafts with Workers AI (held to the diff); locally, and whenever it fails, the embedded writer.
    const ai = c.env.AI;
    // AI drafts are a Pro feature costing 5 credits each for portals of an organisation (worker/workspace/ai-drafts.ts).
    const writer = ai ? meteredChangelogWriter(c.env, portal, workersAiChangelogWriter({ run: (model, input) => ai.run(model as Parameters<Ai["run"]>[0], input as never) })) : embeddedChangelogWriter;
    await ensureDrafts(c.env, db, portal, api, publicOrigin(c.env, portal), new Date().toISOString(), writer);
    const labels = new Map((await publishedVersionsQuery(db, api.id).all()).map((v) => [v.id, v.label]));
    return c.json({ api: api.slug, drafts: (await listDrafts(db, api.id)).map((d) => draftJson(d, labels)) });
  })
  .patch("/v1/apis/:api/changelog/drafts/:id", async (c) => {
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await publishedApi(db, portal.id, c.req.param("api"));
    const id = draftId(c.req.param("id"));
    const body = await readJsonObject(c.req.raw, 128 * 1024);
    const fields: { title?: string; body?: string } = {};
    if (body.title !== undefined) {
      if (typeof body.title !== "string" || !body.title.trim() || body.title.length > 200) throw new ApiError(400, "invalid-title", "title must be 1-200 characters");
      fields.title = body.title.trim();
    }
    if (body.body !== undefined) {
      if (typeof body.body !== "string" || body.body.length > 100_000) throw new ApiError(400, "invalid-body", "body must be Markdown of at most 100,000 characters");
      fields.body = body.body;
    }
    if (!fields.title && fields.body === undefined) throw new ApiError(400, "nothing-to-change", "send title and/or body");
    const updated = await editDraft(db, api.id, id, fields);
    if (!updated) throw await reviewRefusal(db, api.id, id);
    return c.json({ draft: draftJson(updated) });
  })
  .post("/v1/apis/:api/changelog/drafts/:id/:action{approve|discard}", async (c) => {
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await publishedApi(db, portal.id, c.req.param("api"));
    const id = draftId(c.req.param("id"));
    const status = c.req.param("action") === "approve" ? "approved" : "discarded";
    const reviewed = await reviewDraft(db, api.id, id, status, new Date().toISOString());
    if (!reviewed) throw await reviewRefusal(db, api.id, id);
    return c.json({ draft: draftJson(reviewed) });
  })
  .patch("/v1/apis/:api", async (c) => {
    const portal = c.get("portal");
    const db = getDb(c.env.DB);
    const api = await findApi(db, portal.id, c.req.param("api"));
    if (!api) throw new ApiError(404, "not-found", `no API "${c.req.param("api")}"`);
    const body = await readJsonObject(c.req.raw, 4096);
    const layout = body.layout;
    if (typeof layout !== "string" || !(LAYOUTS as readonly string[]).includes(layout)) {
      throw new ApiError(400, "invalid-layout", `layout must be one of ${LAYOUTS.join(", ")}`);
    }
    await setLayout(db, api.id, layout);
    // Search results link to operation pages or to anchors of the single page: the portal's index follows.
    if (layout !== api.layout && api.liveVersionId !== null) await publisherFor(c.env.PUBLISHER, portal.slug).reindex(portal.id);
    return c.json({ api: api.slug, layout });
  });
