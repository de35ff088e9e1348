/**
 * @module One publish, end to end: the raw body (handed by the upload route and stored in R2 beside the build, or
 * handed already stored (`stored`: the route wrote it to R2 as it arrived, store/early-store.ts), or read from R2) → build (parse, detect, normalise, bundle, model) → lint →
 * KV slices (content-addressed, header last) → D1 rows → live pointer flipped in the same D1 transaction.
 * Lint runs within the request only for definitions within INLINE_LINT_BUDGET (or `?strict=true`, before
 * anything is written); a larger one goes live first and hands its lint to the PortalPublisher (`lateLint`).
 * Bad input is answered with a 4xx and leaves everything already published as it was. The attempt's budget
 * bounds the build's work, and its checkpoints stop a publish past its deadline before any D1 write
 * (see deadline.ts).
 */
import { INLINE_LINT_BUDGET, LINT_BUDGET } from "../openapi/budgets";
import { createBudget } from "../openapi/work-budget";
import { buildReference, overBudget, publishWorkUnits, type BuildFailure, type BuildSuccess } from "../openapi/build";
import { buildStreamed, STREAM_BUILD_MIN_BYTES, WHOLE_BUILD_MAX_BYTES, type ByteSource, type StreamedBuildFailure, type StreamedBuildSuccess } from "../openapi/stream/build";
import { headDeclaresSwagger2, SNIFF_HEAD_BYTES } from "../openapi/stream/sniff";
import { BudgetExceeded } from "../openapi/work-budget";
import { MAX_MODEL_SLICE_CHARS, MAX_SLICE_TARGET_CHARS, SliceTooDense } from "../openapi/model/slice-size";
import { commitVersion, failVersion, stageVersion, findApi, findVersionById, insertPendingVersion, recordLint, upsertApi, withLintReport } from "../store/apis";
import { getDb } from "../store/db";
import { catalogFor } from "../store/portal-catalog";
import { DEFINITION_MEDIA_TYPES, definitionKey, definitionMediaType, getDefinition, locateDefinition, putDefinition } from "../store/definitions";
import { modelComplete, modelKeyFor, putHeader, putSlices, SlicesTooHeavy } from "../store/models";
import { pieces } from "../lib/pieces";
import { PublishAttempt } from "./deadline";
import { buildOnlyReport, lintForUpload, lintInline, storedLintJson, storedLintReport } from "./lint-step";
import { afterIndexLive, apiDocumentsKey, definitionLocale, ensurePortalIndex, portalIndex, type ApiChange } from "./search-index";
import { operationDocument, STREAMED_SCHEMA_WALK } from "../search/documents";
import { DocumentSetWriter } from "../search/document-set";
import { liveRelease } from "../store/content";
import { putDocumentParts, searchPointerStatements } from "../store/search";
import { versionFallbackIssue, versionLabelIssue, type LabelSource } from "./label-issues";
import { apiSlugFromTitle, fallbackVersionLabel, isValidApiSlug, labelFromVersion, normalizeLabel } from "./names";
import type { AnswerLint, LateLint, PublishRequest, PublishResponse, UploadIssue } from "./types";

/** Knobs of one publish that the PortalPublisher sets (tests lower them through runInDurableObject). */
export interface PublishOptions {
  /** Bodies up to this many bytes are linted within the request (default {@link INLINE_LINT_BUDGET}.maxBytes). */
  inlineLintMaxBytes?: number;
  /** Work units a lint within the request may spend (default {@link INLINE_LINT_BUDGET}.maxWork); past them it is left to the late lint. */
  inlineLintWork?: number;
}

/** Where a version's lint report is served: `GET /v1/apis/{api}/versions/{version}/lint` (same auth as uploads). */
export function lintReportUrl(origin: string, api: string, label: string): string {
  return `${origin}/v1/apis/${api}/versions/${encodeURIComponent(label)}/lint`;
}

function refusal(status: PublishResponse["status"], code: string, message: string, details?: unknown): PublishResponse {
  return { status, json: JSON.stringify({ error: { code, message, ...(details === undefined ? {} : { details }) } }), timings: {} };
}

/** Milliseconds per publish phase, for the upload's Server-Timing header (wall clock: I/O included). */
function stopwatch() {
  const timings: Record<string, number> = {};
  let last = Date.now();
  return {
    timings,
    lap(name: string) {
      const now = Date.now();
      timings[name] = (timings[name] ?? 0) + (now - last);
      last = now;
    },
  };
}

/**
 * Runs one publish; called by PortalPublisher one at a time per portal, inside `settleWithin(attempt, …)`.
 * Throws the attempt's BudgetExceeded / PublishAborted when it runs out (settleWithin answers those with 422).
 * A 201 whose lint was left for later carries `lateLint` (the PortalPublisher runs it after answering).
 */
export async function publishDefinition(env: Env, req: PublishRequest, attempt = new PublishAttempt(), options: PublishOptions = {}): Promise<PublishResponse> {
  const clock = stopwatch();
  // A handed body (≤ 16 MiB, issue 12) is stored in R2 while it is built rather than before: `storing` is awaited
  // before the first D1 write (and before an "unchanged" answer), so a failed write fails the publish with nothing
  // written to D1; the KV chunks already written are content-addressed and unread.
  // (A body the route stored while it arrived, `stored`, is not put again.)
  const storing = req.body && !req.stored ? storeHanded(env.DEFINITIONS, req.sha256, req.body, clock.timings) : undefined;
  // The size first: a body past STREAM_BUILD_MIN_BYTES is never read whole (issue 12).
  // (A body streamed to R2 is stored once under a key of its own, named by an alias at its content address.)
  const stored = req.body ? { key: definitionKey(req.sha256), size: req.body.byteLength } : await locateDefinition(env.DEFINITIONS, req.sha256);
  if (!stored) return refusal(404, "definition-missing", "the uploaded body was not found in storage; upload it again");
  // A larger body may legitimately need more work (build.ts publishWorkUnits: linear in its bytes, capped).
  attempt.budget.raise(publishWorkUnits(stored.size));
  // Past it, a body that cannot be streamed but is within WHOLE_BUILD_MAX_BYTES is built whole after all.
  const large = stored.size > STREAM_BUILD_MIN_BYTES ? await buildLarge(env.DEFINITIONS, stored.key, stored.size, attempt) : "whole";
  // A streamed attempt that only the whole build can follow is timed apart (Server-Timing `stream-refused`).
  if (large === "stream-refused") clock.lap("stream-refused");
  const built = typeof large === "string" ? await buildWhole(env.DEFINITIONS, req, attempt) : large;
  clock.lap("build");
  if ("refused" in built) return built.refused;
  const { outcome, size, mediaType } = built;
  const { header, operations } = outcome;
  const streamed = "streamed" in outcome;
  const mb = (n: number) => Math.round(n / 2 ** 20);
  const tooDense = (measured: number, maxRefs?: number, overBy?: "model" | "slice") => {
    const reach = maxRefs === undefined ? "" : `, one reaches ${maxRefs} $ref targets`;
    const message =
      overBy === "slice"
        ? `one operation's page would need more than ${mb(MAX_SLICE_TARGET_CHARS)} MB of $ref targets (${maxRefs} of them, after ${measured} of ${operations.length} operations): a densely interconnected schema graph; nothing was published. Reduce the $refs each operation reaches, or split the definition`
        : `the reference would need more than ${mb(MAX_MODEL_SLICE_CHARS)} MB of operation pages: after ${measured} of ${operations.length} operations${reach} (a densely interconnected schema graph); nothing was published. Reduce the $refs each operation reaches, or split the definition`;
    return refusal(422, "too-dense", message);
  };
  // The stored model (slices, their target locations, each $ref target once) must fit KV's writes per publish, and
  // no page may have to parse more targets than an isolate can hold: refuse before writing (model/slice-size.ts).
  // A streamed build cannot weigh its model first: putSlices stops it past the same total instead, and its
  // `slice` throws SliceTooDense for a page past the per-page cap.
  if (!streamed) {
    const weight = outcome.weigh(MAX_MODEL_SLICE_CHARS);
    if (weight.over) return tooDense(weight.measured, weight.maxRefs, weight.overBy);
  }
  // The portal's ruleset (portico.yaml `lint:` of its live content release) applies to every upload's lint.
  const release = await liveRelease(env.DB, req.portalId);
  const ruleset = release?.config.lint;
  const lintOptions = ruleset ? { ruleset, ...(!streamed && outcome.source.path !== undefined ? { file: outcome.source.path } : {}) } : {};
  // Lint needs the whole parsed document; a streamed build lists the build's own findings instead (lint-step.ts).
  // Late and strict lints may spend LINT_BUDGET.maxWork; one within the request far less (lintWithinRequest).
  const lintUpload = (budget: typeof attempt.budget, extra: UploadIssue[]) =>
    streamed ? buildOnlyReport(outcome.issues, STREAMED_LINT_NOTE, extra) : lintForUpload(outcome, budget, { ...lintOptions, work: createBudget({ units: LINT_BUDGET.maxWork }) }, extra);
  // Undefined when the lint needs more work than the request may spend: the late lint makes the report.
  const lintWithinRequest = (extra: UploadIssue[]) =>
    streamed ? buildOnlyReport(outcome.issues, STREAMED_LINT_NOTE, extra) : lintInline(outcome, options.inlineLintWork ?? INLINE_LINT_BUDGET.maxWork, attempt.budget, lintOptions, extra);
  const apiSlug = req.apiSlug ?? apiSlugFromTitle(header.info.title);
  if (!isValidApiSlug(apiSlug)) {
    return refusal(400, "invalid-api", `api slug "${apiSlug}" must be 1-64 lower-case letters, digits and dashes`);
  }
  // A definition without a version (empty, white space, missing, not text) publishes under the upload date, with
  // a warning saying so (names.ts says why a date); what it does write must be a usable label.
  const written = req.versionLabel ?? String(header.info.version ?? "").trim();
  const labelIssues: UploadIssue[] = [];
  const labelSource = (): LabelSource => (streamed ? { parsed: { data: outcome.top, locate: outcome.locateTop } } : outcome.source);
  let label: string;
  if (written === "") {
    label = fallbackVersionLabel(new Date());
    labelIssues.push(versionFallbackIssue(labelSource(), label));
  } else {
    // Checked (and put in NFC) before anything is written: a label that cannot be linked to must not be committed.
    const fromInfo = req.versionLabel === undefined;
    const checked = normalizeLabel(fromInfo ? labelFromVersion(written) : written);
    if (!checked.ok) {
      const field = fromInfo ? "info.version" : "?version=";
      return refusal(422, "invalid-version", `${field} ${checked.reason}; set a plain version label (info.version or ?version=)`, { field });
    }
    label = checked.label;
    if (fromInfo && labelFromVersion(written) !== written) labelIssues.push(versionLabelIssue(labelSource(), written, label));
  }

  // Strict uploads are linted before anything is written; others within the inline budget lint while their KV
  // writes are in flight; larger ones go live first and are linted right after the answer (issue 12).
  // A streamed build's report (the build's findings, no lint) is ready at once: it is answered inline.
  const inline = streamed || req.strict === true || size <= (options.inlineLintMaxBytes ?? INLINE_LINT_BUDGET.maxBytes);
  if (req.strict && streamed) return refusal(422, "lint-stopped", `strict mode: ${STREAMED_LINT_NOTE}; nothing was published`);
  let lint = req.strict ? lintUpload(attempt.budget, labelIssues) : undefined;
  if (lint?.note) return refusal(422, "lint-stopped", `strict mode: ${lint.note}; nothing was published`, { lint });
  if (lint && lint.errors > 0) {
    return refusal(422, "lint-errors", `strict mode: lint found ${lint.errors} error(s); nothing was published`, { lint });
  }


  const db = getDb(env.DB);
  const modelKey = await modelKeyFor(req.sha256, req.root);
  const counts = header.counts;
  const lintUrl = lintReportUrl(req.origin, apiSlug, label);
  const answer = (apiSlug: string, lint: AnswerLint) => ({
    api: apiSlug,
    version: label,
    url: `${req.origin}${req.basePath}/reference/${apiSlug}/${encodeURIComponent(label)}/`,
    sha256: req.sha256,
    sourceVersion: outcome.sourceVersion,
    operations: counts.operations,
    schemas: counts.schemas,
    securitySchemes: counts.securitySchemes,
    webhooks: counts.webhooks,
    callbacks: counts.callbacks,
    lint,
  });

  const existing = await findApi(db, req.portalId, apiSlug);
  const preview = req.target === "preview";
  // Preview and staged versions are not made live here, so they leave the live search index alone.
  const notLive = preview || req.target === "staged";
  if (existing?.liveVersionId) {
    const live = await findVersionById(db, existing.liveVersionId);
    // A branch that leaves this definition as it is live previews the live version itself.
    if (preview && live && live.modelKey === modelKey && live.label === label) {
      await storing;
      return { status: 200, json: JSON.stringify({ ...answer(apiSlug, { status: "pending", url: lintUrl }), publication: live.id, unchanged: true }), timings: clock.timings };
    }
    if (live && live.modelKey === modelKey && live.label === label) {
      // A large definition re-posted answers with the report its publication already has (or will have).
      // (A small one is linted again, under the portal's ruleset now, unless that needs too much work.)
      const report = (inline ? (lint ?? lintWithinRequest(labelIssues)) : undefined) ?? storedLintReport(await withLintReport(catalogFor(env, req.portalId), live));
      let block: AnswerLint;
      if (report === "pending") block = { status: "pending", url: lintUrl };
      else block = { status: "complete", url: lintUrl, ...report };
      await ensurePortalIndex(env, req.portalId, attempt);
      await storing;
      return { status: 200, json: JSON.stringify({ ...answer(apiSlug, block), unchanged: true }), timings: clock.timings };
    }
  }

  // A model already stored (same definition under another label) is not written again; its slice
  // locations are recomputed, which serialising the same slices in the same order reproduces exactly.
  attempt.checkpoint("storing the model");
  const modelStored = await modelComplete(env.MODELS, modelKey);
  let firstWrite: () => void = () => undefined;
  const wrote = new Promise<void>((resolve) => (firstWrite = resolve));
  // Search documents are read from each slice as it is serialised: no operation is built twice.
  // A definition built streamed feeds the index lighter documents (documents.ts STREAMED_SCHEMA_WALK): Graph
  // beta's full ones made its index the longest step of a publish that must end within 30 s.
  const searchSource = { api: apiSlug, version: label, layout: existing?.layout ?? "page-per-operation", locale: definitionLocale(release?.config), tags: header.tags, ...(streamed ? { walk: STREAMED_SCHEMA_WALK } : {}) };
  // Kept as UTF-8 JSON parts, not objects (Microsoft Graph v1.0: 17 MB against ~58 MB): search/document-set.ts.
  const searchDocs = new DocumentSetWriter();
  const slice = async (slug: string) => {
    attempt.checkpoint("storing the model");
    const built = await outcome.slice(slug);
    searchDocs.add(operationDocument(built, searchSource));
    return built;
  };
  let serialised: () => void = () => undefined;
  const allSerialised = new Promise<void>((resolve) => (serialised = resolve));
  const writing = putSlices(env.MODELS, modelKey, operations.map((op) => op.slug), slice, !modelStored, firstWrite, streamed ? MAX_MODEL_SLICE_CHARS : Infinity, serialised);
  // A streamed model too heavy to store stops while writing: refused as a whole-document build is before it.
  const tooHeavy = writing.then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof SlicesTooHeavy) return tooDense(error.measured);
      // A streamed slice past the per-page cap: the same refusal as a whole build's weighing, over by "slice".
      if (error instanceof SliceTooDense) return tooDense(operations.findIndex((op) => op.slug === error.slug) + 1, error.refs, "slice");
      throw error;
    },
  );
  if (!lint && inline) {
    // Lint holds the isolate for up to half a second here: start it once the first KV writes are on the wire, so
    // that the rest of the batch completes meanwhile. Past its work units it is left to the late lint.
    await Promise.race([wrote, tooHeavy]);
    lint = lintWithinRequest(labelIssues);
    clock.lap("lint");
  }
  // Once every slice is serialised (its search document read) the index can be built while the last chunk writes
  // and then the header (written last: "model complete") are on the wire; both are awaited before any D1 write.
  // A refusal (too heavy, too dense) is only thrown while slicing, so it is known by the time the race settles.
  const heavy = await Promise.race([allSerialised.then(() => undefined), tooHeavy]);
  if (heavy) return heavy;
  const modelWritten = tooHeavy.then(async () => {
    const stored = await writing;
    if (!modelStored) await putHeader(env.MODELS, modelKey, header);
    return stored;
  });
  // Awaited below; a KV failure must not be reported unhandled while the index is being built.
  modelWritten.catch(() => undefined);
  // Every slice is taken: the streamed build's caches and target table must not ride along into the search index
  // (issue 12: Graph beta's live memory there fell from ~112 MB to ~62 MB; bench/huge.mjs).
  if (streamed) outcome.release();
  clock.lap("kv-write");
  const documents = { key: await apiDocumentsKey(modelKey, searchSource), parts: searchDocs.finish() };
  // A preview or staged version never touches the live index here: its documents are kept, for the preview's own
  // index (git/preview-search.ts) or the release's, built before its flip (search-index.ts buildReleaseIndex).
  // A definition built streamed (past STREAM_BUILD_MIN_BYTES) gets its shard right after its answer, in the same
  // queue slot under a deadline of its own (storage37c): Microsoft Graph v1.0's shard was 4-6 s of a publish that
  // ran past its 30 s on a loaded machine. Until it is live, readers search the API's previous shard.
  const lateSearch = streamed && !notLive;
  const search = notLive || lateSearch ? undefined : await portalIndex(env, req.portalId, { api: { api: apiSlug, documents } }, attempt);
  if (notLive) await putDocumentParts(env.MODELS, documents.key, documents.parts);
  clock.lap("search");
  const { locations } = await modelWritten;
  clock.lap("kv-wait");
  // The answer is built before any D1 write: once the live pointer has flipped, nothing may fail the request
  // (CI would retry a publish that worked, adding publications).
  const body = answer(apiSlug, lint ? { status: "complete", url: lintUrl, ...lint } : { status: "pending", url: lintUrl });

  // Nothing in D1 may name a body that is not stored: a failed R2 write of a handed body throws here.
  await storing;
  attempt.checkpoint("recording the version");
  const now = new Date().toISOString();
  // A preview leaves the live API's title as it is (an API new on the branch gets a row without a live version).
  // (A staged version's title changes with the flip.)
  const api = notLive && existing ? existing : await upsertApi(db, req.portalId, apiSlug, header.info.title, now);
  const version = await insertPendingVersion(db, {
    apiId: api.id,
    label,
    sha256: req.sha256,
    // Served by GET /v1/apis/{api}/definition: Portico's reading of the bytes, per publication (the blob is shared).
    mediaType,
    root: req.root ?? null,
    modelKey,
    sourceVersion: outcome.sourceVersion,
    title: header.info.title,
    operations: counts.operations,
    schemas: counts.schemas,
    securitySchemes: counts.securitySchemes,
    webhooks: counts.webhooks,
    callbacks: counts.callbacks,
    // The report itself is kept in the portal's catalog (below); D1 holds its counts and status.
    lint: "{}",
    lintErrors: lint?.errors ?? 0,
    lintWarnings: lint?.warnings ?? 0,
    lintStatus: lint ? "complete" : "pending",
    createdAt: now,
  });
  const published = { ...body, publication: version.id, publishedAt: now, ...(notLive ? { documents: documents.key } : {}), ...(req.target === "staged" ? { staged: { apiId: api.id, title: header.info.title } } : {}) };
  const catalog = catalogFor(env, req.portalId);
  try {
    if (lint) await catalog.stub.putLintReport(req.portalId, version.id, storedLintJson(lint));
    attempt.checkpoint("making the version live");
    attempt.committing = true;
    if (notLive) await stageVersion(db, catalog, version.id, preview ? "preview" : "staged", operations, locations);
    else await commitVersion(db, catalog, api.id, version.id, operations, locations, search?.pointer);
  } catch (error) {
    await failVersion(db, version.id, catalog);
    throw error;
  }
  // The new index is live: the vectors only the previous one used can go (never fails the publish).
  await afterIndexLive(env, req.portalId, search);
  const answered = afterCommit(() => {
    clock.lap("d1-write");
    return { status: 201, json: JSON.stringify(published), timings: clock.timings };
  }, { publication: version.id, api: apiSlug, publishedAt: now });
  if (lateSearch) return { ...answered, lateLint: lateSearchShard(env, req.portalId, version.id, { api: apiSlug, documents }) };
  if (lint) return answered;
  // The version is live; its lint runs once the answer is on its way (PortalPublisher), on the build already in
  // memory, and only fills in the report (a version's pages never depend on it).
  const lateLint: LateLint = {
    portalId: req.portalId,
    versionId: version.id,
    async run(late) {
      const report = lintUpload(late.budget, labelIssues);
      late.checkpoint("storing the lint report");
      await recordLint(db, catalog, version.id, report, storedLintJson(report));
    },
  };
  return { ...answered, lateLint };
}

/**
 * The search shard of a live version, built after its answer (a definition built streamed: its lint report is the
 * build's own, made inline, so this is its only late step). Makes the shard live in a batch of its own, as a
 * layout change's reindex does; its deadline stops it before that batch (the API's previous shard stays live).
 */
function lateSearchShard(env: Env, portalId: number, versionId: number, change: ApiChange): LateLint {
  return {
    portalId,
    versionId,
    step: "search",
    async run(late: PublishAttempt) {
      const built = await portalIndex(env, portalId, { api: change }, late);
      if (!built) return;
      late.checkpoint("making the search index live");
      late.committing = true;
      await env.DB.batch(searchPointerStatements(env.DB, built.pointer));
      await afterIndexLive(env, portalId, built);
    },
  };
}

/** Why a streamed definition's report holds no lint problems (docs/lint.md, "Definitions past 25 MiB"). */
export const STREAMED_LINT_NOTE = `lint did not run: definitions past ${STREAM_BUILD_MIN_BYTES} bytes are built streamed and never parsed whole, which lint needs; only the build's own findings (structure, $refs, operationIds, info) are listed`;

type Built =
  | { outcome: BuildSuccess | StreamedBuildSuccess; size: number; mediaType: string }
  | { refused: PublishResponse };

/**
 * Puts a handed body in R2 under its hash (store/definitions.ts putDefinition) and records how long that took as
 * `timings["r2-store"]` (milliseconds; it runs beside the build, so it is not a lap). The returned promise rejects
 * with the R2 error; a rejection nobody awaits (a publish refused before its D1 writes) is not reported unhandled.
 */
function storeHanded(bucket: R2Bucket, sha256: string, body: Uint8Array, timings: Record<string, number>): Promise<void> {
  const started = Date.now();
  const put = putDefinition(bucket, sha256, body).then(() => void (timings["r2-store"] = Date.now() - started));
  put.catch(() => undefined);
  return put;
}

/** A build's refusal as the upload's answer: its status, reason, place and the first 200 issues. */
function buildRefusal({ status, code, message, line, column, issues }: BuildFailure | StreamedBuildFailure): PublishResponse {
  return refusal(status, code, message, { line, column, issues: issues.slice(0, 200) });
}

/** A body within STREAM_BUILD_MIN_BYTES (handed, or read whole from R2) built by build.ts (every format), as before issue 12. */
async function buildWhole(bucket: R2Bucket, req: PublishRequest, attempt: PublishAttempt): Promise<Built> {
  const raw = req.body ? { body: req.body } : await getDefinition(bucket, req.sha256);
  if (!raw) return { refused: refusal(404, "definition-missing", "the uploaded body was not found in storage; upload it again") };
  const outcome = buildReference({ body: raw.body, contentType: req.contentType, root: req.root, budget: attempt.budget });
  if (!outcome.ok) return { refused: buildRefusal(outcome) };
  // Served by GET /v1/apis/{api}/definition: Portico's reading of the bytes, per publication (the blob is shared).
  const mediaType = definitionMediaType(raw.body, outcome.source.path === undefined ? outcome.source.parsed.format : undefined);
  return { outcome, size: raw.body.byteLength, mediaType };
}

/**
 * A body past STREAM_BUILD_MIN_BYTES (up to the upload's 100 MB): a JSON or block-style YAML definition is built
 * streamed from R2 (openapi/stream/build.ts: never held whole). "whole" when it cannot be streamed (an archive,
 * Swagger 2.0, YAML the line reader cannot split) but is within WHOLE_BUILD_MAX_BYTES, told from its first
 * SNIFF_HEAD_BYTES (archive signatures, a top-level `swagger: "2.0"`: stream/sniff.ts); "stream-refused" when only
 * the streamed build's refusal told it (a `swagger` member past the head, YAML split badly further on). Past
 * WHOLE_BUILD_MAX_BYTES such a body is refused with 413, saying so. `key` is where its bytes are
 * (store/definitions.ts locateDefinition).
 */
async function buildLarge(bucket: R2Bucket, key: string, size: number, attempt: PublishAttempt): Promise<Built | "whole" | "stream-refused"> {
  const head = await bucket.get(key, { range: { offset: 0, length: SNIFF_HEAD_BYTES } });
  const first = head ? new Uint8Array(await head.arrayBuffer()) : new Uint8Array(0);
  const mediaType = definitionMediaType(first);
  const wholeAllowed = size <= WHOLE_BUILD_MAX_BYTES;
  if (mediaType !== DEFINITION_MEDIA_TYPES.json && mediaType !== DEFINITION_MEDIA_TYPES.yaml) {
    if (wholeAllowed) return "whole";
    const message = `archives are built from at most ${WHOLE_BUILD_MAX_BYTES} bytes (25 MiB); this one has ${size}. Definitions up to 100 MB are accepted as JSON or YAML, which are built streamed: send the root file alone, or split it`;
    return { refused: refusal(413, "too-large", message) };
  }
  const format = mediaType === DEFINITION_MEDIA_TYPES.yaml ? "yaml" : "json";
  // Swagger 2.0 declared up front: the streamed build would refuse it only after reading every byte (issue 12).
  if (wholeAllowed && headDeclaresSwagger2(first, format)) return "whole";
  try {
    const outcome = await buildStreamed(r2Source(bucket, key), attempt.budget, format);
    // What only the streamed build refuses (Swagger 2.0, YAML it cannot split) is built whole when small enough.
    if (!outcome.ok && wholeAllowed && STREAM_ONLY_REFUSALS.has(outcome.code)) return "stream-refused";
    if (!outcome.ok) return { refused: buildRefusal(outcome) };
    return { outcome, size, mediaType };
  } catch (error) {
    if (error instanceof BudgetExceeded) {
      const { status, code, message } = overBudget(error);
      return { refused: refusal(status, code, message) };
    }
    throw error;
  }
}

/** Refusals of the streamed build that a whole build would not make: such a body within WHOLE_BUILD_MAX_BYTES is built whole. */
const STREAM_ONLY_REFUSALS = new Set(["too-large-swagger2", "yaml-not-streamable"]);

/** An R2 object as the streamed build reads it: once as a stream, then by byte ranges. */
function r2Source(bucket: R2Bucket, key: string): ByteSource {
  const missing = () => new Error(`definition ${key} vanished from storage during its build`);
  return {
    async *stream() {
      const object = await bucket.get(key);
      if (!object) throw missing();
      // In 1 MiB pieces rather than the body's own few-KB chunks (lib/pieces.ts).
      yield* pieces(object.body);
    },
    async read(start, end) {
      const object = await bucket.get(key, { range: { offset: start, length: end - start } });
      if (!object) throw missing();
      return new Uint8Array(await object.arrayBuffer());
    },
  };
}

/**
 * Runs what follows the commit best-effort: should it throw anyway, the publish still answers 201 with the
 * facts that cannot fail to serialise (the version is live; its full answer is in `GET /v1/apis`).
 */
export function afterCommit(step: () => PublishResponse, facts: { publication: number; api: string; publishedAt: string }): PublishResponse {
  try {
    return step();
  } catch (error) {
    console.error("publish: answering after the commit failed; the version is live", facts.publication, error);
    return { status: 201, json: JSON.stringify({ ...facts, note: "published; see GET /v1/apis for the details" }), timings: {} };
  }
}
