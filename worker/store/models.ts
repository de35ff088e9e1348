/**
 * @module Processed models in KV. Keys are immutable and content-addressed (model version + definition hash +
 * archive root), so KV's eventual consistency can never show a mix of two versions: only the D1 live pointer moves.
 *
 * Slices are packed, in document order, into chunks of about {@link CHUNK_TARGET_CHARS}: one KV write per chunk
 * instead of one per operation keeps a 1,223-operation definition far below KV's 1,000 operations per
 * invocation, and an operation page still reads one chunk (tens of kilobytes), parsing only its own slice.
 */
import { MODEL_VERSION, type OperationSlice, type ReferenceHeader } from "../openapi/model/types";
import { sha256Hex } from "./tokens";

/** Where one slice sits: chunk number and its UTF-16 offset and length inside the chunk's text. */
export interface SliceLocation {
  chunk: number;
  offset: number;
  length: number;
}

/** A chunk is closed once it holds this many characters (a bigger slice gets a chunk of its own). */
export const CHUNK_TARGET_CHARS = 128 * 1024;
/** KV writes kept in flight while a model is stored. */
const KV_WRITE_CONCURRENCY = 48;

/** The KV prefix of one built model. */
export async function modelKeyFor(definitionSha256: string, root: string | undefined): Promise<string> {
  const rootPart = root ? (await sha256Hex(root)).slice(0, 16) : "-";
  return `m/${MODEL_VERSION}/${definitionSha256}/${rootPart}`;
}

const headerKey = (modelKey: string) => `${modelKey}/header`;
const chunkKey = (modelKey: string, chunk: number) => `${modelKey}/c/${chunk}`;

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

/**
 * Serialises every slice (in the order given) into chunks and, unless `write` is false (the model is already
 * stored), writes them with bounded concurrency. Slices are built one at a time through `slice`, so memory holds
 * one chunk being filled plus the chunks in flight, never the whole model. `onFirstWrite` is called once the
 * first write has settled: by then the first batch of writes is on the wire. `slice` may read storage (the
 * streamed build's slices are async). Past `maxChars` characters of slices it throws {@link SlicesTooHeavy} (the
 * streamed build cannot weigh its model before writing; chunks already written are content-addressed, unread).
 * @returns each slug's location, for the operations rows.
 */
export async function putSlices(
  kv: KVNamespace,
  modelKey: string,
  slugs: string[],
  slice: (slug: string) => OperationSlice | Promise<OperationSlice>,
  write = true,
  onFirstWrite?: () => void,
  maxChars = Infinity,
): Promise<Map<string, SliceLocation>> {
  let total = 0;
  const locations = new Map<string, SliceLocation>();
  const inFlight = new Set<Promise<void>>();
  let first = onFirstWrite;
  let parts: string[] = [];
  let size = 0;
  let chunk = 0;
  const flush = async () => {
    if (parts.length === 0) return;
    const text = parts.join("");
    const key = chunkKey(modelKey, chunk++);
    parts = [];
    size = 0;
    if (!write) return;
    const put = kv.put(key, text).finally(() => {
      inFlight.delete(put);
      first?.();
      first = undefined;
    });
    inFlight.add(put);
    if (inFlight.size >= KV_WRITE_CONCURRENCY) await Promise.race(inFlight);
  };
  for (const slug of slugs) {
    const json = JSON.stringify(await slice(slug));
    total += json.length;
    if (total > maxChars) throw new SlicesTooHeavy(maxChars, locations.size);
    if (size > 0 && size + json.length > CHUNK_TARGET_CHARS) await flush();
    locations.set(slug, { chunk, offset: size, length: json.length });
    parts.push(json);
    size += json.length;
  }
  await flush();
  await Promise.all(inFlight);
  return locations;
}

/** Writes a model's header; done last, it marks the model complete. */
export async function putHeader(kv: KVNamespace, modelKey: string, header: ReferenceHeader): Promise<void> {
  await kv.put(headerKey(modelKey), JSON.stringify(header));
}

/**
 * Model keys are immutable, so what an isolate has read once stays true: headers and chunks are kept in
 * memory (least recently used first out) up to a bound, and a warm page skips its KV reads.
 */
class ImmutableCache<T> {
  private readonly entries = new Map<string, { value: T; size: number }>();
  private size = 0;

  constructor(private readonly maxSize: number) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: T, size: number): void {
    if (size > this.maxSize / 4 || this.entries.has(key)) return;
    this.entries.set(key, { value, size });
    this.size += size;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxSize) break;
      this.entries.delete(oldest);
      this.size -= entry.size;
    }
  }
}

/** Parsed headers kept per isolate (sized by count). */
const HEADERS = new ImmutableCache<ReferenceHeader>(64);
/** Chunk texts kept per isolate: at most 4 M characters (≤ 8 MB) of the isolate's 128 MB. */
const CHUNKS = new ImmutableCache<string>(4 * 1024 * 1024);

/** A model's header (cached per isolate), or null when the model is not stored. */
export async function getHeader(kv: KVNamespace, modelKey: string): Promise<ReferenceHeader | null> {
  const key = headerKey(modelKey);
  const cached = HEADERS.get(key);
  if (cached) return cached;
  const header = await kv.get<ReferenceHeader>(key, "json");
  if (header) HEADERS.set(key, header, 1);
  return header;
}

async function getChunk(kv: KVNamespace, key: string): Promise<string | null> {
  const cached = CHUNKS.get(key);
  if (cached !== undefined) return cached;
  const text = await kv.get(key);
  if (text !== null) CHUNKS.set(key, text, text.length);
  return text;
}

/** One slice, read from its chunk; null when the chunk is missing. */
export async function getSlice(kv: KVNamespace, modelKey: string, at: SliceLocation): Promise<OperationSlice | null> {
  const text = await getChunk(kv, chunkKey(modelKey, at.chunk));
  if (text === null) return null;
  return JSON.parse(text.slice(at.offset, at.offset + at.length)) as OperationSlice;
}

/** Chunks read ahead while a single page streams. */
const CHUNK_READ_AHEAD = 3;

/**
 * Slices in the order given (document order, so chunk numbers never go back), each chunk read once, a few
 * chunks ahead, and dropped once passed: memory holds a handful of chunks, not the model.
 */
export async function* readSlicesInOrder(kv: KVNamespace, modelKey: string, locations: SliceLocation[]): AsyncIterable<OperationSlice> {
  const chunks = new Map<number, Promise<string | null>>();
  const lastChunk = locations.length ? locations[locations.length - 1].chunk : -1;
  for (const at of locations) {
    for (const old of chunks.keys()) if (old < at.chunk) chunks.delete(old);
    for (let n = at.chunk; n <= Math.min(at.chunk + CHUNK_READ_AHEAD, lastChunk); n++) {
      if (!chunks.has(n)) chunks.set(n, kv.get(chunkKey(modelKey, n)));
    }
    const text = await chunks.get(at.chunk)!;
    if (text !== null) yield JSON.parse(text.slice(at.offset, at.offset + at.length)) as OperationSlice;
  }
}
