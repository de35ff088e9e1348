/**
 * @module SearchShardBuilder: one source's documents (a live API version, or a content release) → one search shard
 * (issue 37). A shard is built from its own documents only, so publishing one source never reads the others. What
 * a whole-portal index bakes in at build time from every document (average field lengths, hence each posting's
 * BM25F saturation; the mined relations; the vocabulary) a shard keeps in additive form instead: raw term
 * frequencies per field and field lengths per document, its field-length sums ({@link ShardStats}), its mining
 * evidence, its public words. shards.ts merges shards at query time with the portal's summed statistics into
 * exactly the index one build over the same documents would give.
 */
import { ByteWriter } from "./bytes";
import { COUNT_OVERFLOW, FIELD_BITS, FIELDS, IntList, SearchIndexBuilder, writeStrings, type BuildOptions } from "./build";
import type { AccessGroup } from "./format";
import type { SearchDocument } from "./types";

/** Format of a shard; load refuses others. Its `postings` lists are `[docDelta, fieldMask, tf per field in the mask...]`. */
export const SHARD_FORMAT = "portico-shard/1";
/**
 * A shard whose documents are stored apart (issue 37: a cold isolate's first query read and parsed every shard's
 * documents, most of its bytes, to show ten): the shard's value is {@link SHARD_FORMAT}'s with `docs` empty, plus
 * what every query reads of every document (kind, locale, access group: `docKinds`, `docLocales`, `docGroups`,
 * `docRows` = three numbers a document) and where each document's JSON is in the documents' own value
 * (`docStarts`, `docEnds`: byte offsets; `docsKey`, `docsParts`: that value in KV, a JSON array). The documents are
 * read only when one is shown or ranked by its title (shards.ts {@link withShardDocuments}).
 */
export const LAZY_SHARD_FORMAT = "portico-shard/2";

/** Where a lazy shard's documents are stored (putIndex's answer for {@link SearchShardBuilder.finishDocs}'s blocks). */
export interface ShardDocsRef {
  key: string;
  parts: number;
}

/** A {@link SearchShardBuilder}'s options: `lazyDocs` writes {@link LAZY_SHARD_FORMAT}. */
export interface ShardBuildOptions extends BuildOptions {
  lazyDocs?: boolean;
}

/**
 * Additive statistics of a set of documents, per field in build.ts's FIELDS order: tokens summed, and documents
 * whose field is not empty. A portal's are the sum over its live shards (kept in D1, updated by adding a new
 * shard's and subtracting the replaced one's); the average a posting is normalised by is `lengths / nonEmpty`.
 */
export interface ShardStats {
  documents: number;
  lengths: number[];
  nonEmpty: number[];
}

/** Statistics of no documents. */
export function emptyStats(): ShardStats {
  return { documents: 0, lengths: FIELDS.map(() => 0), nonEmpty: FIELDS.map(() => 0) };
}

/** `a + sign × b`, field by field (sign -1: a shard leaving). Integers, so sums and differences are exact. */
export function addStats(a: ShardStats, b: ShardStats, sign: 1 | -1 = 1): ShardStats {
  return {
    documents: a.documents + sign * b.documents,
    lengths: a.lengths.map((x, f) => x + sign * (b.lengths[f] ?? 0)),
    nonEmpty: a.nonEmpty.map((x, f) => x + sign * (b.nonEmpty[f] ?? 0)),
  };
}

/** Builds one shard from documents added in order (as {@link SearchIndexBuilder}), then {@link finishShard}. */
export class SearchShardBuilder extends SearchIndexBuilder {
  private readonly lazy: boolean;
  /** Lazy shards: each document's kind, locale and access group numbers, and its byte range in the documents' value. */
  private readonly rows = new IntList();
  private readonly starts = new IntList();
  private readonly ends = new IntList();
  private readonly kinds = new Map<string, number>();
  private readonly locales = new Map<string, number>();
  private readonly groups = new Map<string, number>();
  private readonly groupList: AccessGroup[] = [];

  constructor(options: ShardBuildOptions = {}) {
    super(options, options.lazyDocs ? LAZY_SHARD_FORMAT : SHARD_FORMAT);
    this.lazy = options.lazyDocs === true;
    if (this.lazy) {
      this.docsOut = new ByteWriter(options.blockBytes);
      this.docsOut.write("[");
    }
  }

  override add(doc: SearchDocument): void {
    const before = this.n;
    // The comma before every document but the first is written by add: the document starts after it.
    const start = this.docsOut.length + (before > 0 ? 1 : 0);
    super.add(doc);
    if (!this.lazy || this.n === before) return;
    this.starts.push(start);
    this.ends.push(this.docsOut.length);
    const labels = doc.labels ?? [];
    // Keyed as DocColumns keys its groups, so a loaded shard gives canRead the same pairs.
    const group = `${labels.join("\u0000")}\u0001${doc.policyPath ?? ""}`;
    let g = this.groups.get(group);
    if (g === undefined) {
      this.groups.set(group, (g = this.groupList.length));
      this.groupList.push(doc.policyPath === undefined ? { labels } : { labels, policyPath: doc.policyPath });
    }
    this.rows.push(intern(this.kinds, String(doc.kind)));
    this.rows.push(intern(this.locales, String(doc.locale)));
    this.rows.push(g);
  }

  /**
   * A lazy shard's documents (a JSON array, as UTF-8 blocks), to store before {@link finishShard} names them. Call
   * once, after the last {@link add}.
   */
  finishDocs(): Uint8Array[] {
    if (!this.lazy) throw new Error("finishDocs: this shard keeps its documents (lazyDocs not set)");
    this.docsOut.write("]");
    return this.docsOut.finish();
  }

  /**
   * The shard's UTF-8 blocks (one JSON object) and its statistics. The builder must not be used afterwards. A lazy
   * shard names where its documents were stored (`docs`: required then).
   */
  finishShard(docs?: ShardDocsRef): { blocks: Uint8Array[]; stats: ShardStats } {
    if (this.lazy && !docs) throw new Error("finishShard: a lazy shard needs its documents' key (store finishDocs first)");
    const n = this.n;
    const out: ByteWriter = this.out;
    const stats = emptyStats();
    stats.documents = n;
    for (let f = 0; f < FIELDS.length; f++) {
      for (let i = 0; i < n; i++) {
        stats.lengths[f] += this.len[f].data[i];
        if (this.len[f].data[i] > 0) stats.nonEmpty[f]++;
      }
    }
    const names = this.termNames;
    const v = names.length;
    const order = names.slice().sort().map((name) => this.termIds.get(name)!);
    const rankOf = new Int32Array(v);
    order.forEach((id, r) => (rankOf[id] = r));
    const entries = this.entryEnd.length ? this.entryEnd.data[n - 1] : 0;
    // Per term: two numbers per document having it (delta, mask), plus one per field it is in.
    const size = new Int32Array(v);
    for (let id = 0; id < v; id++) size[id] = 2 * this.df.data[id];
    for (let e = 0; e < entries; e++) size[this.entryTerm.data[e] >>> FIELD_BITS]++;
    const start = new Int32Array(v + 1);
    for (let r = 0; r < v; r++) start[r + 1] = start[r] + size[order[r]];
    const postings = new Int32Array(start[v]);
    const cursor = start.slice(0, v);
    const prevDoc = new Int32Array(v);
    const mask = new Uint8Array(v);
    const tfs = new Int32Array(v * FIELDS.length);
    const touched = new Int32Array(v);
    let from = 0;
    for (let i = 0; i < n; i++) {
      let count = 0;
      const to = this.entryEnd.data[i];
      for (let e = from; e < to; e++) {
        const id = this.entryTerm.data[e] >>> FIELD_BITS;
        const f = this.entryTerm.data[e] & ((1 << FIELD_BITS) - 1);
        if (!mask[id]) touched[count++] = id;
        mask[id] |= 1 << f;
        tfs[id * FIELDS.length + f] = this.entryCount.data[e] === COUNT_OVERFLOW ? this.bigCounts.get(e)! : this.entryCount.data[e];
      }
      from = to;
      for (let k = 0; k < count; k++) {
        const id = touched[k];
        const r = rankOf[id];
        postings[cursor[r]++] = i - prevDoc[r];
        postings[cursor[r]++] = mask[id];
        for (let f = 0; f < FIELDS.length; f++) if (mask[id] & (1 << f)) postings[cursor[r]++] = tfs[id * FIELDS.length + f];
        prevDoc[r] = i;
        mask[id] = 0;
      }
    }
    this.writeTermsAndPostings(out, n, order.map((id) => names[id]), postings, start);
    const kept: string[] = [];
    for (const [word, s] of this.surface) if (this.surfaceTerm.data[s] >= 0) kept.push(word);
    const words = kept.sort();
    out.write(`],"words":[`);
    writeStrings(out, words);
    out.write(`],"wordTerm":`);
    out.writeIntArray(words.map((w) => rankOf[this.surfaceTerm.data[this.surface.get(w)!]]));
    // Relations are mined at merge time (shards.ts) from every shard's evidence: "related" stays empty here.
    out.write(`,"related":{},"lens":`);
    const lens = new Int32Array(n * FIELDS.length);
    for (let i = 0; i < n; i++) for (let f = 0; f < FIELDS.length; f++) lens[i * FIELDS.length + f] = this.len[f].data[i];
    out.writeIntArray(lens);
    // Words public documents had unjoined (as indexes into `words`): the compounds' vocabulary (mine.ts compoundHeads).
    const publicWords: number[] = [];
    words.forEach((w, k) => {
      if (this.surfacePublic.data[this.surface.get(w)!]) publicWords.push(k);
    });
    out.write(`,"publicWords":`);
    out.writeIntArray(publicWords);
    out.write(`,"mined":${JSON.stringify(this.miner.evidence())},"stats":${JSON.stringify(stats)}`);
    if (this.vectorIds) out.write(`,"vectors":${JSON.stringify(this.vectorIds)}`);
    if (this.lazy) {
      out.write(`,"docKinds":${JSON.stringify([...this.kinds.keys()])},"docLocales":${JSON.stringify([...this.locales.keys()])},"docGroups":${JSON.stringify(this.groupList)},"docRows":`);
      out.writeIntArray(this.rows.data, 0, this.rows.length);
      out.write(`,"docStarts":`);
      out.writeIntArray(this.starts.data, 0, this.starts.length);
      out.write(`,"docEnds":`);
      out.writeIntArray(this.ends.data, 0, this.ends.length);
      out.write(`,"docsKey":${JSON.stringify(docs!.key)},"docsParts":${docs!.parts}`);
    }
    out.write("}");
    return { blocks: out.finish(), stats };
  }
}

function intern(ids: Map<string, number>, s: string): number {
  let id = ids.get(s);
  if (id === undefined) ids.set(s, (id = ids.size));
  return id;
}
