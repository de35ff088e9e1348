/**
 * @module Portico's search engine (the embedded default behind the SearchIndex port): build an immutable index
 * from documents at publish time, load it in an isolate, answer reader-filtered queries.
 */
export { buildSearchIndex, SearchIndexBuilder, type BuildOptions } from "./build";
export { loadSearchIndex, SearchIndexFormatError } from "./load";
export type { SearchDocument, SearchFields, SearchHit, SearchIndex, SearchKind, SearchOptions, SearchResponse } from "./types";
// The ranking's tunable constants, for bench/search-documents.mjs --lovo only (one module instance with the engine).
export { RANK_TUNING } from "./rank";
export { EXPAND_TUNING } from "./expand";
