/**
 * @module Reader search: `GET /p/{portal}/search.json?q=&limit=&kind=&locale=` (what the search box and the
 * quick switcher call), `GET /p/{portal}/search?q=` (the results page, readable without script) and, for an
 * Enterprise organisation, `GET /o/{org}/search.json` over every member portal. One D1 read (portal + live
 * index pointer), the index from KV (loaded once per isolate), and the engine's search with `canRead` for the
 * request's reader, applied before ranking and counting. Bad parameters answer 400; the engine never throws.
 */
import { requireFeature } from "../workspace/plans";
import { publicOrigin } from "../http/public-origin";
import { Hono, type Context } from "hono";
import { documentReadable } from "../access/labels";
import { anonymousReader, type ReaderContext } from "../access/reader";
import { readerState, requireSignInFor } from "../access/resolve";
import { loadAccess, type PortalAccess } from "../store/readers";
import { fillPlaceholders } from "../lib/placeholders";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import type { SearchResult } from "../render/search-result";
import { renderSearchPage } from "../render/search-page";
import { portalBasePath } from "../render/shell/base-path";
import { loadChrome } from "./shell-chrome";
import type { SearchHit, SearchIndex, SearchKind, SearchOptions } from "../search/types";
import { loadIndex, pointerFromRow, searchLoaded, type SearchPointer } from "../store/search";
import { semanticFor } from "../semantic/index";
import { withinMs } from "../lib/time-limit";
import { queryIdFor, recordServerSearch } from "../analytics/record";

/** Longest query answered (characters); longer ones answer 400 (a reader types words, not documents). */
export const MAX_QUERY_CHARS = 500;
/** Results per answer: default and most. */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;
/**
 * The semantic side's time budget per query (embedding + Vectorize query, in milliseconds): past it the answer is
 * lexical only. Queries shorter than SEMANTIC_MIN_CHARS (a word being typed) skip it; SEMANTIC_TOP_K vectors are
 * asked for (Vectorize answers at most 100 without metadata).
 */
export const SEMANTIC_BUDGET_MS = 150;
export const SEMANTIC_MIN_CHARS = 3;
export const SEMANTIC_TOP_K = 50;
const KINDS: readonly SearchKind[] = ["operation", "guide", "step", "changelog", "glossary"];
const LOCALE = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8}){0,3}$/;

/** The parsed query parameters of a search request (400 on anything malformed). */
export interface SearchParams {
  q: string;
  limit: number;
  kind?: string;
  locale?: string;
  /** `prefer=`: the reader's locale when every locale is searched together (its pages rank first among equals). */
  prefer?: string;
}

/** Reads and checks `q`, `limit`, `kind` and `locale`; throws ApiError 400 naming the parameter. */
export function searchParams(c: Context<AppEnv>): SearchParams {
  const q = (c.req.query("q") ?? "").normalize("NFC");
  if (q.length > MAX_QUERY_CHARS) throw new ApiError(400, "query-too-long", `q is ${q.length} characters; a search takes at most ${MAX_QUERY_CHARS}`);
  const rawLimit = c.req.query("limit");
  const limit = rawLimit === undefined || rawLimit === "" ? DEFAULT_LIMIT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new ApiError(400, "invalid-limit", `limit must be a whole number from 1 to ${MAX_LIMIT}`);
  const kind = c.req.query("kind") || undefined;
  if (kind !== undefined && !kind.split(",").every((k) => KINDS.includes(k as SearchKind))) {
    throw new ApiError(400, "invalid-kind", `kind must be one or more of ${KINDS.join(", ")} (comma-separated)`);
  }
  const locale = c.req.query("locale") || undefined;
  if (locale !== undefined && !LOCALE.test(locale)) throw new ApiError(400, "invalid-locale", "locale must be a BCP 47 language tag such as en or pt-BR");
  const prefer = c.req.query("prefer") || undefined;
  if (prefer !== undefined && !LOCALE.test(prefer)) throw new ApiError(400, "invalid-prefer", "prefer must be a BCP 47 language tag such as en or pt-BR");
  return { q, limit, kind, locale, prefer };
}

/**
 * {@link searchParams} for the search page, which shows a bad parameter as a message beside an empty search (400)
 * rather than as JSON: the parameters, or empty ones with the refusal's message.
 */
export function searchPageParams(c: Context<AppEnv>): { p: SearchParams; error?: string } {
  try {
    return { p: searchParams(c) };
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { p: { q: "", limit: DEFAULT_LIMIT }, error: e.message };
  }
}

/**
 * Fills `{{name}}` placeholders for the reader (their value, else the release's default, else as written), in
 * snippet HTML (values escaped; a `<mark>` inside the name is dropped) or in plain text.
 */
export function fillVariables(text: string, reader: ReaderContext, defaults: Record<string, string>, html: boolean): string {
  return fillPlaceholders(text, [reader.variables, defaults], { html, marks: true });
}

/** A hit as `search.json` answers it, its URL under `basePath`. */
export function resultOf(hit: SearchHit, basePath: string, reader: ReaderContext, defaults: Record<string, string>): SearchResult {
  const d = hit.doc;
  return {
    kind: d.kind,
    title: fillVariables(d.title, reader, defaults, false),
    url: basePath + d.url,
    section: d.section ? fillVariables(d.section, reader, defaults, false) : null,
    snippet: fillVariables(hit.snippet, reader, defaults, true),
    api: d.api ?? null,
    version: d.version ?? null,
    operationId: d.fields?.operationId ?? null,
    method: d.fields?.method ?? null,
    path: d.fields?.path ?? null,
    locale: d.locale,
    score: Math.round(hit.score * 1000) / 1000,
  };
}

/** A portal row as search reads it (with its live index pointer). */
export interface PortalSearchRow {
  id: number;
  slug: string;
  name: string;
  /** The active custom hostname (render/shell/base-path.ts). */
  hostname: string | null;
  indexKey: string | null;
  parts: number | null;
  documents: number | null;
  variables: string | null;
  builtAt: string | null;
  stats: string | null;
  generation: number | null;
}

// Not the shards' pointers (one per API: a portal of 200 APIs made every query read and parse them): the row's
// generation, which names the merge an isolate already holds; loadIndex reads the shards only when it does not.
const PORTAL_SQL = `SELECT p.id, p.slug, p.name, p.hostname, s.index_key AS indexKey, s.parts, s.documents, s.variables, s.built_at AS builtAt, s.stats, s.generation
  FROM portals p LEFT JOIN search_live s ON s.portal_id = p.id`;

function pointerOf(row: PortalSearchRow): SearchPointer | undefined {
  if (!row.indexKey) return undefined;
  return pointerFromRow({ ...row, indexKey: row.indexKey });
}

/** What {@link searchPortal} finds. */
export interface Found {
  total: number;
  results: SearchResult[];
  suggestions: string[];
  /** Readable matches per kind before the kind filter. */
  facets: Partial<Record<SearchKind, number>>;
}

/** Searches one portal's live index for `reader` (filter before ranking and counting); empty without an index. */
export async function searchPortal(c: Context<AppEnv>, row: PortalSearchRow, p: SearchParams, reader: ReaderContext, access: PortalAccess, timings?: Record<string, number>): Promise<Found> {
  const pointer = pointerOf(row);
  let t = performance.now();
  const index = pointer && p.q.trim() ? await loadIndex(c.env.MODELS, pointer, row.id, c.env.DB) : undefined;
  if (!pointer || !index) return { total: 0, results: [], suggestions: [], facets: {} };
  if (timings) timings.index = performance.now() - t;
  const opts: SearchOptions = { limit: p.limit, kind: p.kind, locale: p.locale, preferLocale: p.prefer, canRead: (labels, policyPath) => documentReadable(reader, access, labels, policyPath) };
  t = performance.now();
  const semantic = await semanticIds(c, row.id, index, p.q, opts);
  if (timings && semantic !== undefined) timings.semantic = performance.now() - t;
  t = performance.now();
  const found = await searchLoaded(c.env.MODELS, index, () => index.search(p.q, { ...opts, ...(semantic?.length ? { semantic } : {}) }));
  if (timings) timings.search = performance.now() - t;
  return { total: found.total, results: found.results.map((h) => resultOf(h, portalBasePath(row), reader, pointer.variables)), suggestions: found.suggestions ?? [], facets: found.facets?.kind ?? {} };
}

/**
 * Production only: the vector ids nearest the query among what the reader may open (the scope comes from the live
 * index with the reader's filters); undefined when there is no semantic side, the query is too short or nothing
 * readable has a vector; empty when it failed or took longer than SEMANTIC_BUDGET_MS (logged; the answer is then
 * lexical only).
 */
async function semanticIds(c: Context<AppEnv>, portalId: number, index: SearchIndex, q: string, opts: SearchOptions): Promise<string[] | undefined> {
  const semantic = semanticFor(c.env);
  if (!semantic || q.trim().length < SEMANTIC_MIN_CHARS) return undefined;
  const scope = index.semanticScope(opts);
  if (!scope) return undefined;
  try {
    return await withinMs(SEMANTIC_BUDGET_MS, semantic.query(portalId, q, scope, SEMANTIC_TOP_K));
  } catch (error) {
    console.error("search: semantic retrieval failed or was too slow; answering by words only", error instanceof Error ? error.message : error);
    return [];
  }
}

/** The portal and its live search pointer (one D1 read); 404 for an unknown slug. */
export async function loadSearchPortal(c: Context<AppEnv>, slug: string): Promise<PortalSearchRow> {
  const row = await c.env.DB.prepare(`${PORTAL_SQL} WHERE p.slug = ?`).bind(slug).first<PortalSearchRow>();
  if (!row) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  return row;
}

/** Answers depend on who reads (labels, variables): never shared by caches. */
function privateAnswer(c: Context<AppEnv>): void {
  c.header("cache-control", "private, no-cache");
  c.header("vary", "Cookie, Authorization");
}

export const searchRoutes = new Hono<AppEnv>()
  .get("/p/:portal/search.json", async (c) => {
    const p = searchParams(c);
    const t = performance.now();
    const row = await loadSearchPortal(c, c.req.param("portal") ?? "");
    const timings: Record<string, number> = { d1: performance.now() - t };
    const state = await readerState(c, row);
    const reader = state.reader(p.locale ?? "en");
    const found = await searchPortal(c, row, p, reader, state.access, timings);
    // Signed so that the search box's later `search` and `click` events count for this portal only (docs/analytics.md).
    const queryId = await queryIdFor(c.env, row.id, "search", reader, p.q, found.total);
    privateAnswer(c);
    // Where a query's time goes (workerd's clock advances only across I/O, so CPU-bound steps may read 0).
    c.header("server-timing", Object.entries(timings).map(([k, v]) => `${k};dur=${Math.round(v * 10) / 10}`).join(", "));
    return c.json({ query: p.q, ...(queryId ? { queryId } : {}), total: found.total, results: found.results, ...(found.suggestions.length ? { suggestions: found.suggestions } : {}), ...(Object.keys(found.facets).length ? { facets: { kind: found.facets } } : {}) });
  })
  .get("/p/:portal/search", async (c) => {
    const { p, error } = searchPageParams(c);
    const row = await loadSearchPortal(c, c.req.param("portal") ?? "");
    const state = await readerState(c, row);
    // A private portal's search page asks signed-out readers to sign in, like its other pages.
    requireSignInFor(c, state, row, "/search");
    const reader = state.reader(p.locale ?? "en");
    const found = await searchPortal(c, row, { ...p, limit: MAX_LIMIT }, reader, state.access);
    // The no-script page is a whole query submitted: counted here, as no script will report it.
    if (!error) recordServerSearch(c, row.id, "search", reader, p.q, found.total);
    privateAnswer(c);
    const chrome = (await loadChrome(c, row.slug))?.chrome;
    return c.html(renderSearchPage({ ...(chrome ? { chrome } : {}), basePath: portalBasePath(row), portalName: row.name, query: p.q, kind: p.kind, total: found.total, results: found.results, suggestions: found.suggestions, facets: found.facets, error }), error ? 400 : 200);
  })
  .get("/o/:org/search.json", async (c) => {
    const p = searchParams(c);
    const slug = c.req.param("org");
    const org = await c.env.DB.prepare("SELECT id, plan, trial_ends_at AS trialEndsAt FROM organisations WHERE slug = ?").bind(slug).first<{ id: number; plan: string; trialEndsAt: string | null }>();
    if (!org) throw new ApiError(404, "not-found", `no organisation "${slug}"`);
    requireFeature(org, "org-search");
    const { results: rows } = await c.env.DB.prepare(`${PORTAL_SQL} JOIN organisation_portals o ON o.portal_id = p.id WHERE o.organisation_id = ? ORDER BY p.slug`)
      .bind(org.id).all<PortalSearchRow>();
    // Sessions are cookies scoped to `/p/{portal}/` (or a portal's own hostname), so an organisation-wide query is always an anonymous reader's,
    // checked against each portal's own policy.
    const reader = anonymousReader(p.locale ?? "en");
    const each = await Promise.all(rows.map(async (row) => ({ row, ...(await searchPortal(c, row, p, reader, await loadAccess(c.env.DB, row.id))) })));
    // Scores are per index; BM25 scales agree closely enough to interleave, and each portal's order is kept.
    // A portal on its own hostname is another origin: its URLs are made absolute there.
    const results = each.flatMap((e) => e.results.map((r) => ({ ...r, ...(e.row.hostname ? { url: publicOrigin(c.env, { origin: null, hostname: e.row.hostname }) + r.url } : {}), portal: e.row.slug }))).sort((a, b) => b.score - a.score).slice(0, p.limit);
    privateAnswer(c);
    return c.json({ query: p.q, total: each.reduce((n, e) => n + e.total, 0), results, portals: rows.map((r) => r.slug) });
  });
