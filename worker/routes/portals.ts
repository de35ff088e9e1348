/** @module Portals: create one (admin token); read and change a portal's reader settings (its own token). */
import { Hono } from "hono";
import type { AppEnv, PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { parseOriginSetting } from "../http/origin-setting";
import { readJsonObject } from "../http/read-json";
import { requireAdmin, requirePortal } from "../middleware/auth";
import { getDb } from "../store/db";
import { accessView, checkAccessPatch } from "./access-settings";
import { bumpSessionVersion, loadAccess, saveAccess } from "../store/readers";
import { revokeReaderSessions } from "../access/session";
import { createPortal, findPortalBySlug, portalSettings, portalView, updatePortalSettings, type PortalSettings } from "../store/portals";

const PORTAL_SLUG = /^[a-z0-9](?:[a-z0-9-]{1,46}[a-z0-9])$/;
/** Slugs that would read as product paths on a shared host. */
const RESERVED_SLUGS = new Set(["admin", "api", "app", "assets", "docs", "static", "www", "v1", "p"]);
/** Most origins a portal may let frame its pages. */
export const MAX_EMBED_ORIGINS = 20;

/**
 * Validates a PATCH /v1/portal body: `{embedOrigins?: string[], externalImages?: boolean, origin?: string | null}`.
 * @throws ApiError 400 naming the field and what is wrong with it; unknown fields are refused too (a typo must not pass silently).
 */
export function parseSettingsPatch(body: Record<string, unknown>): Partial<PortalSettings> {
  const patch: Partial<PortalSettings> = {};
  const unknown = Object.keys(body).filter((k) => !["origin", "embedOrigins", "externalImages", "access"].includes(k));
  if (unknown.length) throw new ApiError(400, "invalid-settings", `unknown setting(s): ${unknown.join(", ")}; known: origin, embedOrigins, externalImages, access`);
  if (body.origin !== undefined) {
    if (body.origin === null || body.origin === "") patch.origin = null;
    else {
      const parsed = parseOriginSetting(body.origin);
      if (!parsed.ok) throw new ApiError(400, "invalid-origin", `origin ${parsed.reason}`);
      patch.origin = parsed.origin;
    }
  }
  if (body.embedOrigins !== undefined) {
    if (!Array.isArray(body.embedOrigins) || body.embedOrigins.length > MAX_EMBED_ORIGINS) {
      throw new ApiError(400, "invalid-embed-origins", `embedOrigins must be an array of at most ${MAX_EMBED_ORIGINS} origins`);
    }
    patch.embedOrigins = [...new Set(body.embedOrigins.map((value, i) => {
      const parsed = parseOriginSetting(value);
      if (!parsed.ok) throw new ApiError(400, "invalid-embed-origins", `embedOrigins[${i}] ${parsed.reason}`);
      return parsed.origin;
    }))];
  }
  if (body.externalImages !== undefined) {
    if (typeof body.externalImages !== "boolean") throw new ApiError(400, "invalid-external-images", "externalImages must be true or false");
    patch.externalImages = body.externalImages;
  }
  return patch;
}

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

/** `GET /v1/portal` and `PATCH /v1/portal` (portal token): the calling portal, its reader settings and its access (no secrets). */
export const portalSettingsRoutes = new Hono<PortalAppEnv>()
  .use("/v1/portal", requirePortal)
  .get("/v1/portal", async (c) => {
    const portal = c.get("portal");
    return c.json({ portal: portalView(portal), settings: portalSettings(portal), access: accessView((await loadAccess(c.env.DB, portal.id)).policy) });
  })
  .patch("/v1/portal", async (c) => {
    const body = await readJsonObject(c.req.raw, 64 * 1024);
    const patch = parseSettingsPatch(body);
    // Checked before anything is written, so a refused access block leaves the other settings unchanged too.
    const access = body.access === undefined ? undefined : await checkAccessPatch(c.env.DB, c.get("portal").id, body.access);
    const portal = Object.keys(patch).length ? await updatePortalSettings(getDb(c.env.DB), c.get("portal").id, patch) : c.get("portal");
    if (access) await saveAccess(c.env.DB, portal.id, access.parsed, access.passwordHash);
    return c.json({ portal: portalView(portal), settings: portalSettings(portal), access: accessView((await loadAccess(c.env.DB, portal.id)).policy) });
  })
  // Signs readers out everywhere: one reader (`?reader=<reader id>`: the JWT sub, SAML NameID or magic-link
  // email), or every reader of the portal. Their cookies stop opening anything; they sign in again.
  .use("/v1/portal/sessions", requirePortal)
  .delete("/v1/portal/sessions", async (c) => {
    const portal = c.get("portal");
    const reader = c.req.query("reader");
    if (reader !== undefined) {
      if (!reader || reader.length > 512) throw new ApiError(400, "invalid-reader", "reader must be a reader id of 1-512 characters");
      await revokeReaderSessions(c.env, portal.id, reader);
      return c.json({ signedOut: { reader } });
    }
    await bumpSessionVersion(c.env.DB, portal.id);
    return c.json({ signedOut: "every reader" });
  });
