/** @module The API editor page: `GET /p/:portal/editor/:api?` (sign-in happens in the page, with the portal token). */
import { Hono } from "hono";
import type { AppEnv } from "../app";
import { renderEditorPage } from "../render/editor-page";
import { getDb } from "../store/db";
import { loadPortal } from "../store/reader";

const SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

export const editorRoutes = new Hono<AppEnv>().get("/p/:portal/editor/:api?", async (c) => {
  const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal"));
  const api = c.req.param("api");
  if (api !== undefined && api !== "" && !SLUG.test(api)) return c.text("Not found", 404);
  c.header("cache-control", "no-store");
  // The page holds a token in sessionStorage: keep it out of frames and away from other origins' scripts.
  c.header("x-frame-options", "DENY");
  c.header("referrer-policy", "same-origin");
  return c.html(renderEditorPage({ portal: { slug: portal.slug, name: portal.name }, api: api || undefined }));
});
