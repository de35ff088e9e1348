/**
 * @module A portal's custom domain (portal token): `PUT /v1/portal/domain {"hostname", "validation"?}` registers it
 * and answers the DNS records to create with the validation and certificate status; `GET` shows it (asking the
 * provider again while it is pending); `DELETE` releases it. docs/domains.md.
 */
import { Hono } from "hono";
import type { PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { DEFAULT_BASE_URL } from "../http/public-origin";
import { readJsonObject } from "../http/read-json";
import { requirePortal } from "../middleware/auth";
import { getDb } from "../store/db";
import { CustomHostnameError } from "../domains/custom-hostnames";
import { checkCustomHostname, serviceHostname } from "../domains/hostname";
import { customHostnamesFor, findDomain, refreshDomain, registerDomain, releaseDomain } from "../domains/registry";
import type { Context } from "hono";

function baseUrl(c: Context<PortalAppEnv>): string {
  return c.env.PORTICO_BASE_URL || DEFAULT_BASE_URL;
}

function adapter(c: Context<PortalAppEnv>) {
  try {
    return customHostnamesFor(c.env);
  } catch (error) {
    if (error instanceof CustomHostnameError) throw new ApiError(error.status, error.code, error.message);
    throw error;
  }
}

export const domainRoutes = new Hono<PortalAppEnv>()
  .use("/v1/portal/domain", requirePortal)
  .put("/v1/portal/domain", async (c) => {
    const body = await readJsonObject(c.req.raw, 4 * 1024);
    const unknown = Object.keys(body).filter((k) => k !== "hostname" && k !== "validation");
    if (unknown.length) throw new ApiError(400, "invalid-domain", `unknown field(s): ${unknown.join(", ")}; known: hostname, validation`);
    const validation = body.validation ?? "http";
    if (validation !== "http" && validation !== "txt") throw new ApiError(400, "invalid-validation", 'validation must be "http" or "txt"');
    const checked = checkCustomHostname(body.hostname, serviceHostname(baseUrl(c)), c.env.PORTICO_ENVIRONMENT === "local");
    if (!checked.ok) throw new ApiError(400, checked.code, checked.message);
    const view = await registerDomain(getDb(c.env.DB), adapter(c), baseUrl(c), c.get("portal").id, checked.hostname, validation);
    return c.json({ domain: view });
  })
  .get("/v1/portal/domain", async (c) => {
    const db = getDb(c.env.DB);
    const row = await findDomain(db, c.get("portal").id);
    if (!row) throw new ApiError(404, "no-domain", "this portal has no custom domain; PUT /v1/portal/domain registers one");
    return c.json({ domain: await refreshDomain(db, adapter(c), baseUrl(c), row) });
  })
  .delete("/v1/portal/domain", async (c) => {
    const released = await releaseDomain(getDb(c.env.DB), adapter(c), c.get("portal").id);
    if (!released) throw new ApiError(404, "no-domain", "this portal has no custom domain");
    return c.json({ released });
  });
