/**
 * @module A Git branch preview's own search (docs/git.md, "Previews"): `GET /p/{portal}/preview/{slug}/search.json`
 * (the search box's) and `/search` (the page readable without script), over the index the preview's build stored
 * (worker/git/preview-search.ts), never the live one. Gated like the portal (the same sign-in and `canRead` filter
 * before ranking), answered private and, as every preview path, noindex (routes/content-pages.ts).
 */
import { Hono, type Context } from "hono";
import { documentReadable } from "../access/labels";
import { readerState, requireSignInFor, SignInRequired } from "../access/resolve";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { isBranchSlug, branchPreviewTokenHash } from "../git/config";
import { readablePreview } from "../git/preview-versions";
import type { PreviewSearchPointer } from "../git/preview-search";
import { renderErrorPage } from "../render";
import { renderSearchPage } from "../render/search-page";
import { portalBasePath } from "../render/shell/base-path";
import { getDb } from "../store/db";
import { loadContentSite, loadPreviewSite } from "../store/content-site";
import { loadIndex, searchLoaded } from "../store/search";
import { buildChrome, errorChrome } from "./shell-chrome";
import { MAX_LIMIT, resultOf, searchPageParams, searchParams, type SearchParams } from "./search";

/** Runs a query on the preview named by the request: its results under the preview's base path. */
async function searchPreview(c: Context<AppEnv>, p: SearchParams) {
  const data = await loadContentSite(c.env, c.req.param("portal") ?? "");
  const segment = c.req.param("token") ?? "";
  const preview = data && isBranchSlug(segment) ? await readablePreview(getDb(c.env.DB), data.portal.id, segment) : undefined;
  if (!data || !preview) throw new ApiError(404, "not-found", "this preview is unknown or has expired");
  const state = await readerState(c, data.portal);
  requireSignInFor(c, state, data.portal, "/search");
  const reader = state.reader(p.locale ?? "en");
  const base = `${portalBasePath(data.portal)}/preview/${preview.slug}`;
  const pointer = preview.searchIndex ? (JSON.parse(preview.searchIndex) as PreviewSearchPointer) : undefined;
  // Sharded as the live portal's (git/preview-search.ts; previews built before shards: one index).
  const index = pointer && p.q.trim() ? await loadIndex(c.env.MODELS, pointer.stats && pointer.shards ? { indexKey: pointer.indexKey, parts: pointer.parts, stats: pointer.stats, shards: pointer.shards } : { indexKey: pointer.indexKey, parts: pointer.parts }) : undefined;
  const found = index ? await searchLoaded(c.env.MODELS, index, () => index.search(p.q, { limit: p.limit, kind: p.kind, locale: p.locale, preferLocale: p.prefer, canRead: (labels, policyPath) => documentReadable(reader, state.access, labels, policyPath) })) : undefined;
  c.header("cache-control", "private, no-store");
  return {
    data, state, reader, base, preview,
    total: found?.total ?? 0,
    results: (found?.results ?? []).map((h) => resultOf(h, base, reader, pointer?.variables ?? {})),
    suggestions: found?.suggestions ?? [],
    facets: found?.facets?.kind ?? {},
  };
}

export const previewSearchRoutes = new Hono<AppEnv>()
  .get("/p/:portal/preview/:token/search.json", async (c) => {
    const p = searchParams(c);
    const found = await searchPreview(c, p);
    return c.json({ query: p.q, total: found.total, results: found.results, ...(found.suggestions.length ? { suggestions: found.suggestions } : {}), ...(Object.keys(found.facets).length ? { facets: { kind: found.facets } } : {}) });
  })
  .get("/p/:portal/preview/:token/search", async (c) => {
    const { p, error } = searchPageParams(c);
    const found = await searchPreview(c, { ...p, limit: MAX_LIMIT });
    const site = (await loadPreviewSite(c.env, found.data.portal.slug, await branchPreviewTokenHash(found.data.portal.slug, found.preview.slug), new Date().toISOString())) ?? found.data;
    const chrome = buildChrome({ data: site, state: found.state, reader: found.reader, basePath: found.base, branchPreview: true });
    return c.html(renderSearchPage({ chrome, basePath: found.base, portalName: found.data.portal.name, query: p.q, kind: p.kind, total: found.total, results: found.results, suggestions: found.suggestions, facets: found.facets, error }), error ? 400 : 200);
  })
  .onError(async (error, c) => {
    if (error instanceof SignInRequired) return c.redirect(error.location, 303);
    if (error instanceof ApiError) {
      if (c.req.path.endsWith(".json")) return c.json(error.toBody(), error.status);
      return c.html(renderErrorPage({ status: error.status, title: error.status === 404 ? "Not found" : "Error", message: error.message, chrome: await errorChrome(c) }), error.status as 404);
    }
    throw error;
  });
