/**
 * @module `/p/{portal}/sitemap.xml`: every live reference's index and, in the page-per-operation layout, every
 * operation page of its live version, plus the guides, code steps and changelog, all as far as the reader of the
 * request may read them (anonymous crawlers: the public ones) (sitemaps.org protocol 0.9; at most 50,000 URLs per file).
 */
import { portalBasePath } from "../render/shell/base-path";
import { Hono } from "hono";
import { apiLabels } from "../access/labels";
import { canRead } from "../access/reader";
import { readerState } from "../access/resolve";
import type { AppEnv } from "../env";
import { publicOrigin } from "../http/public-origin";
import { findVersionById, listApis } from "../store/apis";
import { getDb } from "../store/db";
import { catalogFor } from "../store/portal-catalog";
import { loadPortal } from "../store/reader";
import { contentSitemapUrls } from "./content-links";

/** sitemaps.org's per-file cap. */
const MAX_URLS = 50_000;

function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export const sitemapRoutes = new Hono<AppEnv>().get("/p/:portal/sitemap.xml", async (c) => {
  const db = getDb(c.env.DB);
  const portal = await loadPortal(db, c.req.param("portal"));
  const origin = publicOrigin(c.env, portal);
  const urls: { loc: string; lastmod?: string }[] = [{ loc: `${origin}${portalBasePath(portal)}/` }, ...(await contentSitemapUrls(c, portal.slug, origin))];
  const state = await readerState(c, portal);
  const reader = state.reader("en");
  const listed: { api: string; base: string; lastmod: string; perOperation: boolean; versionId: number }[] = [];
  for (const api of await listApis(db, portal.id)) {
    if (!api.liveVersionId || !canRead(reader, apiLabels(state.access.policy, api.slug, state.access.navigation))) continue;
    const live = await findVersionById(db, api.liveVersionId);
    if (!live) continue;
    const base = `${origin}${portalBasePath(portal)}/reference/${api.slug}/${encodeURIComponent(live.label)}/`;
    listed.push({ api: api.slug, base, lastmod: live.createdAt.slice(0, 10), perOperation: api.layout === "page-per-operation", versionId: live.id });
  }
  // Every listed API's operations in one call to the portal's catalog (sorted by API slug, as `listed` is).
  const perOperation = listed.filter((l) => l.perOperation);
  const ops = perOperation.length ? await catalogFor(c.env, portal.id).stub.liveOperations(portal.id, perOperation.map((l) => [l.api, l.versionId])) : [];
  const slugsOf = new Map<string, string[]>();
  for (const op of ops) (slugsOf.get(op.api) ?? slugsOf.set(op.api, []).get(op.api)!).push(op.slug);
  for (const l of listed) {
    urls.push({ loc: l.base, lastmod: l.lastmod });
    for (const slug of slugsOf.get(l.api) ?? []) {
      if (urls.length >= MAX_URLS) break;
      urls.push({ loc: l.base + encodeURIComponent(slug), lastmod: l.lastmod });
    }
  }
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    urls.map((u) => `  <url><loc>${xmlEscape(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`).join("\n") +
    `\n</urlset>\n`;
  return c.body(body, 200, { "content-type": "application/xml; charset=utf-8" });
});
