/**
 * @module The publish core: an uploaded body (JSON, YAML, .tar.gz, .tar or .zip) → a reference model, or a
 * refusal with an HTTP status and a reason. Platform-free, synchronous, never throws on bad input.
 *
 * sniff → (archive: extract, find root) → parse → detect version → (archive: bundle) → (2.0: upgrade to 3.0)
 * → model (header, operations, lazy slices) with located issues.
 */

import { ARCHIVE_LIMITS, extractArchive, gunzipBounded, isTar } from "./archive/extract";
import { findRoot } from "./archive/find-root";
import { BudgetExceeded, createBudget, type WorkBudget } from "./work-budget";
import { bundleDocument } from "./bundle/bundle";
import { buildModel } from "./model";
import { isObject } from "./model/pointer";
import type { SliceWeight } from "./model/slice-size";
import type { BuildIssue, OperationSlice, OperationSummary, ReferenceHeader, SpecVersion } from "./model/types";
import { detectVersion } from "./normalize/detect-version";
import { upgradeSwagger } from "./normalize/upgrade-swagger";
import { parseDocument } from "./parse";
import type { ParseError, ParsedDocument, ParseWarning } from "./parse";
import { ArchiveFiles } from "./pipeline/archive-source";
import { locateBundledIssues, locateModelIssues, locateSourceIssues } from "./pipeline/locate-issues";
import type { IssueSources } from "./pipeline/locate-issues";
import { decodeText, sniffBody } from "./pipeline/sniff";

/** Largest single definition accepted, in bytes, also once inflated from gzip (GitHub's REST description is 13 MB). */
export const MAX_DEFINITION_BYTES = 25 * 1024 * 1024;

export interface BuildInput {
  body: Uint8Array;
  /** Advisory only: the body's bytes decide what it is. */
  contentType?: string;
  /** For archives: the root file's path inside the archive (a single shared top folder may be omitted). */
  root?: string;
  /**
   * Spent by parsing, the reference walks and every later `slice` call; when it runs out the build answers 422
   * "over-budget" (and `slice` throws its BudgetExceeded). Default: {@link publishBudget}.
   */
  budget?: WorkBudget;
}

/**
 * Work units of one publish: GitHub's REST description (13 MB, 1,223 operations) spends about 0.18 M building
 * and slicing, so this leaves a margin of ~50x while a hostile graph stops within a few seconds of CPU.
 */
export const PUBLISH_WORK_UNITS = 10_000_000;

/**
 * Work units a publish may spend per byte of its body, past {@link PUBLISH_WORK_UNITS}. Real definitions spend far
 * less: Microsoft Graph beta (47 MB, 22,361 operations, dense `$ref`s) ~0.12 units a byte streamed, GitHub's
 * REST description ~0.015. A hostile definition gains units only by being larger, a byte at a time.
 */
export const PUBLISH_WORK_UNITS_PER_BYTE = 0.5;
/** The ceiling whatever the size: 100 MB (the upload limit) × {@link PUBLISH_WORK_UNITS_PER_BYTE}. */
export const MAX_PUBLISH_WORK_UNITS = 50_000_000;

/**
 * Work units of a publish of a `bytes`-byte body: {@link PUBLISH_WORK_UNITS} for anything up to 20 MB (hostile
 * small input: a dense graph stops within seconds), then {@link PUBLISH_WORK_UNITS_PER_BYTE} per byte, never past
 * {@link MAX_PUBLISH_WORK_UNITS}. Work stays linear in what was uploaded (and capped), and the publish's 30 s
 * deadline still bounds its time whatever the units.
 */
export function publishWorkUnits(bytes: number): number {
  return Math.min(MAX_PUBLISH_WORK_UNITS, Math.max(PUBLISH_WORK_UNITS, Math.ceil(bytes * PUBLISH_WORK_UNITS_PER_BYTE)));
}

/** A fresh budget for one publish: {@link PUBLISH_WORK_UNITS} units and, when given, a deadline (epoch ms). */
export function publishBudget(deadline?: number): WorkBudget {
  return createBudget({ units: PUBLISH_WORK_UNITS, ...(deadline === undefined ? {} : { deadline }) });
}

export interface BuildSuccess {
  ok: true;
  sourceVersion: SpecVersion;
  header: ReferenceHeader;
  operations: OperationSummary[];
  /** Builds one operation's slice on demand; throws a RangeError for a slug not in `operations`. */
  slice(slug: string): OperationSlice;
  /**
   * Estimates what all slices weigh together, stopping past `limit` characters (model/slice-size.ts): the
   * publisher refuses a model too heavy to store before writing any of it.
   */
  weigh(limit?: number): SliceWeight;
  /** Structural problems found on the way, with file (archives), path and line; sorted by file and line. */
  issues: BuildIssue[];
  /** The normalised 3.x document the model reads (bundled, upgraded); shares nodes with the slices. */
  document: Record<string, unknown>;
  /** The root file as uploaded (its `data` is never modified), for lint; `path` is set for archives. */
  source: { path?: string; parsed: ParsedDocument };
}

export interface BuildFailure {
  ok: false;
  status: 400 | 413 | 415 | 422;
  code: string;
  message: string;
  line?: number;
  column?: number;
  issues: BuildIssue[];
}

export type BuildOutcome = BuildSuccess | BuildFailure;

function fail(status: BuildFailure["status"], code: string, message: string, extra: Partial<BuildFailure> = {}): BuildFailure {
  return { ok: false, status, code, message, issues: [], ...extra };
}

/** Turns an uploaded body into a reference model (see the module comment for the steps). Never throws. */
export function buildReference(input: BuildInput): BuildOutcome {
  try {
    return build(input);
  } catch (e) {
    if (e instanceof BudgetExceeded) return overBudget(e);
    // Every step returns its problems; reaching this means a bug or an input no guard foresaw.
    const message = e instanceof RangeError ? "the definition is too large or too deeply nested to process" : `the definition could not be processed: ${e instanceof Error ? e.message : String(e)}`;
    return fail(422, "unprocessable", message);
  }
}

/** The refusal for a build stopped by its budget. */
export function overBudget(e: BudgetExceeded): BuildFailure {
  const why = e.reason === "time" ? "took longer than a publish may take" : "needed more work than a publish may do";
  return fail(422, "over-budget", `the definition ${why} (stopped while ${e.step}); nothing was published. Simplify it (fewer, less interconnected $refs) or split it`);
}

function build({ body, root, budget = publishBudget() }: BuildInput): BuildOutcome {
  if (body.length === 0) return fail(400, "empty", "the body is empty");
  const kind = sniffBody(body);
  if (kind.kind === "binary") return fail(415, "unsupported-media-type", kind.message);
  if (kind.kind === "text") {
    if (body.length > MAX_DEFINITION_BYTES) return fail(413, "too-large", `definitions are limited to ${MAX_DEFINITION_BYTES} bytes`);
    return buildSingle(kind.text, budget);
  }
  let data = body;
  if (kind.kind === "gzip") {
    const inflated = gunzipBounded(body, ARCHIVE_LIMITS.maxTotalBytes);
    if (!inflated.ok) return fail(inflated.tooLarge ? 413 : 400, inflated.tooLarge ? "archive-too-large" : "invalid-archive", inflated.message);
    data = inflated.data;
    if (!isTar(data)) {
      // A gzipped single definition rather than a tarball.
      if (data.length > MAX_DEFINITION_BYTES) return fail(413, "too-large", `the gzipped definition inflates to more than ${MAX_DEFINITION_BYTES} bytes (the limit for one definition)`);
      const text = decodeText(data);
      if (text === undefined) return fail(415, "unsupported-media-type", "the gzip data is neither a tar archive nor UTF-8 text");
      return buildSingle(text, budget);
    }
  }
  const extracted = extractArchive(data, kind.kind === "zip" ? "zip" : "tar");
  if (!extracted.ok) return fail(extracted.status, extracted.code, extracted.message);
  return buildArchive(new ArchiveFiles(extracted.files, extracted.links, budget), root, budget);
}

function buildSingle(text: string, budget: WorkBudget): BuildOutcome {
  const outcome = parseDocument(text, { budget });
  if (!outcome.ok) return parseFailure(outcome.error);
  const sources: IssueSources = { locate: (_file, path) => outcome.doc.locate(path), swagger2: false };
  return finish(outcome.doc, undefined, outcome.doc.data as Record<string, unknown>, sources, warningIssues(outcome.doc.warnings), budget);
}

function buildArchive(files: ArchiveFiles, requestedRoot: string | undefined, budget: WorkBudget): BuildOutcome {
  const choice = findRoot(files.paths, requestedRoot, (p) => files.text(p), (p) => files.hasRootKey(p));
  if (!choice.ok) return fail(422, choice.code, choice.message);
  const rootPath = choice.path;
  const outcome = files.parse(rootPath);
  if (!outcome) return fail(415, "unsupported-media-type", `${rootPath} is not UTF-8 text`);
  if (!outcome.ok) return parseFailure(outcome.error, rootPath);
  if (!isObject(outcome.doc.data)) return fail(422, "not-openapi", `${rootPath} is not an object, so it is not an OpenAPI definition`);
  const detected = detectVersion(outcome.doc.data);
  const sources: IssueSources = {
    locate: (file, path) => {
      const parsed = file === undefined || file === rootPath ? outcome : files.parse(file);
      return parsed?.ok ? parsed.doc.locate(path) : undefined;
    },
    rootPath,
    swagger2: detected.ok && detected.version === "2.0",
  };
  if (!detected.ok) return finish(outcome.doc, rootPath, outcome.doc.data, sources, [], budget);
  const bundled = bundleDocument({ rootPath, rootData: outcome.doc.data, load: (p) => files.load(p), swagger2: sources.swagger2 });
  sources.origins = bundled.origins;
  const issues = [...warningIssues(outcome.doc.warnings), ...locateSourceIssues(bundled.issues, sources)];
  for (const [file, warnings] of files.warnings()) if (file !== rootPath) issues.push(...warningIssues(warnings, file));
  return finish(outcome.doc, rootPath, bundled.document, sources, issues, budget, true);
}

/** Version check, 2.0 upgrade, model. `data` is the (bundled) root; `owned` when it is already a private copy. */
function finish(parsed: ParsedDocument, rootPath: string | undefined, data: Record<string, unknown>, sources: IssueSources, issues: BuildIssue[], budget: WorkBudget, owned = false): BuildOutcome {
  const at = (path: (string | number)[]) => sources.locate(undefined, path);
  const detected = detectVersion(data);
  if (!detected.ok) return fail(422, detected.code, detected.message, { ...at(detected.path), issues });
  sources.swagger2 = detected.version === "2.0";
  issues.push(...locateBundledIssues(detected.issues, sources));
  if ("paths" in data && !isObject(data.paths)) {
    const message = "`paths` must be an object mapping paths to path items; nothing can be built from this definition";
    return fail(422, "invalid-paths", message, { ...at(["paths"]), issues });
  }
  let document = data;
  const modelVersion: SpecVersion = detected.version === "2.0" ? "3.0" : detected.version;
  if (detected.version === "2.0") {
    const guardIssues: BuildIssue[] = [];
    const upgraded = upgradeSwagger(owned ? data : structuredClone(data), guardIssues);
    issues.push(...locateBundledIssues(guardIssues, sources));
    if (!upgraded.ok) return fail(422, "upgrade-failed", upgraded.message, { issues });
    document = upgraded.document;
  }
  const modelIssues: BuildIssue[] = [];
  const model = buildModel(document, detected.version, modelVersion, modelIssues, owned, budget);
  issues.push(...locateModelIssues(modelIssues, sources));
  return {
    ok: true,
    sourceVersion: detected.version,
    header: model.header,
    operations: model.operations,
    slice: model.slice,
    weigh: model.weigh,
    issues: sortIssues(issues),
    document,
    source: { ...(rootPath !== undefined ? { path: rootPath } : {}), parsed },
  };
}

/** Parser warnings (YAML duplicate keys, tolerated indentation) as issues. */
function warningIssues(warnings: ParseWarning[], file?: string): BuildIssue[] {
  return warnings.map((w) => ({
    severity: "warning",
    rule: w.code === "duplicate-key" ? "duplicate-key" : "yaml-warning",
    message: w.message,
    path: [],
    ...(file !== undefined ? { file } : {}),
    ...(w.line !== undefined ? { line: w.line, column: w.column } : {}),
  }));
}

function parseFailure(error: ParseError, file?: string): BuildFailure {
  const where = file ? `${file}: ` : "";
  const position = { ...(error.line !== undefined ? { line: error.line } : {}), ...(error.column !== undefined ? { column: error.column } : {}) };
  switch (error.code) {
    case "not-object":
      return fail(422, "not-openapi", `${where}${error.message}, so it is not an OpenAPI definition`, position);
    case "too-deep":
      return fail(400, "too-deep", `${where}${error.message}: refused to protect the service`, position);
    case "aliases":
      return fail(400, "yaml-aliases", `${where}${error.message}`, position);
    case "empty":
      return fail(400, "empty", `${where}the document is empty`, position);
    default:
      return fail(400, "syntax", `${where}${error.message}`, position);
  }
}

function sortIssues(issues: BuildIssue[]): BuildIssue[] {
  return issues
    .map((issue, i) => ({ issue, i }))
    .sort((a, b) => (a.issue.file ?? "").localeCompare(b.issue.file ?? "") || (a.issue.line ?? Number.MAX_SAFE_INTEGER) - (b.issue.line ?? Number.MAX_SAFE_INTEGER) || a.i - b.i)
    .map((x) => x.issue);
}
