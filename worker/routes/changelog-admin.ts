/** @module `GET /p/:portal/admin/changelog`: the changelog review page (the token is entered in the page, as in the editor). */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { DEFAULT_PAGE_POLICY, usePagePolicy } from "../http/security-headers";
import { renderChangelogAdminPage } from "../render/changelog-admin-page";
import { getDb } from "../store/db";
import { loadPortal } from "../store/reader";

export const changelogAdminRoutes = new Hono<AppEnv>().get("/p/:portal/admin/changelog", async (c) => {
  const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal"));
  c.header("cache-control", "no-store");
  // It holds a token: never framed, no referrer to other origins (the editor's policy).
  usePagePolicy(c, { ...DEFAULT_PAGE_POLICY, editor: true });
  return c.html(renderChangelogAdminPage({ portal: { slug: portal.slug, name: portal.name } }));
});
