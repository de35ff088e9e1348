/** @module The API editor page: `GET /p/:portal/editor/:api?` (sign-in happens in the page, with the portal token). */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { renderEditorPage } from "../render/editor-page";
import { getDb } from "../store/db";
import { loadPortal } from "../store/reader";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

async function editorPage(c: Context<AppEnv>, api: string | undefined): Promise<Response> {
  const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal") ?? "");
  if (api !== undefined && !SLUG.test(api)) return c.text("Not found", 404);
  c.header("cache-control", "no-store");
  // The page holds a token in sessionStorage: keep it out of frames and send no referrer elsewhere.
  c.header("x-frame-options", "DENY");
  c.header("referrer-policy", "same-origin");
  // CodeMirror injects its styles at run time, hence inline styles; scripts, the worker and fetches stay same-origin.
  c.header("content-security-policy", "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'");
  return c.html(renderEditorPage({ portal: { slug: portal.slug, name: portal.name }, api }));
}

export const editorRoutes = new Hono<AppEnv>()
  .get("/p/:portal/editor", (c) => editorPage(c, undefined))
  .get("/p/:portal/editor/", (c) => editorPage(c, undefined))
  .get("/p/:portal/editor/:api", (c) => editorPage(c, c.req.param("api")));
