/** @module The API editor page: `GET /p/:portal/editor/:api?` (sign-in happens in the page, with the portal token). */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { allowInlineStyle, DEFAULT_PAGE_POLICY, usePagePolicy } from "../http/security-headers";
import { internalBasePath } from "../render/shell/base-path";
import { loadContentSite } from "../store/content-site";
import { themeStyle } from "./shell-chrome";
import { renderEditorPage } from "../render/editor-page";
import { getDb } from "../store/db";
import { liveRelease } from "../store/content";
import { loadPortal } from "../store/reader";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

async function editorPage(c: Context<AppEnv>, api: string | undefined): Promise<Response> {
  const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal") ?? "");
  if (api !== undefined && !SLUG.test(api)) return c.text("Not found", 404);
  c.header("cache-control", "no-store");
  // The page holds a token in sessionStorage: never framed (whatever the portal allows its reader pages), no
  // referrer to other origins, its lint Web Worker allowed, CodeMirror's run-time <style> elements admitted by a
  // fresh nonce (worker/http/security-headers.ts).
  const styleNonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  usePagePolicy(c, { ...DEFAULT_PAGE_POLICY, editor: true, styleNonce });
  // The portal's ruleset (portico.yaml `lint:` of the live content release): the editor lints as uploads do.
  const [release, site] = await Promise.all([liveRelease(c.env.DB, portal.id), loadContentSite(c.env, portal.slug)]);
  const lintRuleset = release?.config.lint;
  // The portal's brand colours and fonts as the editor's tokens too (docs/branding.md). The editor lives on the
  // service host, so its font URLs take the internal /p/{slug} prefix.
  const style = site ? themeStyle(site, internalBasePath(portal.slug)) : undefined;
  if (style) allowInlineStyle(c, style);
  return c.html(renderEditorPage({ portal: { slug: portal.slug, name: portal.name }, api, styleNonce, lintRuleset, ...(style ? { themeStyle: style } : {}) }));
}

export const editorRoutes = new Hono<AppEnv>()
  .get("/p/:portal/editor", (c) => editorPage(c, undefined))
  .get("/p/:portal/editor/", (c) => editorPage(c, undefined))
  .get("/p/:portal/editor/:api", (c) => editorPage(c, c.req.param("api")));
