/**
 * @module MergedDocs: several shards' document tables as one {@link DocTable}, documents numbered shard after shard.
 * The columns every query reads (kind, locale, access group) are copied into one set of typed arrays at merge time,
 * so a query's per-document loops cost what they cost over one index; a whole document is read from its shard.
 */
import type { AccessGroup, DocTable } from "./format";
import type { SearchDocument } from "./types";

export class MergedDocs implements DocTable {
  readonly length: number;
  /** First global document number of each shard (one more entry: the total). */
  readonly offsets: Int32Array;
  readonly groups: AccessGroup[] = [];
  private readonly kinds: string[] = [];
  private readonly locales: string[] = [];
  private readonly kindOf: Int32Array;
  private readonly localeOf: Int32Array;
  private readonly groupOf: Int32Array;

  constructor(private readonly tables: readonly DocTable[]) {
    this.offsets = new Int32Array(tables.length + 1);
    tables.forEach((t, k) => (this.offsets[k + 1] = this.offsets[k] + t.length));
    this.length = this.offsets[tables.length];
    this.kindOf = new Int32Array(this.length);
    this.localeOf = new Int32Array(this.length);
    this.groupOf = new Int32Array(this.length);
    const kindIds = new Map<string, number>();
    const localeIds = new Map<string, number>();
    const groupIds = new Map<string, number>();
    tables.forEach((t, k) => {
      // The same key DocColumns groups by: shards sharing labels and policy path share one canRead verdict.
      const groupMap = t.groups.map((g) => {
        const key = `${g.labels.join("\u0000")}\u0001${g.policyPath ?? ""}`;
        let id = groupIds.get(key);
        if (id === undefined) {
          id = this.groups.length;
          groupIds.set(key, id);
          this.groups.push(g);
        }
        return id;
      });
      const base = this.offsets[k];
      for (let i = 0; i < t.length; i++) {
        this.kindOf[base + i] = intern(this.kinds, kindIds, t.kind(i));
        this.localeOf[base + i] = intern(this.locales, localeIds, t.locale(i));
        this.groupOf[base + i] = groupMap[t.group(i)];
      }
    });
  }

  kind(doc: number): string {
    return this.kinds[this.kindOf[doc]];
  }

  locale(doc: number): string {
    return this.locales[this.localeOf[doc]];
  }

  group(doc: number): number {
    return this.groupOf[doc];
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

function intern(list: string[], ids: Map<string, number>, s: string): number {
  let id = ids.get(s);
  if (id === undefined) {
    id = list.length;
    ids.set(s, id);
    list.push(s);
  }
  return id;
}
