/** @module Portals: create one (admin token); read and change a portal's reader settings (its own token). */
import { Hono } from "hono";
import type { AppEnv, PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { parseOriginSetting } from "../http/origin-setting";
import { readJsonObject } from "../http/read-json";
import { requireAdmin, requirePortal } from "../middleware/auth";
import { getDb } from "../store/db";
import { accessView, checkAccessPatch } from "./access-settings";
import { requireFeature } from "../workspace/plans";
import { bumpSessionVersion, loadAccess, saveAccess } from "../store/readers";
import { revokeReaderSessions } from "../access/session";
import { createPortal, findPortalBySlug, portalBrand, portalSettings, portalView, updatePortalBrand, updatePortalSettings, type PortalSettings } from "../store/portals";
import { BRAND_KEYS, brandFiles, readBrand, resolveBrandFiles, type Brand } from "../content/brand";
import { BASE_MARKER } from "../content/markers";
import { liveAssetsByPath } from "../store/content";

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
  const unknown = Object.keys(body).filter((k) => !["origin", "embedOrigins", "externalImages", "access", "brand"].includes(k));
  if (unknown.length) throw new ApiError(400, "invalid-settings", `unknown setting(s): ${unknown.join(", ")}; known: origin, embedOrigins, externalImages, access, brand`);
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

/**
 * The portal's PATCHed brand after `patch` (the body's `brand`): `null` clears every key; in an object, a key set
 * to `null` goes back to portico.yaml's, any other value replaces it whole. Values are read as in portico.yaml
 * (worker/content/brand.ts); file paths must be files of the live content release and are stored by content address.
 * @throws ApiError 422 `low-contrast` naming the colour, its ratio and the background; 422 `unknown-file` for a
 *   path the live release lacks; 400 `invalid-brand` for anything else malformed. Nothing is written then.
 */
export async function brandAfterPatch(db: D1Database, portalId: number, current: Brand, patch: unknown): Promise<Brand> {
  if (patch === null) return {};
  if (!patch || typeof patch !== "object" || Array.isArray(patch)) throw new ApiError(400, "invalid-brand", `brand must be an object of ${BRAND_KEYS.join(", ")}, or null`);
  const given = Object.fromEntries(Object.entries(patch as Record<string, unknown>).filter(([, v]) => v !== null));
  const problems: string[] = [];
  let contrast = false;
  const read = readBrand(given, (message, kind) => {
    problems.push(message);
    if (kind === "contrast") contrast = true;
  });
  if (problems.length) {
    throw new ApiError(contrast ? 422 : 400, contrast ? "low-contrast" : "invalid-brand", problems.join("; "), { problems, ...brandField(problems[0]!) });
  }
  const paths = brandFiles(read).map((f) => f.path);
  const found = await liveAssetsByPath(db, portalId, paths);
  const missing: string[] = [];
  const resolved = resolveBrandFiles(read, (path) => {
    const a = found.get(path);
    return a ? `${BASE_MARKER}/_content/${a.sha256}.${path.slice(path.lastIndexOf(".") + 1).toLowerCase()}` : undefined;
  }, (key, path) => missing.push(`brand.${key}: no file ${path} in the live content release`));
  if (missing.length) throw new ApiError(422, "unknown-file", missing.join("; "), { problems: missing, ...brandField(missing[0]!) });
  const next: Brand = { ...current };
  for (const [key, value] of Object.entries(patch as Record<string, unknown>)) {
    if (value === null) delete next[key as keyof Brand];
    else (next as Record<string, unknown>)[key] = (resolved as Record<string, unknown>)[key];
  }
  return next;
}

/**
 * The brand field a problem names (`details.field`, for the dashboard): `brand.` and the dotted key it starts with
 * (`colors.primary #ff0 has contrast…` → `brand.colors.primary`, `` `brand.logo.light` must… `` → `brand.logo.light`).
 */
function brandField(problem: string): { field: string } | undefined {
  const path = /^`?(?:brand\.)?([A-Za-z]+(?:\.[A-Za-z]+)*)/.exec(problem)?.[1];
  return path && (BRAND_KEYS as readonly string[]).includes(path.split(".")[0]!) ? { field: `brand.${path}` } : undefined;
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
    return c.json({ portal: portalView(portal), settings: portalSettings(portal), brand: portalBrand(portal), access: accessView((await loadAccess(c.env.DB, portal.id)).policy) });
  })
  .patch("/v1/portal", async (c) => {
    const body = await readJsonObject(c.req.raw, 64 * 1024);
    const patch = parseSettingsPatch(body);
    // Checked before anything is written, so a refused access block leaves the other settings unchanged too.
    const access = body.access === undefined ? undefined : await checkAccessPatch(c.env.DB, c.get("portal").id, body.access);
    if (access && c.get("portal").organisationId !== null) {
      // Ways in beyond the password are Pro features (worker/workspace/plans.ts); unmanaged portals keep them all.
      const methods = access.parsed.settings.methods ?? [];
      if (methods.includes("jwt")) requireFeature(c.get("portal"), "reader-jwt");
      if (methods.includes("magic-link")) requireFeature(c.get("portal"), "reader-magic-link");
      if (methods.includes("saml")) requireFeature(c.get("portal"), "saml");
      // Gating sections and setting up JWT readers are the same features as turning them on.
      if (access.parsed.settings.jwt) requireFeature(c.get("portal"), "reader-jwt");
      if (methods.length || access.parsed.settings.default !== undefined || access.parsed.settings.sections?.length) requireFeature(c.get("portal"), "private-portal");
    }
    const brand = body.brand === undefined ? undefined : await brandAfterPatch(c.env.DB, c.get("portal").id, portalBrand(c.get("portal")), body.brand);
    let portal = Object.keys(patch).length ? await updatePortalSettings(getDb(c.env.DB), c.get("portal").id, patch) : c.get("portal");
    if (brand) portal = await updatePortalBrand(getDb(c.env.DB), portal.id, brand);
    if (access) await saveAccess(c.env.DB, portal.id, access.parsed, access.passwordHash);
    return c.json({ portal: portalView(portal), settings: portalSettings(portal), brand: portalBrand(portal), access: accessView((await loadAccess(c.env.DB, portal.id)).policy) });
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
