/**
 * @module Reading a streamed definition's entries (issue 12): range reads coalesced into windows, parsed entries in
 * bounded caches (YAML ones kept deflated), and their positions found again from the text on demand. Split from
 * build.ts (issue 38), which assembles the model from what this reads.
 */
import { deflateSync, inflateSync } from "fflate";
import { isObject, type PathSegment } from "../model/pointer";
import type { BuildIssue } from "../model/types";
import type { YamlValues } from "../parse/yaml";
import { createJsonLocator } from "../parse/json-locate";
import type { SourcePosition } from "../parse/types";
import type { WorkBudget } from "../work-budget";
import type { IndexedEntry } from "./json-index";
import { parseYamlEntry } from "./yaml-entry";

/** Range reads are coalesced into windows of this many bytes (R2 charges per read; a window holds ~100 path items of GitHub's). */
export const STREAM_WINDOW_BYTES = 4 * 1024 * 1024;
/** Window read for an entry read out of document order (a `$ref` target). */
export const STREAM_RANDOM_WINDOW_BYTES = 1024 * 1024;
/** Windows of bytes held at once (memory: at most this many × 4 MB, besides entries larger than a window). */
const WINDOWS_HELD = 4;
/** Parsed entries kept for reuse, by source characters (a schema shared by many operations is read once while it stays). */
export const STREAM_ENTRY_CACHE_CHARS = 8 * 1024 * 1024;
/** Entries read in document order kept apart from the shared targets' cache (see EntryReader.load). */
export const STREAM_PASSING_CACHE_CHARS = 2 * 1024 * 1024;
/**
 * YAML entries, once parsed, are kept as deflated compact JSON up to this many bytes in all (GitHub's 30.8 MB of
 * path items are 16 MB of JSON, 2.8 MB deflated): reading one again costs an inflate and a JSON.parse (~20x
 * faster than the `yaml` library), so each YAML entry is parsed once per build, the slices included.
 */
export const STREAM_PACKED_CACHE_BYTES = 16 * 1024 * 1024;
/** A top-level member past this size (an `x-` extension, say) is not materialised; `$ref`s into it are unresolved. */
export const STREAM_MAX_MEMBER_BYTES = 8 * 1024 * 1024;
/**
 * Largest single entry (a path item, a component) parsed, in bytes: JSON.parse needs several times the text in
 * heap, so one 90 MB path item would exhaust a 128 MB isolate on its own. Past it the build answers 413.
 */
export const STREAM_MAX_ENTRY_BYTES = 16 * 1024 * 1024;
/** The stored body, read twice: once streamed (pass 1), then by ranges. */
export interface ByteSource {
  /** The body from its first byte, in chunks. */
  stream(): AsyncIterable<Uint8Array>;
  /** Bytes `[start, end)`, clipped to the body. */
  read(start: number, end: number): Promise<Uint8Array>;
}

/** A parsed entry: its value and its source characters (what the caches count). */
export type Parsed = { data: unknown; chars: number; used?: boolean };
export type Locate = (path: readonly PathSegment[]) => SourcePosition | undefined;
/** Locators kept (each holds its entry's text): issues are located entry after entry, often several in one. */
const LOCATORS_HELD = 16;

/** The text format of a streamed definition: it picks the index and the entry parser. */
export type StreamFormat = "json" | "yaml";

/**
 * Reads and parses index entries: coalesced range reads, bounded caches of parsed entries (no text is kept with
 * them: positions are found by {@link locator}, which reads the text again).
 */
export class EntryReader {
  private windows: { start: number; bytes: Uint8Array }[] = [];
  private cache = new Map<IndexedEntry, Parsed>();
  private cachedChars = 0;
  /** Entries read in document order (see {@link load}). */
  private passing = new Map<IndexedEntry, Parsed>();
  private passingChars = 0;
  private locators = new Map<IndexedEntry, Locate>();
  /** YAML: entries parsed once, as deflated JSON (see {@link STREAM_PACKED_CACHE_BYTES}); never evicted. */
  private packed = new Map<IndexedEntry, Uint8Array>();
  private packedBytes = 0;
  private decoder = new TextDecoder();
  private encoder = new TextEncoder();
  private warned = new Set<IndexedEntry>();
  reads = 0;
  /** Entries parsed from their text (JSON.parse or the `yaml` library), checks included. */
  textParses = 0;
  /** YAML: the parse warnings (duplicate keys, tolerated indentation) of every entry parsed, once an entry, as issues. */
  warnings: BuildIssue[] = [];

  constructor(
    private readonly source: ByteSource,
    private readonly size: number,
    private readonly budget: WorkBudget,
    readonly format: StreamFormat = "json",
    /** An entry's level: 1 a top-level member, 2 a path item, 3 a component (YAML's depth limit is the document's). */
    private readonly depthOf: (entry: IndexedEntry) => number = () => 1,
  ) {}

  /** Whether the entry's value is an object (JSON: its first byte is `{`, without parsing it). */
  async isObject(entry: IndexedEntry): Promise<boolean> {
    if (this.format === "yaml") return isObject((await this.load(entry)).data);
    return (await this.text(entry.start, entry.start + 1)) === "{";
  }

  /** Empties the caches and windows (the reader stays usable: entries are read again). */
  release(): void {
    this.windows = [];
    this.cache.clear();
    this.passing.clear();
    this.locators.clear();
    this.packed.clear();
    this.cachedChars = this.passingChars = this.packedBytes = 0;
  }

  /** The entry's parsed value when a cache holds it (no read, no await), else undefined. */
  peek(entry: IndexedEntry): Parsed | undefined {
    const hit = this.cache.get(entry) ?? this.passing.get(entry);
    if (hit) hit.used = true;
    return hit;
  }

  /**
   * The entry's value, parsed (entries were checked by pass 1, syntax and nesting, so a failure here is storage
   * corruption). `sequential`: read in document order (a 4 MB window ahead, else 1 MB); `shared`: kept in the
   * main cache (`$ref` targets: components), else in the small one for entries passed in order (path items).
   * @throws EntryTooLarge past {@link STREAM_MAX_ENTRY_BYTES}.
   */
  async load(entry: IndexedEntry, sequential = false, shared = !sequential): Promise<Parsed> {
    if (entry.end - entry.start > STREAM_MAX_ENTRY_BYTES) throw new EntryTooLarge(entry);
    const hit = this.peek(entry);
    if (hit) return hit;
    let parsed: Parsed;
    const packed = this.packed.get(entry);
    if (packed) {
      // Parsed before (YAML): its JSON, not its text. Charged as a read of the text, so the budget does not
      // depend on what the caches hold.
      this.budget.spend("reading the definition", Math.ceil((entry.end - entry.start) / 64));
      const json = this.decoder.decode(inflateSync(packed));
      parsed = { data: JSON.parse(json), chars: entry.end - entry.start };
    } else {
      const text = await this.text(entry.start, entry.end, sequential ? STREAM_WINDOW_BYTES : STREAM_RANDOM_WINDOW_BYTES);
      this.budget.spend("reading the definition", Math.ceil(text.length / 64));
      parsed = { data: this.parse(text, entry), chars: text.length };
      if (this.format === "yaml") this.pack(entry, parsed.data);
    }
    // Entries read in document order that are not `$ref` targets (path items) are seldom read again soon: kept
    // apart, so that they never push the shared targets out of the main cache.
    if (!shared) this.passingChars = remember(this.passing, entry, parsed, this.passingChars, STREAM_PASSING_CACHE_CHARS);
    else this.cachedChars = remember(this.cache, entry, parsed, this.cachedChars, STREAM_ENTRY_CACHE_CHARS);
    return parsed;
  }

  /**
   * YAML: parses an entry only for its errors and warnings (the entries of a member too large to keep, entries a
   * duplicate key replaced): no value is built where the library allows, none is cached.
   */
  async check(entry: IndexedEntry): Promise<void> {
    if (entry.end - entry.start > STREAM_MAX_ENTRY_BYTES) throw new EntryTooLarge(entry);
    if (this.warned.has(entry)) return;
    const text = await this.text(entry.start, entry.end, STREAM_WINDOW_BYTES);
    this.budget.spend("reading the definition", Math.ceil(text.length / 64));
    this.parse(text, entry, "keys");
  }

  /**
   * JSON: entries were checked by pass 1, so JSON.parse alone. YAML: parsed here first (a syntax error throws
   * YamlEntryError); its locator (which keeps the text, not the tree) is kept, and its warnings collected once.
   */
  private parse(text: string, entry: IndexedEntry, values: YamlValues = "all"): unknown {
    this.textParses++;
    if (this.format === "yaml") {
      const parsed = parseYamlEntry(text, entry, this.depthOf(entry), this.budget, values);
      this.keepLocator(entry, parsed.locate);
      if (!this.warned.has(entry)) {
        this.warned.add(entry);
        for (const w of parsed.warnings) {
          const at = w.line !== undefined ? { line: w.line, column: w.column } : {};
          this.warnings.push({ severity: "warning", rule: w.code === "duplicate-key" ? "duplicate-key" : "yaml-warning", message: w.message, path: [], ...at });
        }
      }
      return parsed.data;
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`the stored definition changed after it was indexed: ${error instanceof Error ? error.message : error}`);
    }
  }

  /**
   * Keeps a YAML entry's value as deflated compact JSON, while {@link STREAM_PACKED_CACHE_BYTES} allows, unless
   * JSON cannot carry it exactly (NaN, ±Infinity and -0, which `.nan`, `.inf`, `1e999` and `-0` give).
   */
  private pack(entry: IndexedEntry, data: unknown): void {
    if (this.packedBytes >= STREAM_PACKED_CACHE_BYTES) return;
    let exact = true;
    const json = JSON.stringify(data, (_key, value: unknown) => {
      if (typeof value === "number" && (!Number.isFinite(value) || Object.is(value, -0))) exact = false;
      return value;
    });
    if (!exact || json === undefined) return;
    const bytes = deflateSync(this.encoder.encode(json), { level: 1 });
    if (this.packedBytes + bytes.byteLength > STREAM_PACKED_CACHE_BYTES) return;
    this.packed.set(entry, bytes);
    this.packedBytes += bytes.byteLength;
  }

  /**
   * Where paths inside the entry are (read again; the last few are kept): JSON relative to the entry's own text,
   * YAML (see {@link absolute}) the document's positions.
   */
  async locator(entry: IndexedEntry): Promise<Locate> {
    let locate = this.locators.get(entry);
    if (!locate) {
      const text = await this.text(entry.start, entry.end, STREAM_RANDOM_WINDOW_BYTES);
      locate = this.format === "yaml" ? parseYamlEntry(text, entry, this.depthOf(entry), this.budget).locate : createJsonLocator(text);
      this.keepLocator(entry, locate);
    }
    return locate;
  }

  /** Whether {@link locator}'s positions are the document's already (YAML) rather than relative to the entry. */
  get absolute(): boolean {
    return this.format === "yaml";
  }

  private keepLocator(entry: IndexedEntry, locate: Locate): void {
    this.locators.set(entry, locate);
    for (const key of this.locators.keys()) {
      if (this.locators.size <= LOCATORS_HELD) break;
      this.locators.delete(key);
    }
  }

  /**
   * The text of bytes `[start, end)`, from one of the windows held, else from a new window read at `start`: 4 MB
   * ahead for path items (read in document order), 1 MB for the rest (`$ref` targets are read out of order, and
   * often beside each other). At most {@link WINDOWS_HELD} windows are held, least recently used dropped first.
   */
  private async text(start: number, end: number, ahead = STREAM_WINDOW_BYTES): Promise<string> {
    let w = this.windows.find((x) => start >= x.start && end <= x.start + x.bytes.byteLength);
    if (!w) {
      const stop = Math.min(this.size, Math.max(end, start + ahead));
      w = { start, bytes: await this.source.read(start, stop) };
      this.reads++;
      this.windows.push(w);
      if (this.windows.length > WINDOWS_HELD) this.windows.shift();
    } else if (w !== this.windows.at(-1)) {
      this.windows.splice(this.windows.indexOf(w), 1);
      this.windows.push(w);
    }
    return this.decoder.decode(w.bytes.subarray(start - w.start, end - w.start));
  }
}

/**
 * Adds `parsed` to `cache` (holding `chars` characters) and evicts past `max`, oldest first with a second chance:
 * an entry used since it was (re)inserted moves to the back once instead of going (a hit costs a flag, not a
 * Map reorder: Graph beta's slices hit the cache ~1.2 M times). Returns the new total.
 */
function remember(cache: Map<IndexedEntry, Parsed>, entry: IndexedEntry, parsed: Parsed, chars: number, max: number): number {
  cache.set(entry, parsed);
  chars += parsed.chars;
  // Ends: every other entry moves back at most once (its flag cleared) before it goes; the new one always stays.
  while (chars > max && cache.size > 1) {
    const [key, value] = cache.entries().next().value!;
    cache.delete(key);
    if (key === entry || value.used) {
      value.used = false;
      cache.set(key, value);
    } else chars -= value.chars;
  }
  return chars;
}

/** An entry too large to parse alone (see {@link STREAM_MAX_ENTRY_BYTES}). */
export class EntryTooLarge extends Error {
  constructor(readonly entry: IndexedEntry) {
    super(`the entry ${JSON.stringify(entry.key)} has ${entry.end - entry.start} bytes`);
  }
}

/** `entry`'s absolute position of `rest` inside it, from its own parse's relative one. */
export function shifted(entry: IndexedEntry, data: unknown, locate: Locate, rest: readonly PathSegment[], absolute = false): SourcePosition {
  if (rest.length === 0) return entry.keyAt;
  if (absolute) return locate(rest) ?? entry.keyAt;
  const rel = locate(rest);
  if (!rel) return entry.keyAt;
  // Where the entry's value starts is line 1, column 1 of its own text.
  if (rel.line === 1 && rel.column === 1 && rest.length && !isObject(data) && !Array.isArray(data)) return entry.keyAt;
  return rel.line === 1 ? { line: entry.at.line, column: entry.at.column + rel.column - 1 } : { line: entry.at.line + rel.line - 1, column: rel.column };
}
