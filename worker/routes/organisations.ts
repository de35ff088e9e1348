/**
 * @module Organisations (admin token): a customer's portals grouped, with a plan flag. `PUT /v1/orgs/{org}`
 * with `{"name", "plan"?: "team" | "starter" | "pro" | "enterprise", "portals": [portal slugs]}` creates or replaces one;
 * `GET /v1/orgs/{org}` reads it. On the Enterprise plan `GET /o/{org}/search.json` (routes/search.ts) searches
 * every member portal's index, each result labelled with its portal and filtered per reader.
 */
import { Hono } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { readJsonObject } from "../http/read-json";
import { requireAdmin } from "../middleware/auth";
import { orgFor } from "../workspace/access";
import { principalOf } from "../workspace/accounts";
import { orgView as workspaceOrgView } from "./workspace";

const ORG_SLUG = /^[a-z0-9](?:[a-z0-9-]{1,46}[a-z0-9])$/;
/** Plans this route may set ("team" is starter's old name); only "enterprise" searches across its portals. */
export const ORG_PLANS = ["team", "trial", "starter", "pro", "enterprise"] as const;
/** Most portals in one organisation (each is one index loaded per cross-portal search). */
export const MAX_ORG_PORTALS = 50;

async function orgView(db: D1Database, slug: string) {
  const org = await db.prepare("SELECT id, slug, name, plan, created_at AS createdAt FROM organisations WHERE slug = ?").bind(slug).first<{ id: number; slug: string; name: string; plan: string; createdAt: string }>();
  if (!org) return undefined;
  const { results } = await db.prepare("SELECT p.slug FROM organisation_portals o JOIN portals p ON p.id = o.portal_id WHERE o.organisation_id = ? ORDER BY p.slug").bind(org.id).all<{ slug: string }>();
  return { slug: org.slug, name: org.name, plan: org.plan, portals: results.map((r) => r.slug), createdAt: org.createdAt };
}

export const organisationRoutes = new Hono<AppEnv>()
  // The admin token, or a member signed in (worker/workspace/): `organisation` (this module's view) beside `org`
  // (the workspace's: plan status and trial).
  .get("/v1/orgs/:org", async (c) => {
    const { org } = await orgFor(c, await principalOf(c), c.req.param("org"), "org.read");
    const view = await orgView(c.env.DB, org.slug);
    return c.json({ organisation: view, org: workspaceOrgView(org) });
  })
  .put("/v1/orgs/:org", requireAdmin, async (c) => {
    const slug = c.req.param("org");
    if (!ORG_SLUG.test(slug)) throw new ApiError(400, "invalid-slug", "an organisation slug is 3-48 lower-case letters, digits and inner dashes");
    const body = await readJsonObject(c.req.raw, 16 * 1024);
    const { name, plan = "team", portals } = body;
    if (typeof name !== "string" || !name.trim() || name.length > 200) throw new ApiError(400, "invalid-name", "name must be a non-empty string of at most 200 characters");
    if (typeof plan !== "string" || !(ORG_PLANS as readonly string[]).includes(plan)) throw new ApiError(400, "invalid-plan", `plan must be one of ${ORG_PLANS.join(", ")}`);
    if (!Array.isArray(portals) || portals.length > MAX_ORG_PORTALS || !portals.every((p) => typeof p === "string")) {
      throw new ApiError(400, "invalid-portals", `portals must be an array of at most ${MAX_ORG_PORTALS} portal slugs`);
    }
    const slugs = [...new Set(portals as string[])];
    const { results } = await c.env.DB.prepare(`SELECT id, slug FROM portals WHERE slug IN (SELECT value FROM json_each(?))`).bind(JSON.stringify(slugs)).all<{ id: number; slug: string }>();
    const missing = slugs.filter((s) => !results.some((r) => r.slug === s));
    if (missing.length) throw new ApiError(400, "unknown-portals", `no portal(s) ${missing.join(", ")}`);
    const now = new Date().toISOString();
    const db = c.env.DB;
    // One batch: the organisation and its membership change together.
    await db.batch([
      db.prepare("INSERT INTO organisations (slug, name, plan, created_at) VALUES (?, ?, ?, ?) ON CONFLICT(slug) DO UPDATE SET name = excluded.name, plan = excluded.plan").bind(slug, name.trim(), plan, now),
      db.prepare("DELETE FROM organisation_portals WHERE organisation_id = (SELECT id FROM organisations WHERE slug = ?)").bind(slug),
      db.prepare("INSERT INTO organisation_portals (organisation_id, portal_id) SELECT (SELECT id FROM organisations WHERE slug = ?), value FROM json_each(?)").bind(slug, JSON.stringify(results.map((r) => r.id))),
      // Portals the organisation owns (worker/workspace/) carry its plan mirrored.
      db.prepare("UPDATE portals SET plan = o.plan, trial_ends_at = o.trial_ends_at FROM (SELECT id, plan, trial_ends_at FROM organisations WHERE slug = ?) AS o WHERE portals.organisation_id = o.id").bind(slug),
    ]);
    return c.json({ organisation: await orgView(db, slug) });
  });
