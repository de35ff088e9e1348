/**
 * @module The embeds' own routes (issue 31): `GET /p/{portal}/embed.js` (the widgets' classic script,
 * client/entries/embed.ts, served from the static assets so its URL names the portal) and
 * `GET /p/{portal}/embed/frame?widget=search|ask&key=pk_…` (iframe mode: one widget alone on the portal's origin, for
 * sites whose CSP forbids connecting elsewhere; only the key's origins may frame it, CSP `frame-ancestors`).
 */
import { Hono } from "hono";
import { isApiKeyToken } from "../access/bearer";
import { findKey } from "../docs-api/keys";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { DEFAULT_PAGE_POLICY, usePagePolicy } from "../http/security-headers";
import { escapeHtml } from "../lib/html-escape";
import { portalBasePath } from "../render/shell/base-path";
import { getDb } from "../store/db";

export const embedRoutes = new Hono<AppEnv>()
  .get("/p/:portal/embed.js", async (c) => {
    const exists = await c.env.DB.prepare("SELECT 1 AS one FROM portals WHERE slug = ?").bind(c.req.param("portal")).first();
    if (!exists) throw new ApiError(404, "not-found", "no such portal");
    const asset = await c.env.ASSETS.fetch(new Request(new URL("/assets/embed.js", c.req.url)));
    if (!asset.ok) throw new ApiError(503, "embed-not-built", "the embed script is not built: run npm run build:client");
    return new Response(asset.body, {
      headers: {
        "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=300",
        // Loaded by other sites (with or without `crossorigin`): readable by any of them, it holds no data.
        "access-control-allow-origin": "*", "cross-origin-resource-policy": "cross-origin",
      },
    });
  })
  .get("/p/:portal/embed/frame", async (c) => {
    const widget = c.req.query("widget") === "ask" ? "ask" : "search";
    const key = c.req.query("key") ?? "";
    const portal = await c.env.DB.prepare("SELECT id, slug, hostname FROM portals WHERE slug = ?").bind(c.req.param("portal")).first<{ id: number; slug: string; hostname: string | null }>();
    const found = portal && isApiKeyToken(key) ? await findKey(getDb(c.env.DB), portal.id, key) : undefined;
    usePagePolicy(c, { ...DEFAULT_PAGE_POLICY, frameAncestors: found?.kind === "public" ? found.origins : [] });
    if (!portal || !found || found.kind !== "public") throw new ApiError(404, "not-found", "no such public key for this portal");
    const base = portalBasePath(portal);
    const element = widget === "ask" ? '<portico-ask inline heading="Ask the docs"></portico-ask>' : '<portico-search></portico-search>';
    c.header("cache-control", "private, no-store");
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Docs ${widget}</title>
<script src="${escapeHtml(`${base}/embed.js`)}" data-key="${escapeHtml(key)}" defer></script></head><body>${element}</body></html>`);
  });
