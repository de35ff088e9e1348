/**
 * @module Processed models in KV. Keys are immutable and content-addressed (model version + definition hash +
 * archive root), so KV's eventual consistency can never show a mix of two versions: only the D1 live pointer moves.
 *
 * Slices are packed, in document order, into chunks of about {@link CHUNK_TARGET_CHARS}: one KV write per chunk
 * instead of one per operation keeps a 1,223-operation definition far below KV's 1,000 operations per
 * invocation, and an operation page still reads one chunk (tens of kilobytes), parsing only its own slice.
 *
 * `$ref` targets (component schemas, parameters, ...) are stored ONCE per model, in target chunks of about
 * {@link TARGET_CHUNK_CHARS} (`{model}/t/{n}`), each target as the JSON text `[ref, value]`; a target chunk starts
 * with one line, the JSON array of its entries' start offsets (and the end), so entry k is a substring found
 * without parsing the others. A stored slice carries no copies: its `t` member says which entries of which chunks
 * it reaches (flat `[chunk, count, k1, …, kcount, chunk, count, …]`: ~3 characters per target, where a
 * chunk/offset/length triple took ~15 and Graph beta's 1.17 M target references would have taken 17 MB).
 * Microsoft Graph v1.0 (11,422 operations sharing 2,147 targets) stored 854 MB as copies and stores ~21 MB this way. A page reads its slice's chunk and the few target chunks it needs (in
 * parallel, cached per isolate) and parses only the needed substrings: {@link getSlice} returns the same
 * {@link OperationSlice} (with `refs`) the renderer always had. Targets are packed in the order operations first
 * reach them, so an operation's targets tend to share chunks with its neighbours'.
 */
import { MODEL_VERSION, type OperationSlice, type ReferenceHeader } from "../openapi/model/types";
import { sha256Hex } from "./tokens";
import { BoundedCache } from "../lib/bounded-cache";

/** Where one slice sits: chunk number and its UTF-16 offset and length inside the chunk's text. */
export interface SliceLocation {
  chunk: number;
  offset: number;
  length: number;
}

/** A slice as stored (MODEL_VERSION 3): the slice without `refs`, plus `t`, its targets' locations. */
export type StoredSlice = Omit<OperationSlice, "refs"> & {
  /** The `$ref` targets reached, by target chunk: flat `[chunk, count, k1, …, kcount, chunk, count, …]` (entry numbers). */
  t: number[];
};

/** A chunk is closed once it holds this many characters (a bigger slice gets a chunk of its own). */
export const CHUNK_TARGET_CHARS = 128 * 1024;
/**
 * A target chunk is closed once it holds this many characters. Smaller than slice chunks: a page reads several
 * (one per distinct chunk its targets sit in), so each read should carry little it does not need.
 */
export const TARGET_CHUNK_CHARS = 32 * 1024;
/** KV writes kept in flight while a model is stored. */
const KV_WRITE_CONCURRENCY = 48;

/** The KV prefix of one built model. */
export async function modelKeyFor(definitionSha256: string, root: string | undefined): Promise<string> {
  const rootPart = root ? (await sha256Hex(root)).slice(0, 16) : "-";
  return `m/${MODEL_VERSION}/${definitionSha256}/${rootPart}`;
}

const headerKey = (modelKey: string) => `${modelKey}/header`;
const chunkKey = (modelKey: string, chunk: number) => `${modelKey}/c/${chunk}`;
const targetChunkKey = (modelKey: string, chunk: number) => `${modelKey}/t/${chunk}`;

/** Thrown by {@link putSlices} past its `maxChars`: the model would be too heavy to store. */
export class SlicesTooHeavy extends Error {
  constructor(
    readonly limit: number,
    readonly measured: number,
  ) {
    super(`the operation slices passed ${limit} characters after ${measured} operations`);
    this.name = "SlicesTooHeavy";
  }
}

/** True when the model's header exists; the header is written last, so this means every chunk is there too. */
export async function modelComplete(kv: KVNamespace, modelKey: string): Promise<boolean> {
  return (await kv.get(headerKey(modelKey))) !== null;
}

/** What {@link putSlices} wrote (or would have written): slice locations and the stored size. */
export interface StoredModel {
  /** Each slug's slice location, for the operations rows. */
  locations: Map<string, SliceLocation>;
  /** Characters of slice chunks and of target chunks. */
  sliceChars: number;
  targetChars: number;
  /** KV values written (or that would be): slice chunks + target chunks. */
  chunks: number;
  /** Distinct `$ref` targets stored. */
  targets: number;
}

/**
 * Packs texts into chunks of about `target` characters and writes each closed chunk under `keyOf(n)` (unless
 * `write` is false), keeping at most KV_WRITE_CONCURRENCY writes in flight across every packer sharing `inFlight`.
 * An `indexed` packer starts each chunk with a line listing its entries' start offsets (and the end), and
 * locates entries by number (`offset` is the entry's index, `length` 0); see {@link entryOf}.
 */
class ChunkPacker {
  private parts: string[] = [];
  private starts: number[] = [];
  private size = 0;
  chunk = 0;
  chars = 0;

  constructor(
    private readonly kv: KVNamespace,
    private readonly keyOf: (n: number) => string,
    private readonly target: number,
    private readonly write: boolean,
    private readonly inFlight: Set<Promise<void>>,
    private readonly settled: () => void,
    private readonly indexed = false,
  ) {}

  /** Appends `text` (after closing the current chunk if it would overflow it); returns where it went. */
  async add(text: string): Promise<SliceLocation> {
    if (this.size > 0 && this.size + text.length > this.target) await this.flush();
    const at = this.indexed ? { chunk: this.chunk, offset: this.parts.length, length: 0 } : { chunk: this.chunk, offset: this.size, length: text.length };
    this.starts.push(this.size);
    this.parts.push(text);
    this.size += text.length;
    this.chars += text.length;
    return at;
  }

  /** Closes the current chunk (if any) and queues its write. */
  async flush(): Promise<void> {
    if (this.parts.length === 0) return;
    const head = this.indexed ? `${JSON.stringify([...this.starts, this.size])}\n` : "";
    const text = head + this.parts.join("");
    this.chars += head.length;
    const key = this.keyOf(this.chunk++);
    this.parts = [];
    this.starts = [];
    this.size = 0;
    if (!this.write) return;
    const put = this.kv.put(key, text).finally(() => {
      this.inFlight.delete(put);
      this.settled();
    });
    this.inFlight.add(put);
    if (this.inFlight.size >= KV_WRITE_CONCURRENCY) await Promise.race(this.inFlight);
  }
}

/**
 * Serialises every slice (in the order given) into slice chunks, and each `$ref` target the first time a slice
 * reaches it into target chunks, and, unless `write` is false (the model is already stored), writes them with
 * bounded concurrency. Slices are built one at a time through `slice`, so memory holds the chunks being filled,
 * the chunks in flight and a map of target locations, never the whole model. A ref (as written) always names
 * the same target within one model, so the first value seen is the one stored. `onFirstWrite` is called once the
 * first write has settled: by then the first batch of writes is on the wire.
 * Recomputing with `write` false reproduces the same locations (same slices, same order). `slice` may read storage
 * (the streamed build's slices are async). Past `maxChars` characters stored (slices and targets) it throws
 * {@link SlicesTooHeavy}: the streamed build cannot weigh its model before writing; chunks already written are
 * content-addressed and unread. `onSerialised` is called once every slice has been taken and serialised and the
 * last chunks are queued: what remains is waiting for writes, which the caller may overlap with other work.
 */
export async function putSlices(
  kv: KVNamespace,
  modelKey: string,
  slugs: string[],
  slice: (slug: string) => OperationSlice | Promise<OperationSlice>,
  write = true,
  onFirstWrite?: () => void,
  maxChars = Infinity,
  onSerialised?: () => void,
): Promise<StoredModel> {
  const locations = new Map<string, SliceLocation>();
  const targetAt = new Map<string, SliceLocation>();
  const inFlight = new Set<Promise<void>>();
  let first = onFirstWrite;
  const settled = () => {
    first?.();
    first = undefined;
  };
  const slices = new ChunkPacker(kv, (n) => chunkKey(modelKey, n), CHUNK_TARGET_CHARS, write, inFlight, settled);
  const targets = new ChunkPacker(kv, (n) => targetChunkKey(modelKey, n), TARGET_CHUNK_CHARS, write, inFlight, settled, true);
  for (const slug of slugs) {
    const { refs, ...rest } = await slice(slug);
    // Entry numbers grouped by target chunk, chunks in the order first met (the reader sorts the refs back).
    const byChunk = new Map<number, number[]>();
    for (const ref of Object.keys(refs)) {
      let at = targetAt.get(ref);
      if (!at) {
        at = await targets.add(JSON.stringify([ref, refs[ref] ?? null]));
        targetAt.set(ref, at);
      }
      const entries = byChunk.get(at.chunk);
      if (entries) entries.push(at.offset);
      else byChunk.set(at.chunk, [at.offset]);
    }
    const t: number[] = [];
    for (const [chunk, entries] of byChunk) t.push(chunk, entries.length, ...entries);
    const stored: StoredSlice = { ...rest, t };
    locations.set(slug, await slices.add(JSON.stringify(stored)));
    if (slices.chars + targets.chars > maxChars) throw new SlicesTooHeavy(maxChars, locations.size);
  }
  await slices.flush();
  await targets.flush();
  onSerialised?.();
  await Promise.all(inFlight);
  return { locations, sliceChars: slices.chars, targetChars: targets.chars, chunks: slices.chunk + targets.chunk, targets: targetAt.size };
}

/** Writes a model's header; done last, it marks the model complete. */
export async function putHeader(kv: KVNamespace, modelKey: string, header: ReferenceHeader): Promise<void> {
  await kv.put(headerKey(modelKey), JSON.stringify(header));
}

/**
 * Model keys are immutable, so what an isolate has read once stays true: headers and chunks are kept in
 * memory (least recently used first out) up to a size, none larger than a quarter of it, and a warm page skips
 * its KV reads.
 */
function immutableCache<T>(maxSize: number): BoundedCache<string, T> {
  return new BoundedCache<string, T>({ maxSize, maxEntrySize: maxSize / 4 });
}

/**
 * Parsed headers kept per isolate, sized by their stored text: at most 2 M characters (one header of up to 512 K;
 * GitHub's and Microsoft Graph's are far smaller). Sized by count (64) they had no bound: a header carries `info`
 * and tag descriptions as written, so 64 hostile ones could hold gigabytes.
 */
const HEADERS = immutableCache<ReferenceHeader>(2 * 1024 * 1024);
/** Chunk texts kept per isolate: at most 4 M characters (≤ 8 MB) of the isolate's 128 MB. */
const CHUNKS = immutableCache<string>(4 * 1024 * 1024);

/** A model's header (cached per isolate), or null when the model is not stored. */
export async function getHeader(kv: KVNamespace, modelKey: string): Promise<ReferenceHeader | null> {
  const key = headerKey(modelKey);
  const cached = HEADERS.get(key);
  if (cached) return cached;
  const text = await kv.get(key);
  if (text === null) return null;
  // Frozen for the same reason as kept slices (SLICES): every reader of the isolate shares it.
  const header = deepFreeze(JSON.parse(text) as ReferenceHeader);
  HEADERS.set(key, header, text.length);
  return header;
}

async function getChunk(kv: KVNamespace, key: string): Promise<string | null> {
  const cached = CHUNKS.get(key);
  if (cached !== undefined) return cached;
  const text = await kv.get(key);
  if (text !== null) CHUNKS.set(key, text, text.length);
  return text;
}

/** Entry `k` of an indexed target chunk's text (see ChunkPacker), given the parsed offsets line and its length. */
function entryOf(text: string, starts: number[], body: number, k: number): string {
  return text.slice(body + starts[k], body + starts[k + 1]);
}

/**
 * Parses one stored slice's text and resolves its targets into `refs` (keys sorted, as the model built them).
 * Target chunks are read through `chunk` (deduplicated, in parallel); only each chunk's offsets line and each
 * needed entry are parsed. A slice of an older model (MODEL_VERSION 2, targets copied into `refs`) is returned as
 * it is. A missing target chunk leaves its refs out (the page shows them as unresolved) rather than failing it.
 * `measure` is told the length of each target entry read (characters), so the caller can size what it keeps.
 */
async function resolveSlice(text: string, chunk: (n: number) => Promise<string | null>, measure?: (chars: number) => void): Promise<OperationSlice> {
  const parsed = JSON.parse(text) as StoredSlice | OperationSlice;
  if (!("t" in parsed) || !Array.isArray(parsed.t)) return parsed as OperationSlice;
  const { t, ...rest } = parsed;
  const groups: [Promise<string | null>, number[]][] = [];
  for (let i = 0; i < t.length; i += 2 + t[i + 1]) groups.push([chunk(t[i]), t.slice(i + 2, i + 2 + t[i + 1])]);
  const texts = await Promise.all(groups.map(([p]) => p));
  const found: [string, unknown][] = [];
  groups.forEach(([, entries], g) => {
    const source = texts[g];
    if (source == null) return;
    const body = source.indexOf("\n") + 1;
    const starts = JSON.parse(source.slice(0, body)) as number[];
    for (const k of entries) {
      const entry = entryOf(source, starts, body, k);
      measure?.(entry.length);
      found.push(JSON.parse(entry) as [string, unknown]);
    }
  });
  found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const refs: Record<string, unknown> = {};
  for (const [ref, value] of found) refs[ref] = value;
  return { ...rest, refs };
}

/**
 * Resolved slices kept per isolate, sized by their stored text plus their targets' (characters): at most 4 M. A warm
 * operation page then parses nothing: parsing a slice and its targets (GitHub's `repos/get` holds the whole
 * repository schema) was the largest single cost of a warm page in its CPU profile. Kept slices are deeply frozen:
 * every reader of the isolate shares them, so a renderer that mutated one would throw rather than leak into
 * another reader's page.
 */
const SLICES = immutableCache<OperationSlice>(4 * 1024 * 1024);

/** Freezes `value` and everything reachable from it (JSON data: no cycles). */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}

/**
 * One slice, read from its chunk, with its `$ref` targets resolved (deeply frozen: shared by the isolate's readers);
 * null when the chunk is missing.
 */
export async function getSlice(kv: KVNamespace, modelKey: string, at: SliceLocation): Promise<OperationSlice | null> {
  const key = `${chunkKey(modelKey, at.chunk)}@${at.offset}+${at.length}`;
  const kept = SLICES.get(key);
  if (kept) return kept;
  const text = await getChunk(kv, chunkKey(modelKey, at.chunk));
  if (text === null) return null;
  let size = at.length;
  const slice = await resolveSlice(text.slice(at.offset, at.offset + at.length), (n) => getChunk(kv, targetChunkKey(modelKey, n)), (n) => (size += n));
  return SLICES.set(key, deepFreeze(slice), size);
}

/** Chunks read ahead while a single page streams. */
const CHUNK_READ_AHEAD = 3;

/**
 * Slices in the order given (document order, so chunk numbers never go back), each chunk read once, a few
 * chunks ahead, and dropped once passed: memory holds a handful of chunks, not the model. Target chunks go
 * through the isolate's bounded chunk cache (the same targets recur from slice to slice).
 */
export async function* readSlicesInOrder(kv: KVNamespace, modelKey: string, locations: SliceLocation[]): AsyncIterable<OperationSlice> {
  const chunks = new Map<number, Promise<string | null>>();
  const lastChunk = locations.length ? locations[locations.length - 1].chunk : -1;
  const target = (n: number) => getChunk(kv, targetChunkKey(modelKey, n));
  for (const at of locations) {
    for (const old of chunks.keys()) if (old < at.chunk) chunks.delete(old);
    for (let n = at.chunk; n <= Math.min(at.chunk + CHUNK_READ_AHEAD, lastChunk); n++) {
      if (!chunks.has(n)) chunks.set(n, kv.get(chunkKey(modelKey, n)));
    }
    const text = await chunks.get(at.chunk)!;
    if (text !== null) yield resolveSlice(text.slice(at.offset, at.offset + at.length), target);
  }
}
