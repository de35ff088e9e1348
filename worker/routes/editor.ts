/** @module The API editor page: `GET /p/:portal/editor/:api?` (sign-in happens in the page, with the portal token). */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { DEFAULT_PAGE_POLICY, usePagePolicy } from "../http/security-headers";
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
  const lintRuleset = (await liveRelease(c.env.DB, portal.id))?.config.lint;
  return c.html(renderEditorPage({ portal: { slug: portal.slug, name: portal.name }, api, styleNonce, lintRuleset }));
}

export const editorRoutes = new Hono<AppEnv>()
  .get("/p/:portal/editor", (c) => editorPage(c, undefined))
  .get("/p/:portal/editor/", (c) => editorPage(c, undefined))
  .get("/p/:portal/editor/:api", (c) => editorPage(c, c.req.param("api")));
