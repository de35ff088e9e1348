/**
 * @module The search port's types: what the integration hands the engine (SearchDocument), what a reader asks
 * (SearchOptions) and what comes back (SearchResponse). Platform-free; shared by build, load and tests.
 */

/** Kinds of searchable unit; the integration makes one document per operation, guide section, code step, etc. */
export type SearchKind = "operation" | "guide" | "step" | "changelog" | "glossary";

/** Identifier-like facets of a document; each is indexed as its own weighted field. */
export interface SearchFields {
  /** Operation path template, e.g. `/repos/{owner}/{repo}/contents/{path}`. */
  path?: string;
  /** HTTP method, upper or lower case. */
  method?: string;
  operationId?: string;
  tag?: string;
  /** Parameter names (path, query, header, cookie). */
  parameters?: string[];
  /** Request and response property names. */
  properties?: string[];
  /** Enum values found in the operation's schemas. */
  enums?: string[];
  /**
   * What the definition says about the operation's group: its first tag's description (plain text, bounded).
   * Indexed as a weak field of its own, never shown: it fills in words the operation itself leaves out.
   */
  context?: string;
}

/** One searchable unit. `id` must be unique within one index. */
export interface SearchDocument {
  id: string;
  kind: SearchKind;
  title: string;
  /** Guide section heading or breadcrumb, shown under the title. */
  section?: string;
  /** Plain text (no markup); snippets are cut from it. */
  body: string;
  fields?: SearchFields;
  url: string;
  /** BCP 47 tag, e.g. `en`, `fr-CA`. */
  locale: string;
  /** Access labels checked with `canRead`; `[]` = public. */
  labels: string[];
  /**
   * Set when the unit has no labels of its own, so the portal's access policy decides who reads it: the unit's
   * path after `/p/{portal}` without locale (`/guides/intro`, `/reference/pets/`, `/glossary`). Passed to `canRead`
   * with the labels; the policy is applied at query time, so a policy change needs no re-index.
   */
  policyPath?: string;
  api?: string;
  version?: string;
}

/** A reader's query options. The filters (`canRead`, `kind`, `locale`) apply before ranking and counting. */
export interface SearchOptions {
  /** Results to return, 1..100 (default 10); `total` counts every match regardless. */
  limit?: number;
  /** Only this kind (or a comma-separated list of kinds). */
  kind?: string;
  /** Only documents in this locale; `fr` also matches `fr-CA`. Without it every locale is searched together. */
  locale?: string;
  /**
   * The reader's locale when every locale is searched together: its documents rank ahead of equally good ones
   * in other locales (an untranslated page is still found in the language it exists in).
   */
  preferLocale?: string;
  /**
   * Whether the reader may open a document with these labels (and, when the document has one, its `policyPath`);
   * called once per distinct pair.
   */
  canRead: (labels: string[], policyPath?: string) => boolean;
  /**
   * Vector ids from the semantic side (worker/search/semantic.ts), best first. Only ids the index's vector table
   * lists map to documents, and only documents passing the filters above are fused with the lexical ranking
   * (reciprocal rank fusion) and counted. Absent or empty: lexical ranking alone.
   */
  semantic?: readonly string[];
}

/** One ranked result. `snippet` is HTML-escaped text with `<mark>` around the matched words. */
export interface SearchHit {
  doc: SearchDocument;
  /** Relevance score, higher is better; only comparable within one response. */
  score: number;
  snippet: string;
}

/** The answer to one query: `total` = readable, filtered documents that match. */
export interface SearchResponse {
  total: number;
  results: SearchHit[];
  /** Corrected queries ("did you mean"), built only from words of documents the reader may open. */
  suggestions?: string[];
  /** Readable matches per kind, before the `kind` filter (for the results page's kind tabs); absent when none. */
  facets?: { kind: Partial<Record<SearchKind, number>> };
}

/** A loaded, immutable index. `search` never throws: an empty or unusable query answers `{ total: 0, results: [] }`. */
export interface SearchIndex {
  search(query: string, opts: SearchOptions): SearchResponse;
  /**
   * What a semantic query may match for this reader (their readable access keys; the locales when `locale` is
   * set), computed with the same filters as `search`; undefined when the index has no vectors or the reader can
   * open none of the documents that have one.
   */
  semanticScope(opts: SearchOptions): SemanticScope | undefined;
  /**
   * The documents vector ids map to through the index's vector table, best first, only those passing the reader's
   * filters (`canRead`, policy path, locale), at most `limit`: a semantic ranking on its own (the assistant fuses it
   * with its own searches). Unknown ids and an index without vectors answer none.
   */
  semanticDocuments(ids: readonly string[], opts: SearchOptions): SearchDocument[];
  /** The distinct vector ids the index maps to documents (the publisher's diff against the next build). */
  vectorIds(): string[];
  /** Documents without a vector (all of them when the index was built without semantic retrieval). */
  missingVectors(): number;
  /** Number of documents in the index (all of them, before any filter); for diagnostics only. */
  readonly size: number;
}

/**
 * What a reader's query may match, computed from the live index with the reader's own filters: the access keys of
 * documents they may open (`$in`), and the locales when the request asked for one. A superset by design (one key
 * stands for every document with the same labels, whatever its policy path): the engine re-checks each document.
 */
export interface SemanticScope {
  access: string[];
  locales?: string[];
}
