/**
 * @module MergedDocs: several shards' document tables as one {@link DocTable}, documents numbered shard after shard.
 * The columns every query reads (kind, locale, access group) are copied into one set of typed arrays at merge time,
 * so a query's per-document loops cost what they cost over one index; a whole document is read from its shard.
 */
import { DocColumns, type AccessGroup, type DocTable } from "./format";
import type { SearchDocument } from "./types";

export class MergedDocs implements DocTable {
  readonly length: number;
  /** First global document number of each shard (one more entry: the total). */
  readonly offsets: Int32Array;
  private readonly columns: DocColumns;

  constructor(private readonly tables: readonly DocTable[]) {
    this.offsets = new Int32Array(tables.length + 1);
    tables.forEach((t, k) => (this.offsets[k + 1] = this.offsets[k] + t.length));
    this.length = this.offsets[tables.length];
    this.columns = new DocColumns(this.length, (doc) => this.get(doc));
    tables.forEach((t, k) => {
      // Each shard's groups mapped once; shards sharing labels and policy path share one canRead verdict.
      const groupMap = t.groups.map((g) => this.columns.groupId(g.labels, g.policyPath));
      const base = this.offsets[k];
      for (let i = 0; i < t.length; i++) this.columns.setRow(base + i, t.kind(i), t.locale(i), groupMap[t.group(i)]);
    });
  }

  get groups(): readonly AccessGroup[] {
    return this.columns.groups;
  }

  kind(doc: number): string {
    return this.columns.kind(doc);
  }

  locale(doc: number): string {
    return this.columns.locale(doc);
  }

  group(doc: number): number {
    return this.columns.group(doc);
  }

  get(doc: number): SearchDocument {
    // The last shard whose first document is at or before `doc`.
    let lo = 0;
    let hi = this.tables.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid] <= doc) lo = mid;
      else hi = mid - 1;
    }
    return this.tables[lo].get(doc - this.offsets[lo]);
  }
}

/**
 * The document table of a lazy shard (shard-build.ts LAZY_SHARD_FORMAT): kind, locale and access group of every
 * document from the shard's own value, the documents themselves from their own stored value once
 * {@link LazyDocs.attach}ed. Until then {@link LazyDocs.get} marks the table `wanted` and answers a placeholder with
 * the document's kind, locale and labels only: a search run over it is provisional and is run again once the
 * wanted documents are attached (shards.ts {@link withShardDocuments}), so no placeholder reaches an answer.
 */
export class LazyDocs implements DocTable {
  readonly length: number;
  /** Set by a {@link get} while the documents are not attached. */
  wanted = false;
  private bytes: Uint8Array | undefined;
  private readonly columns: DocColumns;
  private readonly decoder = new TextDecoder();

  /** `rows`: per document its kind, locale and group numbers; `starts`/`ends`: its byte range in the documents' value. */
  constructor(
    /** The documents' value in storage (KV key, parts). */
    readonly key: string,
    readonly parts: number,
    kinds: readonly string[],
    locales: readonly string[],
    groups: readonly AccessGroup[],
    rows: ArrayLike<number>,
    private readonly starts: ArrayLike<number>,
    private readonly ends: ArrayLike<number>,
  ) {
    this.length = starts.length;
    if (ends.length !== this.length || rows.length !== 3 * this.length) throw new Error("lazy shard: document columns of different lengths");
    this.columns = new DocColumns(this.length, (doc) => this.get(doc));
    // Numbered in the stored order, so the stored group numbers are the table's.
    for (const g of groups) this.columns.groupId(g.labels, g.policyPath);
    for (let i = 0; i < this.length; i++) {
      const kind = kinds[rows[3 * i]];
      const locale = locales[rows[3 * i + 1]];
      if (kind === undefined || locale === undefined || rows[3 * i + 2] >= groups.length) throw new Error("lazy shard: a document row names no kind, locale or group");
      this.columns.setRow(i, kind, locale, rows[3 * i + 2]);
    }
  }

  /** Whether the documents are attached. */
  get attached(): boolean {
    return this.bytes !== undefined;
  }

  /** The documents' stored value (kept, not copied: the caller must not change it). Throws when it is too short. */
  attach(bytes: Uint8Array): void {
    if (this.length && this.ends[this.length - 1] > bytes.byteLength) throw new Error(`lazy shard documents ${this.key}: ${bytes.byteLength} bytes, fewer than the shard names`);
    this.bytes = bytes;
    this.wanted = false;
  }

  /** Forgets the documents (their value left the isolate's cache); the next {@link get} wants them again. */
  detach(): void {
    this.bytes = undefined;
  }

  get groups(): readonly AccessGroup[] {
    return this.columns.groups;
  }

  kind(doc: number): string {
    return this.columns.kind(doc);
  }

  locale(doc: number): string {
    return this.columns.locale(doc);
  }

  group(doc: number): number {
    return this.columns.group(doc);
  }

  get(doc: number): SearchDocument {
    const bytes = this.bytes;
    if (!bytes) {
      this.wanted = true;
      const g = this.columns.groups[this.columns.group(doc)];
      return { id: "", kind: this.columns.kind(doc) as SearchDocument["kind"], title: "", body: "", url: "", locale: this.columns.locale(doc), labels: g.labels, ...(g.policyPath !== undefined ? { policyPath: g.policyPath } : {}) };
    }
    return JSON.parse(this.decoder.decode(bytes.subarray(this.starts[doc], this.ends[doc]))) as SearchDocument;
  }
}
