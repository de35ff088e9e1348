/**
 * @module loadSearchIndex: serialised index → {@link SearchIndex}. Loading is one JSON.parse (no per-term work;
 * the typo map is built on the first query that needs it). Searching applies the reader's filters first, then
 * ranks, counts, cuts snippets and builds suggestions from the allowed documents only.
 */
import { stem } from "./analyze";
import { Expander, type TermGroup } from "./expand";
import { INDEX_FORMAT, type IndexData } from "./format";
import { parseQuery } from "./query";
import { fuse } from "./fuse";
import { rank } from "./rank";
import { accessKey, type SemanticScope } from "./semantic";
import { makeSnippet, snippetWords } from "./snippet";
import type { SearchDocument, SearchIndex, SearchOptions, SearchResponse } from "./types";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

/** Thrown by {@link loadSearchIndex} when the data is not an index this code can read. */
export class SearchIndexFormatError extends Error {}

/** Parses an index written by buildSearchIndex. Throws SearchIndexFormatError on another format or garbage. */
export function loadSearchIndex(data: string | Uint8Array): SearchIndex {
  let parsed: IndexData;
  try {
    parsed = JSON.parse(typeof data === "string" ? data : new TextDecoder().decode(data)) as IndexData;
  } catch (e) {
    throw new SearchIndexFormatError("search index is not valid JSON", { cause: e });
  }
  if (!parsed || parsed.format !== INDEX_FORMAT) throw new SearchIndexFormatError(`search index format is not ${INDEX_FORMAT}`);
  return new LoadedIndex(parsed);
}

class LoadedIndex implements SearchIndex {
  private readonly expander: Expander;

  constructor(private readonly data: IndexData) {
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
    const dfs = new Map<number, number>();
    const df = (t: number) => {
      let n = dfs.get(t);
      if (n === undefined) dfs.set(t, (n = this.readableDf(t, allowed)));
      return n;
    };
    const groups = this.expander.groups(q, df);
    const ranked = rank(this.data, groups, allowed, df);
    // Semantic matches join only as documents of this index that passed the reader's filters.
    const semantic = this.semanticDocs(opts.semantic, allowed);
    const all = semantic.length ? fuse(ranked.hits, semantic) : ranked.hits;
    // Facets count every readable match by kind; the kind filter then narrows results and total.
    const kinds = opts.kind ? new Set(String(opts.kind).split(",").map((k) => k.trim())) : undefined;
    const facets: Record<string, number> = {};
    for (const h of all) facets[this.data.docs[h.doc].kind] = (facets[this.data.docs[h.doc].kind] ?? 0) + 1;
    const hits = kinds ? all.filter((h) => kinds.has(this.data.docs[h.doc].kind)) : all;
    const limit = Math.min(MAX_LIMIT, Math.max(1, Math.floor(opts.limit ?? DEFAULT_LIMIT) || DEFAULT_LIMIT));
    const stems = new Set([...ranked.termsHit].map((t) => this.data.terms[t]));
    const words = snippetWords([...ranked.termsHit].flatMap((t) => this.surfaceWords()[t] ?? []));
    const results = hits.slice(0, limit).map((h) => ({
      doc: this.data.docs[h.doc],
      score: Math.round(h.score * 1000) / 1000,
      snippet: makeSnippet(this.data.docs[h.doc].body, stems, words),
    }));
    const response: SearchResponse = { total: hits.length, results };
    if (all.length) response.facets = { kind: facets };
    const suggestions = this.suggest(groups, allowed);
    if (suggestions.length) response.suggestions = suggestions;
    return response;
  }

  semanticScope(options: SearchOptions): SemanticScope | undefined {
    const vectors = this.data.vectors;
    if (!vectors) return undefined;
    const opts: SearchOptions = options ?? { canRead: () => false };
    const allowed = this.allowed(opts);
    const access = new Set<string>();
    const locales = new Set<string>();
    // Access keys per document, computed once per loaded index (labels never change within it).
    const keys = (this.accessKeys ??= this.data.docs.map((d) => accessKey(d.labels)));
    this.data.docs.forEach((d, i) => {
      if (!allowed[i] || !vectors[i]) return;
      access.add(keys[i]);
      locales.add(d.locale);
    });
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
    const groups = this.expander.groups(parseQuery(query), (t) => this.data.postings[t].length / 2);
    return groups.map((g) => ({ word: g.word, alts: g.alts.map((a) => `${this.data.terms[a.term]}:${a.how}:${a.weight}`) }));
  }

  /**
   * 1 for each document passing canRead and locale (2 when it is also in the preferred locale); canRead is
   * asked once per distinct label set and policy path. The kind filter applies after ranking, so facets can count every kind.
   */
  private allowed(opts: SearchOptions): Uint8Array {
    const locale = opts.locale ? String(opts.locale).toLowerCase() : undefined;
    const prefer = opts.preferLocale ? String(opts.preferLocale).toLowerCase() : undefined;
    const verdicts = new Map<string, boolean>();
    const out = new Uint8Array(this.data.docs.length);
    this.data.docs.forEach((d: SearchDocument, i) => {
      if (locale && !localeMatches(d.locale, locale)) return;
      const labels = d.labels ?? [];
      const key = `${labels.join("\u0000")}\u0001${d.policyPath ?? ""}`;
      let ok = verdicts.get(key);
      if (ok === undefined) {
        ok = safeCanRead(opts, labels, d.policyPath);
        verdicts.set(key, ok);
      }
      if (ok) out[i] = prefer && localeMatches(d.locale, prefer) ? 2 : 1;
    });
    return out;
  }

  /**
   * "Did you mean": the query with each typo'd word replaced by its best correction that occurs in an allowed
   * document. Only words from readable documents can appear, so a private word never leaks.
   */
  private suggest(groups: TermGroup[], allowed: Uint8Array): string[] {
    let changed = false;
    const words = groups.map((g) => {
      if (g.alts.some((a) => a.how === "exact")) return g.word;
      const typo = g.alts.filter((a) => a.how === "typo" && this.readableDf(a.term, allowed) > 0).sort((a, b) => b.weight - a.weight)[0];
      if (!typo || stem(typo.word) === stem(g.word)) return g.word;
      changed = true;
      return typo.word;
    });
    return changed ? [words.join(" ")] : [];
  }

  /** How many documents the reader may open contain `term`. */
  private readableDf(term: number, allowed: Uint8Array): number {
    const list = this.data.postings[term];
    let doc = 0;
    let n = 0;
    for (let i = 0; i < list.length; i += 2) {
      doc += list[i];
      if (allowed[doc]) n++;
    }
    return n;
  }
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
