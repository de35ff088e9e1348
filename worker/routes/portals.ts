/** @module POST /v1/portals: create a portal (admin token). */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { readJsonObject } from "../http/read-json";
import { requireAdmin } from "../middleware/auth";
import { getDb } from "../store/db";
import { createPortal, findPortalBySlug, portalView } from "../store/portals";

const PORTAL_SLUG = /^[a-z0-9](?:[a-z0-9-]{1,46}[a-z0-9])$/;
/** Slugs that would read as product paths on a shared host. */
const RESERVED_SLUGS = new Set(["admin", "api", "app", "assets", "docs", "static", "www", "v1", "p"]);

export const portalsRoutes = new Hono<AppEnv>().post("/v1/portals", requireAdmin, async (c) => {
  const body = await readJsonObject(c.req.raw, 16 * 1024);
  const slug = body.slug;
  const name = body.name;
  if (typeof slug !== "string" || !PORTAL_SLUG.test(slug) || RESERVED_SLUGS.has(slug)) {
    throw new ApiError(400, "invalid-slug", "slug must be 3-48 lower-case letters, digits and inner dashes, and not reserved");
  }
  if (typeof name !== "string" || name.trim().length === 0 || name.length > 200) {
    throw new ApiError(400, "invalid-name", "name must be a non-empty string of at most 200 characters");
  }
  const db = getDb(c.env.DB);
  if (await findPortalBySlug(db, slug)) throw new ApiError(409, "slug-taken", `portal slug "${slug}" is taken`);
  let created;
  try {
    created = await createPortal(db, slug, name.trim());
  } catch (error) {
    if (String(error).includes("UNIQUE")) throw new ApiError(409, "slug-taken", `portal slug "${slug}" is taken`, undefined, { cause: error });
    throw error;
  }
  return c.json({ portal: portalView(created.portal), token: created.token }, 201);
});
