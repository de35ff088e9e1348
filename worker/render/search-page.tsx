/**
 * @module The search results page (`/p/{portal}/search?q=`): a full server-rendered document, usable without
 * script: the top bar's search box is a GET form that lands here, each result a link with its kind, API, section
 * and snippet. Snippets are the engine's escaped HTML with `<mark>` (anything else tag-like is escaped again).
 */
import { renderToString } from "preact-render-to-string";
import { safeSnippet } from "../../client/islands/search-box";
import type { SearchResult } from "./search-result";
import { minimalChrome } from "./shell/chrome";
import { shellDocument } from "./shell/document";
import { AskForm } from "./assistant-page";
import { ReaderShell } from "./shell/reader-shell";
import type { ShellChrome } from "./shell/types";

/** Props of {@link renderSearchPage}. */
export interface SearchPageProps {
  basePath: string;
  portalName: string;
  query: string;
  kind?: string;
  total: number;
  results: SearchResult[];
  suggestions: string[];
  /** Readable matches per kind (the kind links show them). */
  facets?: Partial<Record<string, number>>;
  /** A refused query's message (the page answers 400). */
  error?: string;
  chrome?: ShellChrome;
}

const KIND_LABEL: Record<string, string> = { operation: "Endpoint", guide: "Guide", step: "Steps", changelog: "Changelog", glossary: "Glossary" };
const KINDS = ["operation", "guide", "step", "changelog", "glossary"];

/** A full HTML document of search results. */
export function renderSearchPage(p: SearchPageProps): string {
  const href = (kind?: string) => `${p.basePath}/search?q=${encodeURIComponent(p.query)}${kind ? `&kind=${kind}` : ""}`;
  const chrome = p.chrome ?? { ...minimalChrome(p.portalName, p.basePath), search: true };
  const body = renderToString(
    <ReaderShell chrome={chrome} mainClass="search-page" query={p.query} crumbs={[{ title: "Home", href: `${p.basePath}/` }, { title: "Search" }]}>
      <h1>Search</h1>
      <form class="sp-form" role="search" aria-label="Search results" action={`${p.basePath}/search`} method="get">
        <input type="search" name="q" value={p.query} aria-label="Search the documentation" />
        {p.kind && <input type="hidden" name="kind" value={p.kind} />}
        <button type="submit">Search</button>
      </form>
      {p.error && <p class="sp-error" role="alert">{p.error}</p>}
      <AskForm basePath={p.basePath} question={p.query} />
      {p.query.trim() && !p.error && (
        <>
          <nav class="sp-kinds" aria-label="Kind">
            <a href={href()} aria-current={!p.kind ? "page" : undefined}>All</a>
            {KINDS.map((k) => <a href={href(k)} aria-current={p.kind === k ? "page" : undefined}>{KIND_LABEL[k]}{p.facets?.[k] !== undefined ? ` (${p.facets[k]})` : ""}</a>)}
          </nav>
          <p class="sp-count">{p.total === 0 ? `No results for “${p.query}”.` : `${p.total} result${p.total === 1 ? "" : "s"} for “${p.query}”${p.total > p.results.length ? ` (the best ${p.results.length} shown)` : ""}.`}</p>
          {p.suggestions.length > 0 && (
            <p class="sp-suggest">Did you mean {p.suggestions.map((s, i) => <>{i > 0 && ", "}<a href={`${p.basePath}/search?q=${encodeURIComponent(s)}`}>{s}</a></>)}?</p>
          )}
          <ol class="sp-results">
            {p.results.map((r) => (
              <li>
                <p class="sr-head">
                  <span class={`sr-badge sr-${r.kind}`}>{KIND_LABEL[r.kind] ?? r.kind}</span>
                  {r.api && <span class="sr-badge sr-api">{r.api}</span>}
                  {r.method && <span class="sr-method">{r.method}</span>}
                  <a class="sr-title" href={r.url}>{r.title}</a>
                </p>
                {(r.section || r.path) && <p class="sr-section">{r.section ?? ""}{r.section && r.path ? " · " : ""}{r.path ?? ""}</p>}
                {r.snippet && <p class="sr-snippet" dangerouslySetInnerHTML={{ __html: safeSnippet(r.snippet) }} />}
              </li>
            ))}
          </ol>
        </>
      )}
    </ReaderShell>,
  );
  return shellDocument(chrome, { title: p.query ? `“${p.query}” · Search · ${chrome.name}` : `Search · ${chrome.name}`, noindex: true }, body);
}
