/**
 * @module One search result as readers get it: what the results page renders (search-page.tsx) and `search.json`
 * sends (routes/search.ts builds it). In the rendering layer, which routes import, so the page never imports a
 * route (docs/architecture.md, "Layers").
 */
import type { SearchKind } from "../search/types";

/** One result of `search.json`. URLs are site-relative (`/p/{portal}/…`). */
export interface SearchResult {
  kind: SearchKind;
  title: string;
  url: string;
  section: string | null;
  /** HTML: escaped text with `<mark>` around matched words; variables filled for the reader. */
  snippet: string;
  api: string | null;
  version: string | null;
  operationId: string | null;
  method: string | null;
  path: string | null;
  locale: string;
  score: number;
  /** Cross-portal search only: the portal the result belongs to. */
  portal?: string;
}
