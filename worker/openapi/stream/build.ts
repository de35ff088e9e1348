/**
 * @module The streamed build (issue 12): a JSON or YAML definition too large to parse whole (past
 * {@link STREAM_BUILD_MIN_BYTES}) becomes the same model as build.ts makes (header, operation summaries, slices),
 * without ever holding the whole document.
 *
 * 1. indexJson: one pass over the bytes → byte ranges and positions of the top-level members, `paths` and
 *    `webhooks` entries and `components/{section}/{name}` entries.
 * 2. The small top-level members (info, servers, tags, security, ...) and `components.securitySchemes` are read and
 *    parsed: the header.
 * 3. A skeleton of every path item (each operation's operationId, summary, tags, deprecated and callbacks; path
 *    item `$ref`s followed) goes through the model's own collectOperations: the same slugs, order and issues as a
 *    whole-document build.
 * 4. Each slice is built from a mini-document (the small members, its path item, the path items and callbacks it
 *    `$ref`s) and its reach in the build-wide target table ({@link TargetTable}): each `$ref` target is resolved,
 *    read, walked and weighed once per build, its own refs kept as target numbers, so a slice's reach is a walk
 *    over small integers; its values come back through the bounded cache of parsed entries (range reads coalesced
 *    into windows). A slice reaching more than MAX_SLICE_TARGET_CHARS of targets throws SliceTooDense.
 *
 * Positions stay exact: each entry is parsed alone and its positions are shifted by where it starts.
 * 5. Every `$ref` of the document is checked once, entry by entry in document order (the whole build's checkRefs,
 *    with targets looked up in the index): the skeleton pass reads only the path items and callbacks it follows.
 * YAML (block style) is indexed by yaml-index.ts instead, and each entry parsed with the `yaml` library; the rest is
 * the same (one switch on the format: the index, the entry parser, and the checks only YAML needs). The `yaml`
 * library reads ~4 MB/s, JSON.parse ~20x that: each YAML entry is parsed once per build and its value kept as
 * deflated compact JSON (STREAM_PACKED_CACHE_BYTES), which later reads (the slices, `$ref` targets evicted from the
 * caches) unpack instead of parsing the text again; positions still come from the text (parsed again only for an
 * issue's line). Entries read only for their errors (a member too large to keep) build no value.
 * Not done here: Swagger 2.0 (the upgrade needs the whole document), archives; lint (the caller says so).
 */
import { buildHeader } from "../model/header";
import { buildSlice, sliceRoots } from "../model";
import { checkRefs } from "../model/check-refs";
import { collectOperations, type OperationEntry } from "../model/operations";
import { resolveObjectRef } from "../model/path-item";
import { isObject, parseRef, resolvePointer, type PathSegment } from "../model/pointer";
import type { RefClosure } from "../model/ref-closure";
import type { BuildIssue, OperationSlice, OperationSummary, ReferenceHeader, SpecVersion } from "../model/types";
import { walkRefs } from "../model/walk-refs";
import { detectVersion } from "../normalize/detect-version";
import { DEFAULT_MAX_DEPTH } from "../parse";
import type { SourcePosition } from "../parse/types";
import { UNLIMITED, type WorkBudget } from "../work-budget";
import { indexJson, type IndexedEntry } from "./json-index";
import { YamlEntryError } from "./yaml-entry";
import { indexYaml, type YamlIndex } from "./yaml-index";
import { EntryReader, EntryTooLarge, shifted, STREAM_MAX_ENTRY_BYTES, STREAM_MAX_MEMBER_BYTES, type ByteSource, type Locate, type StreamFormat } from "./entry-reader";
import { TargetTable, type EntryAt } from "./target-table";

export { STREAM_ENTRY_CACHE_CHARS, STREAM_MAX_ENTRY_BYTES, STREAM_MAX_MEMBER_BYTES, STREAM_PACKED_CACHE_BYTES, STREAM_PASSING_CACHE_CHARS, STREAM_RANDOM_WINDOW_BYTES, STREAM_WINDOW_BYTES, type ByteSource, type StreamFormat } from "./entry-reader";

/**
 * Definitions past this size (bytes) are built streamed when they are JSON or block-style YAML; smaller ones are
 * parsed whole. A whole build holds the parsed document, its model and the search documents at once: 6.6-9 times the
 * body in heap + ArrayBuffers (bench/core-build.mjs, CORE_SEARCH=1: GitHub's 13.0 MB, pretty-printed, 86.5 MB;
 * Microsoft Graph v1.0's 20.3 MB, minified, 163-181 MB), so a 128 MB isolate cannot build Graph v1.0 whole. 16 MiB
 * keeps GitHub (and its lint) whole with room to grow and streams Graph v1.0 (issue 12).
 */
export const STREAM_BUILD_MIN_BYTES = 16 * 1024 * 1024;
/**
 * Largest definition (bytes) built whole: what cannot be streamed (archives, Swagger 2.0, YAML the line reader
 * cannot split) is still built whole up to here, as before the streamed threshold came down from this size.
 */
export const WHOLE_BUILD_MAX_BYTES = 25 * 1024 * 1024;
/** Issues located at most (the publisher shows 200). */
const MAX_ISSUES = 5_000;

/** A model built streamed: as BuildSuccess, but slices are read from storage, so `slice` is async. */
export interface StreamedBuildSuccess {
  ok: true;
  streamed: true;
  sourceVersion: SpecVersion;
  header: ReferenceHeader;
  /** Path operations in document order, then webhook operations, then callback operations (as build.ts). */
  operations: OperationSummary[];
  /** One operation's slice, read from storage; throws a RangeError for a slug not in `operations`. */
  slice(slug: string): Promise<OperationSlice>;
  /** Structural problems, with exact lines and columns, sorted by line. */
  issues: BuildIssue[];
  /** The materialised small top-level members (info, servers, ...): what the publisher reads besides the model. */
  top: Record<string, unknown>;
  /** Where a path starts, for paths inside the materialised top-level members (the version-fallback warning). */
  locateTop(path: readonly PathSegment[]): SourcePosition | undefined;
  /**
   * Figures for the publisher's answer and the bench: bytes of the body, path items, components, and (live) the
   * entries parsed from their text so far (YAML: each entry once; later reads unpack its JSON).
   */
  stats: { bytes: number; pathItems: number; components: number; readonly textParses: number };
  /**
   * Drops what slices are built from (parsed-entry caches, read windows, the $ref target table): call once every
   * slice has been taken, so the publish's next steps (search index, D1) do not hold it; Graph beta's is ~50 MB of
   * heap and ArrayBuffers. `slice` throws afterwards; the header, operations and issues stay.
   */
  release(): void;
}

/** A refusal, in build.ts's terms. */
export interface StreamedBuildFailure {
  ok: false;
  status: 400 | 413 | 422;
  code: string;
  message: string;
  line?: number;
  column?: number;
  issues: BuildIssue[];
}

/** Fields of an operation that collectOperations reads (the rest stays in storage until its slice is built). */
const SKELETON_FIELDS = ["operationId", "summary", "tags", "deprecated"] as const;

/**
 * Builds the model streamed (see the module comment). Never throws on bad input; throws the budget's
 * BudgetExceeded when it runs out, and storage errors.
 */
export async function buildStreamed(source: ByteSource, budget: WorkBudget = UNLIMITED, format: StreamFormat = "json"): Promise<StreamedBuildSuccess | StreamedBuildFailure> {
  try {
    return await build(source, budget, format);
  } catch (error) {
    if (error instanceof YamlEntryError) return { ok: false, status: error.status, code: error.code, message: error.message, line: error.line, column: error.column, issues: [] };
    if (!(error instanceof EntryTooLarge)) throw error;
    const { key, keyAt, start, end } = error.entry;
    const message = `${JSON.stringify(key)} has ${end - start} bytes; a single path item, component or top-level member of a streamed definition may have ${STREAM_MAX_ENTRY_BYTES} (16 MiB) (line ${keyAt.line}, column ${keyAt.column})`;
    return { ok: false, status: 413, code: "entry-too-large", message, ...keyAt, issues: [] };
  }
}

async function build(source: ByteSource, budget: WorkBudget, format: StreamFormat): Promise<StreamedBuildSuccess | StreamedBuildFailure> {
  const indexed = format === "yaml" ? await indexYaml(source.stream()) : await indexJson(source.stream(), DEFAULT_MAX_DEPTH);
  if (!indexed.ok) {
    const { code, message, line, column } = indexed.error;
    if (code === "not-streamable") return { ok: false, status: 413, code: "yaml-not-streamable", message, line, column, issues: [] };
    const status = code === "not-object" ? 422 : 400;
    const named = code === "not-object" ? "not-openapi" : code === "too-deep" ? "too-deep" : code === "empty" ? "empty" : "syntax";
    return { ok: false, status, code: named, message: code === "not-object" ? `${message}, so it is not an OpenAPI definition` : message, line, column, issues: [] };
  }
  const index = indexed.index;
  budget.spend("reading the definition", Math.ceil(index.size / 4096));
  const depthOf = (entry: IndexedEntry) => (index.top.get(entry.key) === entry ? 1 : index.paths.get(entry.key) === entry || index.webhooks.get(entry.key) === entry ? 2 : 3);
  const reader = new EntryReader(source, index.size, budget, format, depthOf);
  const fail = (status: StreamedBuildFailure["status"], code: string, message: string, at?: SourcePosition): StreamedBuildFailure => ({ ok: false, status, code, message, ...at, issues: [] });
  const entriesOf = (place: "paths" | "webhooks") => (place === "paths" ? index.paths : index.webhooks);
  /**
   * The index entry a local pointer names (`/paths/{p}`, `/webhooks/{w}`, `/components/{section}/{name}`, or a
   * place inside one) and the rest of the pointer; undefined for a pointer to anything else. `entry` is undefined
   * when the pointer has that shape but names nothing indexed.
   */
  const entryAt: EntryAt = (segments) => {
    const [a, b, c] = segments;
    if ((a === "paths" || a === "webhooks") && b !== undefined) return { entry: entriesOf(a).get(b), rest: segments.slice(2) };
    if (a === "components" && b !== undefined && c !== undefined) return { entry: index.components.get(b)?.get(c), rest: segments.slice(3) };
    return undefined;
  };

  // The small top-level members, materialised once: every mini-document shares them.
  const top: Record<string, unknown> = {};
  const topLocate = new Map<string, Locate>();
  for (const [key, entry] of index.top) {
    if (key === "paths" || key === "webhooks" || key === "components") continue;
    if (entry.end - entry.start > STREAM_MAX_MEMBER_BYTES) {
      // YAML has no pass that checks every byte: a member too large to keep is still parsed, for its errors, by
      // its entries when it is a block mapping.
      if (format === "yaml") for (const part of (index as YamlIndex).parts.get(key) ?? [entry]) await reader.check(part);
      continue;
    }
    top[key] = (await reader.load(entry)).data;
    topLocate.set(key, await reader.locator(entry));
  }
  const locateTop = (path: readonly PathSegment[]): SourcePosition | undefined => {
    if (path.length === 0) return { line: 1, column: 1 };
    const entry = index.top.get(String(path[0]));
    const locate = topLocate.get(String(path[0]));
    if (!entry) return { line: 1, column: 1 };
    return locate ? shifted(entry, top[String(path[0])], locate, path.slice(1), reader.absolute) : entry.keyAt;
  };
  const detected = detectVersion({ ...top, ...(index.top.has("paths") ? { paths: {} } : {}), ...(index.top.has("components") ? { components: {} } : {}) });
  if (!detected.ok) return { ...fail(422, detected.code, detected.message, locateTop(detected.path)) };
  if (detected.version === "2.0") {
    return fail(413, "too-large-swagger2", `Swagger 2.0 definitions are built from at most ${WHOLE_BUILD_MAX_BYTES} bytes (the upgrade to 3.0 needs the whole document); convert it to OpenAPI 3 first, or split it`);
  }
  const version = detected.version;
  const pathsEntry = index.top.get("paths");
  if (pathsEntry && index.paths.size === 0 && !(await reader.isObject(pathsEntry))) {
    return fail(422, "invalid-paths", "`paths` must be an object mapping paths to path items; nothing can be built from this definition", pathsEntry.keyAt);
  }

  // The base every mini-document starts from: the small members and the security schemes (header and slices use them).
  const schemes: Record<string, unknown> = {};
  for (const [name, entry] of index.components.get("securitySchemes") ?? []) schemes[name] = (await reader.load(entry)).data;
  const issues: { issue: BuildIssue; located?: boolean }[] = [];
  const seenIssues = new Set<string>();
  const addIssues = (found: BuildIssue[]) => {
    for (const issue of found) {
      const key = `${issue.rule}\u0000${JSON.stringify(issue.path)}\u0000${issue.message}\u0000${issue.line}:${issue.column}`;
      if (seenIssues.has(key)) continue;
      seenIssues.add(key);
      issues.push({ issue });
    }
  };
  addIssues(detected.issues);
  if (format === "yaml") addIssues((index as YamlIndex).warnings.map((w) => ({ severity: "warning", rule: "duplicate-key", message: w.message, path: [], line: w.line, column: w.column })));

  /** Where a document path is, through the index (entries parsed on demand). */
  const locate = async (path: readonly PathSegment[]): Promise<SourcePosition | undefined> => {
    const named = entryAt(path.map(String));
    if (named?.entry) {
      const { entry } = named;
      const rest = path.slice(path.length - named.rest.length);
      return rest.length ? shifted(entry, (await reader.load(entry)).data, await reader.locator(entry), rest, reader.absolute) : entry.keyAt;
    }
    if (path[0] === "paths" || path[0] === "webhooks") return index.top.get(path[0])?.keyAt;
    return locateTop(path);
  };

  /**
   * A mini-document holding one path item and the path items and callbacks reachable from it through `$ref`s (what
   * collectOperations follows to find operations), read through the index. The schemas, parameters, ... an
   * operation reaches are not read here: a slice gets them from the build-wide {@link TargetTable}.
   */
  const miniDocument = async (place: "paths" | "webhooks", key: string, entry: IndexedEntry, itemRefs?: readonly string[]): Promise<Record<string, unknown>> => {
    const doc: Record<string, unknown> = { ...top, components: { securitySchemes: schemes } };
    const item = (await reader.load(entry, true)).data;
    doc[place] = { [key]: item };
    const loaded = new Set<IndexedEntry>([entry]);
    const queue: unknown[] = [];
    const follow = async (refs: readonly string[], own: boolean) => {
      const kept: string[] = [];
      for (const ref of refs) {
        const parsed = parseRef(ref);
        if (parsed.kind !== "local" || parsed.segments.length === 0) continue;
        const [a, b, c] = parsed.segments;
        const target = entryAt(parsed.segments)?.entry;
        if (!target || (a === "components" && b !== "pathItems" && b !== "callbacks")) continue;
        if (own) kept.push(ref);
        if (loaded.has(target)) continue;
        loaded.add(target);
        const value = (await reader.load(target)).data;
        // Under its own name, as the whole document holds it: `paths`/`webhooks` or a `components` section.
        const holder = (a === "components" ? ((doc.components as Record<string, Record<string, unknown>>)[b] ??= {}) : (doc[a] ??= {})) as Record<string, unknown>;
        const name = a === "components" ? c : b;
        if (!Object.hasOwn(holder, name)) holder[name] = value;
        queue.push(value);
      }
      // The item's own structural refs are remembered: its slices rebuild this document without walking it again.
      if (own) structuralRefs.set(entry, kept);
    };
    await follow(itemRefs ?? refsOf(item), itemRefs === undefined || !structuralRefs.has(entry));
    while (queue.length) await follow(refsOf(queue.pop()), false);
    return doc;
  };
  /** The `$ref`s of a path item that miniDocument follows (path items, callbacks), by path item. */
  const structuralRefs = new Map<IndexedEntry, string[]>();
  const refsOf = (value: unknown): string[] => {
    const refs: string[] = [];
    walkRefs(value, (ref) => refs.push(ref), [], budget);
    return refs;
  };

  /**
   * Whether a local `$ref` resolves, through the index: an entry that exists, or a place inside one (read and
   * walked; a chain of `$ref`s inside the pointer is followed within that entry only). Members too large to read
   * are taken to hold what is asked of them.
   */
  const resolves = async (segments: string[]): Promise<boolean> => {
    const [a, b, c] = segments;
    if (a === "components" && index.top.has(a)) {
      // A section that is not an object has no index entries: nothing inside it resolves.
      if (b === undefined) return true;
      if (!index.components.has(b)) return false;
      if (c === undefined) return true;
    }
    const named = entryAt(segments);
    if (named) {
      if (!named.entry) return false;
      return named.rest.length === 0 || resolvePointer((await reader.load(named.entry)).data, named.rest).found;
    }
    if (!index.top.has(a)) return false;
    // paths, webhooks (a pointer to the whole member) or a member too large to read.
    if (!Object.hasOwn(top, a)) return true;
    return resolvePointer(top, segments).found;
  };

  /** Broken, remote and relative `$ref`s of one value (at `at`), worded as the whole build's checkRefs words them. */
  const checkRefsOf = async (value: unknown, at: PathSegment[], refs = refsOf(value)): Promise<BuildIssue[]> => {
    const known = new Map<string, boolean>();
    for (const ref of refs) {
      const parsed = parseRef(ref);
      if (parsed.kind === "local" && !known.has(ref)) known.set(ref, await resolves(parsed.segments));
    }
    const found: BuildIssue[] = [];
    const lookup = { budget, target: (ref: string) => ({ found: known.get(ref) ?? true }) } as unknown as RefClosure;
    checkRefs(value, lookup, found, false, value, at);
    return found;
  };

  // The skeleton: every path item's operations with only what collectOperations reads (path item refs followed).
  const skeleton: Record<string, unknown> = {};
  /** Each path item's broken-`$ref` issues, by place, found while the skeleton is built. */
  const refIssues = new Map<string, BuildIssue[][]>();
  const pruneItem = (doc: Record<string, unknown>, value: unknown): unknown => {
    const item = resolveObjectRef(doc, value);
    if (!item) return value;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(item)) {
      if (k === "additionalOperations" && isObject(v)) {
        out[k] = Object.fromEntries(Object.entries(v).map(([m, op]) => [m, pruneOperation(doc, op)]));
      } else if (k !== "parameters" && k !== "servers" && k !== "summary" && k !== "description" && !k.startsWith("x-")) out[k] = pruneOperation(doc, v);
    }
    return out;
  };
  const pruneOperation = (doc: Record<string, unknown>, op: unknown): unknown => {
    if (!isObject(op)) return op;
    const out: Record<string, unknown> = {};
    for (const f of SKELETON_FIELDS) if (Object.hasOwn(op, f)) out[f] = op[f];
    if (isObject(op.callbacks)) {
      out.callbacks = Object.fromEntries(
        Object.entries(op.callbacks).map(([name, cb]) => {
          const callback = resolveObjectRef(doc, cb);
          return [name, callback ? Object.fromEntries(Object.entries(callback).map(([expr, item]) => [expr, expr.startsWith("x-") ? item : pruneItem(doc, item)])) : cb];
        }),
      );
    } else if (Object.hasOwn(op, "callbacks")) out.callbacks = op.callbacks;
    return out;
  };
  for (const place of ["paths", "webhooks"] as const) {
    const entries = entriesOf(place);
    if (!entries.size) continue;
    const holder: Record<string, unknown> = {};
    skeleton[place] = holder;
    const found: BuildIssue[][] = [];
    refIssues.set(place, found);
    // One read and one walk of each path item serve both its `$ref` check and its skeleton.
    for (const [key, entry] of entries) {
      const item = (await reader.load(entry, true)).data;
      const refs = refsOf(item);
      found.push(await checkRefsOf(item, [place, key], refs));
      if (key.startsWith("x-")) continue;
      const doc = await miniDocument(place, key, entry, refs);
      holder[key] = pruneItem(doc, (doc[place] as Record<string, unknown>)[key]);
    }
  }
  // Every `$ref` of the document, one entry at a time in document order (the whole build's checkRefs, streamed).
  for (const key of index.top.keys()) {
    // Path items were checked with the skeleton; their issues are listed here, in document order as before.
    if (key === "paths" || key === "webhooks") for (const found of refIssues.get(key) ?? []) addIssues(found);
    else if (key === "components") {
      // Components are read into the main cache: the slices that follow find the `$ref` targets there (Graph
      // beta's 6,177 schemas, 7 MB, all stay) instead of reading each one's window again.
      for (const [section, members] of index.components) for (const [name, e] of members) addIssues(await checkRefsOf((await reader.load(e, true, true)).data, [key, section, name]));
    } else if (Object.hasOwn(top, key)) addIssues(await checkRefsOf(top[key], [key]));
  }
  // YAML: entries a duplicate key replaced are parsed once too (their syntax errors and warnings count).
  if (format === "yaml") for (const e of (index as YamlIndex).shadowed) await reader.check(e);
  addIssues(reader.warnings); // every entry has been parsed by now
  const found: BuildIssue[] = [];
  const entries = collectOperations(skeleton, version, found);
  addIssues(found);
  const counts = { operations: 0, webhooks: 0, callbacks: 0 };
  for (const e of entries) counts[e.summary.kind === "operation" ? "operations" : e.summary.kind === "webhook" ? "webhooks" : "callbacks"]++;
  const headerIssues: BuildIssue[] = [];
  const header = buildHeader({ ...top, components: { securitySchemes: schemes } }, version, counts, headerIssues);
  header.counts.schemas = index.components.get("schemas")?.size ?? 0;
  addIssues(headerIssues);

  // Positions, now that every issue is known (entries are re-read through the cache).
  const located: BuildIssue[] = [];
  for (const { issue } of issues.slice(0, MAX_ISSUES)) {
    const at = issue.line !== undefined ? { line: issue.line, column: issue.column! } : await locate(issue.path);
    located.push(at ? { ...issue, line: at.line, column: at.column } : issue);
  }
  located.sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER));

  const bySlug = new Map<string, OperationEntry>(entries.map((e) => [e.summary.slug, e]));
  let targets: TargetTable | undefined = new TargetTable(reader, entryAt, top, schemes, budget);
  let lastUnit: { key: string; doc: Record<string, unknown> } | undefined;
  return {
    ok: true,
    streamed: true,
    sourceVersion: version,
    header,
    operations: entries.map((e) => e.summary),
    issues: located,
    top,
    locateTop,
    stats: {
      bytes: index.size,
      pathItems: index.paths.size + index.webhooks.size,
      components: [...index.components.values()].reduce((n, m) => n + m.size, 0),
      get textParses() {
        return reader.textParses;
      },
    },
    release() {
      targets = undefined;
      lastUnit = undefined;
      bySlug.clear();
      reader.release();
    },
    async slice(slug) {
      if (!targets) throw new Error("the streamed build was released: its slices can no longer be built");
      const table = targets;
      const skeletal = bySlug.get(slug);
      if (!skeletal) throw new RangeError(`No operation with slug ${JSON.stringify(slug)}`);
      const [place, key] = skeletal.location as [("paths" | "webhooks"), string];
      const unitKey = `${place}\u0000${key}`;
      if (lastUnit?.key !== unitKey) {
        // Only what locating the operation needs (path item and callback `$ref`s followed): the schemas it
        // reaches come from the build-wide target table, each read and walked once per build.
        const entry = entriesOf(place).get(key)!;
        lastUnit = { key: unitKey, doc: await miniDocument(place, key, entry, structuralRefs.get(entry)) };
      }
      const { doc } = lastUnit;
      const location = skeletal.location;
      const itemDepth = location.at(-2) === "additionalOperations" ? location.length - 2 : location.length - 1;
      const pathItem = resolvedAt(doc, location.slice(0, itemDepth));
      const operation = valueAt(doc, location, true);
      if (!isObject(pathItem) || !isObject(operation)) throw new Error(`operation ${slug} moved in storage`);
      const entry = { summary: skeletal.summary, operation, pathItem, location };
      const refs = await table.collect(sliceRoots(doc, header, entry), slug);
      return buildSlice(doc, header, entry, { collect: () => refs });
    },
  };
}

/** The value at `path` in `doc` (no `$ref` followed unless `resolve`, then path items and callbacks are). */
function valueAt(doc: unknown, path: readonly PathSegment[], resolve = false): unknown {
  let node = doc;
  for (const segment of path) {
    if (resolve) node = resolveObjectRef(doc, node) ?? node;
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[String(segment)];
  }
  return node;
}

/** The value at `path` with every `$ref` on the way (path items, callbacks) followed, as collectOperations does. */
function resolvedAt(doc: unknown, path: readonly PathSegment[]): unknown {
  const node = valueAt(doc, path, true);
  return resolveObjectRef(doc, node) ?? node;
}
