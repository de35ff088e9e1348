/**
 * @module loadSearchIndex: serialised index → {@link SearchIndex}. A large index (from LIGHT_READER_MIN_BYTES) is
 * read by the light reader (index-bytes.ts: documents kept as byte ranges and parsed only when shown, postings as
 * typed arrays, the text never one string); a small one, or one that reader does not handle, by one JSON.parse
 * (faster on small indexes, and their objects are small). Both give the same
 * {@link IndexView}, so answers are the same (load.test.ts). The typo map is built on the first query that needs
 * it. Searching applies the reader's filters first, then ranks, counts, cuts snippets and builds suggestions from
 * the allowed documents only.
 */
import { stem } from "./analyze";
import { Expander, type TermGroup } from "./expand";
import { DocColumns, INDEX_FORMAT, PREVIOUS_INDEX_FORMAT, type IndexData, type IndexView } from "./format";
import { readIndexBytes } from "./index-bytes";
import { parseQuery, type ParsedQuery } from "./query";
import { fuse } from "./fuse";
import { byScore, rank, topHits, type Scored } from "./rank";
import { accessKey, type SemanticScope } from "./semantic";
import { makeSnippet, snippetWords } from "./snippet";
import type { SearchDocument, SearchIndex, SearchOptions, SearchResponse } from "./types";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
/** Readers' allowed-document arrays kept per loaded index (one byte a document each): distinct verdicts and locales. */
const ALLOWED_KEPT = 8;

/** Thrown by {@link loadSearchIndex} when the data is not an index this code can read. */
export class SearchIndexFormatError extends Error {}

/**
 * Indexes from this many bytes up are read by the light reader under `auto`; smaller ones by JSON.parse, which is
 * faster on them (GitHub's 1.6 MB index: ~6 ms against ~20 ms) and whose objects are a few MB at most.
 */
export const LIGHT_READER_MIN_BYTES = 4 * 1024 * 1024;

/**
 * How {@link loadSearchIndex} reads: `light` = the light reader (JSON.parse for what it does not handle); `json` =
 * JSON.parse (the previous load); `auto` (default) = `light` from {@link LIGHT_READER_MIN_BYTES} up, else `json`.
 */
export interface LoadOptions {
  reader?: "auto" | "light" | "json";
}

/**
 * Loads an index written by buildSearchIndex / SearchIndexBuilder: its UTF-8 bytes (what storage holds; read
 * without decoding the whole, see index-bytes.ts) or its text. Throws SearchIndexFormatError on another format
 * or garbage. `bytes` is kept by the loaded index (its documents are read from it): the caller must not change it.
 */
export function loadSearchIndex(data: string | Uint8Array, options: LoadOptions = {}): SearchIndex {
  const reader = options.reader ?? "auto";
  const size = typeof data === "string" ? data.length : data.byteLength;
  if (reader === "light" || (reader === "auto" && size >= LIGHT_READER_MIN_BYTES)) {
    let read: ReturnType<typeof readIndexBytes> | undefined;
    try {
      // A string (tests, benches: storage hands bytes) is encoded so it is read the one way the Worker reads.
      read = readIndexBytes(typeof data === "string" ? new TextEncoder().encode(data) : data);
    } catch {
      // Shaped otherwise than the builder writes (or not JSON): JSON.parse below reads it or says why not.
    }
    if (read) {
      if (read.format !== INDEX_FORMAT && read.format !== PREVIOUS_INDEX_FORMAT) throw new SearchIndexFormatError(`search index format is not ${INDEX_FORMAT}`);
      read.view.titleBit = read.format === INDEX_FORMAT;
      return new LoadedIndex(read.view);
    }
  }
  let parsed: IndexData;
  try {
    parsed = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data)) as IndexData;
  } catch (e) {
    throw new SearchIndexFormatError("search index is not valid JSON", { cause: e });
  }
  if (!parsed || (parsed.format !== INDEX_FORMAT && parsed.format !== PREVIOUS_INDEX_FORMAT)) throw new SearchIndexFormatError(`search index format is not ${INDEX_FORMAT}`);
  if (!Array.isArray(parsed.docs) || !parsed.docs.every((d) => d && typeof d === "object")) throw new SearchIndexFormatError("search index documents are not objects");
  return new LoadedIndex(parsedView(parsed));
}

/** A searchable index over any {@link IndexView} (search shards merged: shards.ts). */
export function indexOfView(view: IndexView): SearchIndex {
  return new LoadedIndex(view);
}

/** The {@link IndexView} of a parsed index: its documents stay objects (the previous load, and small indexes). */
export function parsedView(data: IndexData): IndexView {
  const docs = data.docs;
  const table = new DocColumns(docs.length, (i) => docs[i]);
  docs.forEach((d, i) => table.add(i, d));
  const postings = data.postings;
  return {
    docs: table,
    headLen: data.headLen,
    terms: data.terms,
    postings: (t) => postings[t],
    titleBit: data.format === INDEX_FORMAT,
    words: data.words,
    wordTerm: data.wordTerm,
    related: data.related,
    ...(data.vectors ? { vectors: data.vectors } : {}),
  };
}

class LoadedIndex implements SearchIndex {
  private readonly expander: Expander;

  constructor(private readonly data: IndexView) {
    this.expander = new Expander(data);
  }

  private surface: string[][] | undefined;

  /** term → the surface words that map to it (for snippet windows); built on first use. */
  private surfaceWords(): string[][] {
    if (this.surface) return this.surface;
    const out: string[][] = [];
    this.data.words.forEach((w, i) => (out[this.data.wordTerm[i]] ??= []).push(w));
    return (this.surface = out);
  }

  get size(): number {
    return this.data.docs.length;
  }

  search(query: string, options: SearchOptions): SearchResponse {
    // Callers from plain JS (query strings) may pass anything: no options means no reader, so nothing is readable.
    const opts: SearchOptions = options ?? { canRead: () => false };
    const q = parseQuery(typeof query === "string" ? query : "");
    if (!q.words.length) return { total: 0, results: [] };
    const allowed = this.allowed(opts);
    // A reader who may open every document (a public portal, no locale filter) counts a term's documents without
    // walking its postings: completions and corrections ask for many terms' counts.
    const everyDoc = allowed.indexOf(0) < 0;
    const dfs = new Map<number, number>();
    const df = (t: number) => {
      let n = dfs.get(t);
      if (n === undefined) dfs.set(t, (n = everyDoc ? this.data.postings(t).length / 2 : this.readableDf(t, allowed)));
      return n;
    };
    const groups = this.expander.groups(q, df);
    const ranked = rank(this.data, groups, allowed, df);
    // Semantic matches join only as documents of this index that passed the reader's filters.
    const semantic = this.semanticDocs(opts.semantic, allowed);
    // Fusion reads lexical ranks, so it needs every match in order; otherwise only the shown ones are ordered.
    const all = semantic.length ? fuse(ranked.hits.sort(byScore), semantic) : ranked.hits;
    // Facets count every readable match by kind; the kind filter then narrows results and total.
    const kinds = opts.kind ? new Set(String(opts.kind).split(",").map((k) => k.trim())) : undefined;
    const facets: Record<string, number> = {};
    const docs = this.data.docs;
    for (const h of all) facets[docs.kind(h.doc)] = (facets[docs.kind(h.doc)] ?? 0) + 1;
    const hits = kinds ? all.filter((h) => kinds.has(docs.kind(h.doc))) : all;
    const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(opts.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT));
    const stems = new Set([...ranked.termsHit].map((t) => this.data.terms[t]));
    const words = snippetWords([...ranked.termsHit].flatMap((t) => (this.data.surface ? this.data.surface(t) : (this.surfaceWords()[t] ?? []))));
    const shown = semantic.length ? hits.slice(0, limit) : topHits(hits as Scored[], limit);
    const results = shown.map((h) => {
      // Read once per result: the light reader parses the document from its bytes on each get.
      const doc = docs.get(h.doc);
      return { doc, score: Math.round(h.score * 1000) / 1000, snippet: makeSnippet(doc.body, stems, words) };
    });
    const response: SearchResponse = { total: hits.length, results };
    if (all.length) response.facets = { kind: facets };
    const suggestions = this.suggest(q, groups, allowed);
    if (suggestions.length) response.suggestions = suggestions;
    return response;
  }

  semanticDocuments(ids: readonly string[], options: SearchOptions): SearchDocument[] {
    const opts: SearchOptions = options ?? { canRead: () => false };
    const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(opts.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT));
    return this.semanticDocs(ids, this.allowed(opts)).slice(0, limit).map((d) => this.data.docs.get(d));
  }

  semanticScope(options: SearchOptions): SemanticScope | undefined {
    const vectors = this.data.vectors;
    if (!vectors) return undefined;
    const opts: SearchOptions = options ?? { canRead: () => false };
    const allowed = this.allowed(opts);
    const access = new Set<string>();
    const locales = new Set<string>();
    const docs = this.data.docs;
    // Access keys per access group, computed once per loaded index (labels never change within it).
    const keys = (this.accessKeys ??= docs.groups.map((g) => accessKey(g.labels)));
    for (let i = 0; i < docs.length; i++) {
      if (!allowed[i] || !vectors[i]) continue;
      access.add(keys[docs.group(i)]);
      locales.add(docs.locale(i));
    }
    if (!access.size) return undefined;
    return { access: [...access].sort(), ...(opts.locale ? { locales: [...locales].sort() } : {}) };
  }

  vectorIds(): string[] {
    return [...new Set((this.data.vectors ?? []).filter(Boolean))];
  }

  missingVectors(): number {
    const vectors = this.data.vectors;
    return vectors ? vectors.filter((v) => !v).length : this.data.docs.length;
  }

  private byVector: Map<string, number[]> | undefined;
  private accessKeys: string[] | undefined;

  /** Documents of the given vector ids (best first, each once) that passed the reader's filters. */
  private semanticDocs(ids: readonly string[] | undefined, allowed: Uint8Array): number[] {
    const vectors = this.data.vectors;
    if (!Array.isArray(ids) || !ids.length || !vectors) return [];
    if (!this.byVector) {
      this.byVector = new Map();
      vectors.forEach((v, i) => {
        if (!v) return;
        const list = this.byVector!.get(v);
        if (list) list.push(i);
        else this.byVector!.set(v, [i]);
      });
    }
    const out: number[] = [];
    const seen = new Set<number>();
    for (const id of ids) {
      for (const doc of this.byVector.get(String(id)) ?? []) {
        if (!allowed[doc] || seen.has(doc)) continue;
        seen.add(doc);
        out.push(doc);
      }
    }
    return out;
  }

  /** The term groups a query expands to (words, alternatives, weights): for tuning and debugging only. */
  explain(query: string): Array<{ word: string; alts: string[] }> {
    const groups = this.expander.groups(parseQuery(query), (t) => this.data.postings(t).length / 2);
    return groups.map((g) => ({ word: g.word, alts: g.alts.map((a) => `${this.data.terms[a.term]}:${a.how}:${a.weight}`) }));
  }

  /**
   * 1 for each document passing canRead and locale (2 when it is also in the preferred locale); canRead is
   * asked once per distinct label set and policy path. The kind filter applies after ranking, so facets can count every kind.
   */
  private allowed(opts: SearchOptions): Uint8Array {
    const locale = opts.locale ? String(opts.locale).toLowerCase() : undefined;
    const prefer = opts.preferLocale ? String(opts.preferLocale).toLowerCase() : undefined;
    const docs = this.data.docs;
    // canRead's verdict per access group, asked once each: with the locales, all the array depends on. So the array is
    // kept per index for the last few such keys, and a portal's readers stop walking every document per query (15,000
    // in a portal with Graph and GitHub). Callers only read it.
    let key = `${locale ?? ""}|${prefer ?? ""}|`;
    for (const g of docs.groups) key += safeCanRead(opts, g.labels, g.policyPath) ? "1" : "0";
    const hit = this.allowedByKey.get(key);
    if (hit) {
      this.allowedByKey.delete(key);
      this.allowedByKey.set(key, hit);
      return hit;
    }
    const verdicts = key.slice(key.lastIndexOf("|") + 1);
    const out = new Uint8Array(docs.length);
    for (let i = 0; i < docs.length; i++) {
      const docLocale = docs.locale(i);
      if (locale && !localeMatches(docLocale, locale)) continue;
      if (verdicts.charCodeAt(docs.group(i)) === 49) out[i] = prefer && localeMatches(docLocale, prefer) ? 2 : 1;
    }
    if (this.allowedByKey.size >= ALLOWED_KEPT) this.allowedByKey.delete(this.allowedByKey.keys().next().value as string);
    this.allowedByKey.set(key, out);
    return out;
  }

  /** {@link allowed}'s arrays by locales and verdicts, least recently used first (at most ALLOWED_KEPT). */
  private readonly allowedByKey = new Map<string, Uint8Array>();

  /**
   * "Did you mean": the query with each typo'd word replaced by its best correction that occurs in an allowed
   * document. Only words from readable documents can appear, so a private word never leaks. A whole identifier is
   * never offered for one word (its index form, `parcel_label_voided_event`, is not what anyone types): a typed
   * identifier some part of which only the identifier's correction explains is offered whole, in the typed style.
   */
  private suggest(q: ParsedQuery, groups: TermGroup[], allowed: Uint8Array): string[] {
    let changed = false;
    // A stopword read as part of an identifier is not a word to correct, and stands after the words: left out.
    const words = groups.map((g) => {
      if (g.stopword) return "";
      if (g.alts.some((a) => a.how === "exact")) return g.word;
      const typo = g.alts.filter((a) => a.how === "typo" && !a.whole && this.readableDf(a.term, allowed) > 0).sort((a, b) => b.weight - a.weight)[0];
      if (!typo || stem(typo.word) === stem(g.word)) return g.word;
      changed = true;
      return typo.word;
    });
    for (const id of q.idents) {
      // Only when a part is left uncorrected: otherwise the corrected words already say it.
      if (!id.parts.some((i) => words[i] === groups[i]?.word && !groups[i].alts.some((a) => a.how === "exact"))) continue;
      const fix = id.parts.flatMap((i) => groups[i]?.alts ?? []).filter((a) => a.how === "typo" && a.whole === "typed" && this.readableDf(a.term, allowed) > 0).sort((a, b) => b.weight - a.weight)[0];
      if (!fix) continue;
      id.parts.forEach((i, k) => (words[i] = k === 0 ? asTyped(fix.word, id.typed) : ""));
      changed = true;
    }
    return changed ? [words.filter(Boolean).join(" ")] : [];
  }

  /** How many documents the reader may open contain `term`. */
  private readableDf(term: number, allowed: Uint8Array): number {
    const list = this.data.postings(term);
    let doc = 0;
    let n = 0;
    for (let i = 0; i < list.length; i += 2) {
      doc += list[i];
      if (allowed[doc]) n++;
    }
    return n;
  }
}

/** A whole identifier (`parcel_label_voided_event`) spelt the way the reader typed theirs: snake, dotted, kebab or camel case. */
function asTyped(whole: string, typed: string): string {
  const parts = whole.split("_");
  if (typed.includes("_")) return whole;
  if (typed.includes(".")) return parts.join(".");
  if (typed.includes("-")) return parts.join("-");
  const upper = (p: string) => p.charAt(0).toUpperCase() + p.slice(1);
  return parts.map((p, i) => (i === 0 && typed.charAt(0) === typed.charAt(0).toLowerCase() ? p : upper(p))).join("");
}

function localeMatches(docLocale: string, wanted: string): boolean {
  const l = docLocale.toLowerCase();
  return l === wanted || l.startsWith(wanted + "-");
}

// A throwing canRead must not open documents: it denies.
function safeCanRead(opts: SearchOptions, labels: string[], policyPath: string | undefined): boolean {
  try {
    return opts.canRead(labels, policyPath) === true;
  } catch {
    return false;
  }
}
