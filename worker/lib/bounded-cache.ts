/**
 * @module A bounded least-recently-used cache, the one per-isolate cache of immutable things (model headers and
 * chunks: store/models.ts; content releases, pages and chunks: store/content-site.ts). Bounded by a total size (in
 * the caller's unit: characters, bytes), by a number of entries, or both; an entry larger than `maxEntrySize` is
 * never kept, so one huge value cannot flush everything else.
 */

/** The bounds of a {@link BoundedCache}; each defaults to none. */
export interface CacheLimits {
  /** Total size of the entries kept (the sizes given to `set`). */
  maxSize?: number;
  /** Number of entries kept. */
  maxEntries?: number;
  /** Largest single entry kept; larger ones are returned by `set` but not stored. */
  maxEntrySize?: number;
}

/** Least recently used first out, within {@link CacheLimits}. */
export class BoundedCache<K, V> {
  /** In recency order: the least recently used first (a Map keeps insertion order; a hit re-inserts). */
  private readonly map = new Map<K, { value: V; size: number }>();
  private total = 0;
  private readonly maxSize: number;
  private readonly maxEntries: number;
  private readonly maxEntrySize: number;

  constructor(limits: CacheLimits) {
    this.maxSize = limits.maxSize ?? Infinity;
    this.maxEntries = limits.maxEntries ?? Infinity;
    this.maxEntrySize = limits.maxEntrySize ?? Infinity;
  }

  /** The value kept under `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` under `key` (unless larger than maxEntrySize), drops the least recently used past the bounds, and returns `value`. */
  set(key: K, value: V, size = 1): V {
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.total -= old.size;
    }
    if (size > this.maxEntrySize) return value;
    this.map.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.map) {
      if (this.total <= this.maxSize && this.map.size <= this.maxEntries) break;
      this.map.delete(oldest);
      this.total -= entry.size;
    }
    return value;
  }

  /** Total size of the entries kept. */
  get size(): number {
    return this.total;
  }

  /** Number of entries kept. */
  get entries(): number {
    return this.map.size;
  }
}
