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
