/**
 * @module buildSearchIndex / SearchIndexBuilder: documents → serialised index (format.ts). Field-weighted BM25
 * (BM25F): each field's term frequency is length-normalised and weighted, summed, then saturated once per term and
 * document; the result is stored per posting so queries only add numbers. Runs at publish time, never on the read
 * path.
 *
 * Built in bounded memory (issue 12: a huge definition's index within a 128 MB isolate): documents are added one
 * at a time and never kept as objects; each is serialised into the output bytes at once and its term counts are
 * kept as two integers per (field, term) in typed arrays; the postings are laid out in one typed array once the
 * average field lengths are known, and written straight into UTF-8 blocks (bytes.ts). The bytes are exactly
 * `JSON.stringify` of {@link IndexData}, as the previous whole-list build wrote them.
 */
import { STOPWORDS, stem } from "./analyze";
import { ByteWriter, blocksText } from "./bytes";
import { INDEX_FORMAT, SAT_SCALE } from "./format";
import { RelatedMiner } from "./mine";
import { scanTokens } from "./tokenize";
import type { SearchDocument } from "./types";

/** BM25F field weights and length-normalisation strengths (b); the head fields name the document. */
export const FIELDS = [
  { name: "title", weight: 4, b: 0.6, head: true },
  { name: "section", weight: 1.5, b: 0.5, head: true },
  { name: "ident", weight: 2, b: 0.3, head: false },
  { name: "params", weight: 1, b: 0.5, head: false },
  { name: "body", weight: 1, b: 0.75, head: false },
  // The operation's group as the definition describes it (its first tag's description): words the operation leaves
  // out ("inbox" for a mailbox's update when the Mailboxes tag says "inboxes") find it, weakly; the same text on
  // every operation of the tag is no evidence of which one. Never stored in the index's documents (see `stored`).
  { name: "context", weight: 0.3, b: 0.75, head: false },
] as const;
export const K1 = 1.2;
/** Tokens read per body; long guides with code blocks say what they are about early. */
const BODY_TOKENS = 4000;

function fieldTexts(d: SearchDocument): string[] {
  const f = d.fields ?? {};
  const ident = [f.operationId, f.method, f.path, f.tag].filter(Boolean).join(" ");
  const params = [...(f.parameters ?? []), ...(f.properties ?? []), ...(f.enums ?? [])].map(String).join(" ");
  return [d.title ?? "", d.section ?? "", ident, params, d.body ?? "", f.context ?? ""];
}

/**
 * The document as the index keeps it (for results and snippets): without `fields.context`, which is only searched
 * (a tag's description repeated on each of its operations would add a copy per operation to the index).
 */
export function stored(doc: SearchDocument): SearchDocument {
  if (doc.fields?.context === undefined) return doc;
  const { context: _context, ...fields } = doc.fields;
  return { ...doc, fields };
}

/** Options of {@link buildSearchIndex} and {@link SearchIndexBuilder}. */
export interface BuildOptions {
  /** Document id → id of its stored vector (semantic retrieval); documents without one get none. */
  vectors?: ReadonlyMap<string, string>;
  /** Size of the output's UTF-8 blocks (bytes.ts; tests use tiny ones to cross block edges everywhere). */
  blockBytes?: number;
}

/** A growable list of integers in a typed array (grown by half; the bytes are outside the JS heap's object graph). */
export class IntList<T extends Int32Array | Uint16Array = Int32Array> {
  data: T;
  length = 0;
  constructor(capacity = 1024, private readonly make: (n: number) => T = ((n: number) => new Int32Array(n)) as (n: number) => T) {
    this.data = make(capacity);
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length++] = v;
  }
  /** Makes indexes below `n` valid (new ones read 0). */
  ensure(n: number): void {
    if (n > this.data.length) this.grow(n);
    if (n > this.length) this.length = n;
  }
  private grow(min: number): void {
    const next = this.make(Math.max(min, Math.ceil(this.data.length * 1.5)));
    next.set(this.data);
    this.data = next;
  }
}

/** Entry term: the term's provisional id, and which field (low 3 bits). */
export const FIELD_BITS = 3;
/** Entry counts are 16-bit; a count from this one up is kept in a map (only a field repeating one word 65,535 times). */
export const COUNT_OVERFLOW = 0xffff;

/**
 * Builds one index from documents added in order (ids must be unique; later duplicates are dropped), then
 * {@link finish}. Holds per document only its serialised bytes, field lengths and (term, field, count) triples.
 * Throws nothing on hostile text: tokenisation is bounded per body (BODY_TOKENS).
 */
export class SearchIndexBuilder {
  protected readonly out: ByteWriter;
  /** Where documents are serialised: `out` (in the index), or a stream of their own (lazy shards: shard-build.ts). */
  protected docsOut: ByteWriter;
  private readonly seen = new Set<string>();
  /** Term (stem) → provisional id, in order of first sight; sorted ids are given by finish. */
  protected readonly termIds = new Map<string, number>();
  protected readonly termNames: string[] = [];
  /**
   * Surface word → its number, in order of first sight (stopwords too): one lookup per token answers whether it is
   * a stopword, its term, and whether a public document had it (also spares stemming a word twice).
   */
  protected readonly surface = new Map<string, number>();
  /** Per surface word: its provisional term id, or -1 for a stopword. */
  protected readonly surfaceTerm = new IntList();
  /** Per surface word: 1 once a public document had it unjoined (see {@link finish}'s compounds). */
  protected readonly surfacePublic = new IntList();
  /** Per (document, field, term): term id × 8 + field, and the term's count in the field (6 bytes an entry). */
  protected readonly entryTerm = new IntList(1 << 16);
  protected readonly entryCount = new IntList(1 << 16, (n) => new Uint16Array(n));
  protected readonly bigCounts = new Map<number, number>();
  /** Per document, where its entries end. */
  protected readonly entryEnd = new IntList();
  /** Per field, per document: length in tokens. */
  protected readonly len = FIELDS.map(() => new IntList());
  protected readonly headLen = new IntList();
  /** Per provisional term: documents containing it, and the last one counted (+1). */
  protected readonly df = new IntList();
  private readonly lastDoc = new IntList();
  protected readonly miner = new RelatedMiner();
  private isPublic = false;
  protected readonly vectorIds: string[] | undefined;
  protected n = 0;
  /** Documents passed to {@link add}, duplicates included. */
  added = 0;

  /** `format`: the format string written first (search shards write theirs: shard-build.ts). */
  constructor(private readonly options: BuildOptions = {}, format: string = INDEX_FORMAT) {
    this.out = new ByteWriter(options.blockBytes);
    this.docsOut = this.out;
    this.vectorIds = options.vectors ? [] : undefined;
    this.out.write(`{"format":${JSON.stringify(format)},"docs":[`);
  }

  /** Documents kept so far. */
  get size(): number {
    return this.n;
  }

  /** Adds one document (serialised at once; the caller may drop it afterwards). */
  add(doc: SearchDocument): void {
    this.added++;
    if (this.seen.has(doc.id)) return;
    this.seen.add(doc.id);
    const i = this.n++;
    const texts = fieldTexts(doc);
    this.isPublic = !doc.labels?.length;
    this.titleTerms.clear();
    for (let f = 0; f < FIELDS.length; f++) {
      this.field = f;
      this.fieldLength = 0;
      scanTokens(texts[f], f === 4 ? BODY_TOKENS : Infinity, this.sink);
      const counts = this.counts.data;
      for (let k = 0; k < this.touched.length; k++) {
        const id = this.touched.data[k];
        const count = counts[id];
        counts[id] = 0;
        if (count >= COUNT_OVERFLOW) this.bigCounts.set(this.entryTerm.length, count);
        this.entryTerm.push((id << FIELD_BITS) | f);
        this.entryCount.push(Math.min(count, COUNT_OVERFLOW));
        if (this.lastDoc.data[id] !== i + 1) {
          this.lastDoc.data[id] = i + 1;
          this.df.data[id]++;
        }
      }
      this.touched.length = 0;
      this.len[f].push(this.fieldLength);
    }
    const titleTerms = this.titleTerms;
    this.entryEnd.push(this.entryTerm.length);
    this.headLen.push(titleTerms.size);
    // Mined from public documents only: a relation learnt from a private page would change what every reader's
    // query expands to.
    if (!doc.labels?.length) this.miner.add(doc);
    this.vectorIds?.push(this.options.vectors!.get(doc.id) ?? "");
    if (i > 0) this.docsOut.write(",");
    this.docsOut.write(JSON.stringify(stored(doc)));
  }

  // One field's scan: per term its count so far (0 = not yet in this field), and the terms seen, in order.
  private readonly counts = new IntList();
  private readonly touched = new IntList();
  private readonly titleTerms = new Set<number>();
  private field = 0;
  private fieldLength = 0;
  private readonly sink = (word: string, _start: number, _end: number, joined: boolean): void => {
    let s = this.surface.get(word);
    if (s === undefined) s = this.newSurface(word);
    const id = this.surfaceTerm.data[s];
    if (id < 0) return;
    if (this.counts.data[id]++ === 0) this.touched.push(id);
    if (!joined) {
      if (this.isPublic) this.surfacePublic.data[s] = 1;
      this.fieldLength++;
      if (this.field === 0) this.titleTerms.add(id);
    }
  };

  private newSurface(word: string): number {
    const s = this.surface.size;
    this.surface.set(word, s);
    this.surfaceTerm.push(STOPWORDS.has(word) ? -1 : this.termId(stem(word)));
    this.surfacePublic.push(0);
    return s;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termNames.length;
      this.termIds.set(term, id);
      this.termNames.push(term);
      this.df.ensure(id + 1);
      this.lastDoc.ensure(id + 1);
      this.counts.ensure(id + 1);
    }
    return id;
  }

  /**
   * The serialised index: UTF-8 blocks whose concatenation is the JSON text of {@link IndexData}. The builder must
   * not be used afterwards.
   */
  finish(): Uint8Array[] {
    const n = this.n;
    const out = this.out;
    const avg = this.len.map((l) => {
      let sum = 0;
      let nonEmpty = 0;
      for (let i = 0; i < n; i++) {
        sum += l.data[i];
        if (l.data[i] > 0) nonEmpty++;
      }
      return Math.max(1, sum / Math.max(1, nonEmpty));
    });
    const names = this.termNames;
    const v = names.length;
    // Terms are distinct, so the default sort (UTF-16 code units, as `<` compares) gives the order by name.
    const order = names.slice().sort().map((name) => this.termIds.get(name)!);
    const rankOf = new Int32Array(v);
    order.forEach((id, r) => (rankOf[id] = r));
    // Postings of sorted term r at [start[r], start[r + 1]) of one array: [docDelta, value] pairs in document order.
    const start = new Int32Array(v + 1);
    for (let r = 0; r < v; r++) start[r + 1] = start[r] + 2 * this.df.data[order[r]];
    const postings = new Int32Array(start[v]);
    const cursor = start.slice(0, v);
    const prevDoc = new Int32Array(v);
    const weight = new Float64Array(v);
    const inHead = new Uint8Array(v);
    const touched = new Int32Array(v);
    const norm = new Float64Array(FIELDS.length);
    let from = 0;
    for (let i = 0; i < n; i++) {
      for (let f = 0; f < FIELDS.length; f++) norm[f] = 1 - FIELDS[f].b + (FIELDS[f].b * this.len[f].data[i]) / avg[f];
      let count = 0;
      const to = this.entryEnd.data[i];
      for (let e = from; e < to; e++) {
        const id = this.entryTerm.data[e] >>> FIELD_BITS;
        const f = this.entryTerm.data[e] & ((1 << FIELD_BITS) - 1);
        const tf = this.entryCount.data[e] === COUNT_OVERFLOW ? this.bigCounts.get(e)! : this.entryCount.data[e];
        const seen = inHead[id] & 2;
        if (!seen) touched[count++] = id;
        // Summed field by field in field order, as BM25F's weighted term frequency.
        weight[id] = (seen ? weight[id] : 0) + (FIELDS[f].weight * tf) / norm[f];
        // Bits: 1 = in a head field, 2 = seen in this document, 4 = in the title itself (field 0).
        inHead[id] = 2 | (inHead[id] & 5) | (FIELDS[f].head ? 1 : 0) | (f === 0 ? 4 : 0);
      }
      from = to;
      for (let k = 0; k < count; k++) {
        const id = touched[k];
        const w = weight[id];
        const sat = Math.max(1, Math.round((SAT_SCALE * w) / (K1 + w)));
        const r = rankOf[id];
        postings[cursor[r]++] = i - prevDoc[r];
        postings[cursor[r]++] = sat * 4 + ((inHead[id] >> 1) & 2) + (inHead[id] & 1);
        prevDoc[r] = i;
        inHead[id] = 0;
      }
    }
    this.writeTermsAndPostings(out, n, order.map((id) => names[id]), postings, start);
    // Words of public documents only, surface → stem: compounds are mined from them (mine.ts compoundHeads).
    const publicSurface = new Map<string, string>();
    const kept: string[] = [];
    for (const [word, s] of this.surface) {
      const id = this.surfaceTerm.data[s];
      if (id < 0) continue;
      kept.push(word);
      if (this.surfacePublic.data[s]) publicSurface.set(word, names[id]);
    }
    const words = kept.sort();
    out.write(`],"words":[`);
    writeStrings(out, words);
    out.write(`],"wordTerm":`);
    out.writeIntArray(words.map((w) => rankOf[this.surfaceTerm.data[this.surface.get(w)!]]));
    // Mined from public documents only: a relation learnt from a private page would change what every reader's
    // query expands to.
    const related = this.miner.related((term) => {
      const id = this.termIds.get(term);
      return id === undefined ? undefined : rankOf[id];
    }, publicSurface);
    out.write(`,"related":${JSON.stringify(related)}`);
    if (this.vectorIds) out.write(`,"vectors":${JSON.stringify(this.vectorIds)}`);
    out.write("}");
    return out.finish();
  }

  /**
   * Releases the spent entries, then writes `headLen` (for `n` documents), the sorted `terms` and each term's
   * postings: term r's at [start[r], start[r + 1]) of `postings`. Shared by the index and the shard formats.
   */
  protected writeTermsAndPostings(out: ByteWriter, n: number, terms: readonly string[], postings: Int32Array, start: Int32Array): void {
    // The entries are spent: released before the output grows by the postings.
    this.entryTerm.data = new Int32Array(0);
    this.entryCount.data = new Uint16Array(0);
    out.write(`],"headLen":`);
    out.writeIntArray(this.headLen.data, 0, n);
    out.write(`,"terms":[`);
    writeStrings(out, terms);
    out.write(`],"postings":[`);
    for (let r = 0; r < terms.length; r++) {
      if (r > 0) out.write(",");
      out.writeIntArray(postings, start[r], start[r + 1]);
    }
  }
}

/** Writes `list` as the members of a JSON array of strings (commas between), a few thousand per write. */
export function writeStrings(out: ByteWriter, list: readonly string[]): void {
  for (let i = 0; i < list.length; i += 4096) {
    const batch = list.slice(i, i + 4096).map((s) => JSON.stringify(s)).join(",");
    out.write(i > 0 ? "," + batch : batch);
  }
}

/**
 * Builds the index for `docs` (ids must be unique; later duplicates are dropped). Returns the JSON text of
 * {@link IndexData}, immutable once written. Cost is linear in the text: ~1 s for GitHub's 1,223 operations.
 * The publisher uses {@link SearchIndexBuilder} (bytes, documents streamed); this is for tests and benches.
 */
export function buildSearchIndex(docs: Iterable<SearchDocument>, options: BuildOptions = {}): string {
  const builder = new SearchIndexBuilder(options);
  for (const d of docs) builder.add(d);
  return blocksText(builder.finish());
}
