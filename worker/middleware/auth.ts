/**
 * @module Bearer-token middleware: the admin token (portal creation) and portal tokens (a portal's `/v1` routes,
 * each needing a scope: worker/workspace/scopes.ts). Publishing calls of an organisation whose trial ended answer
 * 402 `trial-ended`; changes made with a token are audited.
 */
import type { Context, Next } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv, PortalAppEnv } from "../env";
import { bearerToken } from "../http/bearer-token";
import { ApiError } from "../http/errors";
import { getDb } from "../store/db";
import { findTokenAuth } from "../store/portals";
import { secretsEqual } from "../store/tokens";
import { touchToken } from "../store/workspace";
import { recordAudit } from "../workspace/audit";
import { requireFeature, requirePublishing, type Feature } from "../workspace/plans";
import { routeNeeds, scopesAllow, type Scope } from "../workspace/scopes";
import { PORTAL_HEADER, writerPortalAuth } from "../workspace/writer-portal";

export { bearerToken };

/** Requires `Authorization: Bearer <PORTICO_ADMIN_TOKEN>`; 401 without a token, 403 for any other token. */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  if (!token) throw new ApiError(401, "unauthorized", "missing bearer token: send Authorization: Bearer <admin token>");
  const admin = c.env.PORTICO_ADMIN_TOKEN;
  if (!admin || !(await secretsEqual(token, admin))) {
    throw new ApiError(403, "forbidden", "this endpoint needs the admin token; a portal token cannot create portals");
  }
  await next();
});

/** Runs `task` after the answer when an execution context exists (tests calling the app directly have none). */
function later(c: { executionCtx: { waitUntil(p: Promise<unknown>): void } }, task: Promise<unknown>): void {
  try {
    c.executionCtx.waitUntil(task);
  } catch {
    void task;
  }
}

/**
 * Requires a portal token holding the scope the route needs and sets `c.var.portal` and `c.var.token`; 401 for a
 * missing, unknown or expired token, 403 `scope-required` naming the scope, 403 `plan-required` naming the plan
 * (routes with a feature in the scope table), 402 `trial-ended` for publishing after a trial. A successful change is audited after the answer.
 */
export const requirePortal = createMiddleware<PortalAppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  const method = c.req.method;
  const { scope: needed, feature } = routeNeeds(method, c.req.path);
  const named = c.req.header(PORTAL_HEADER);
  if (!token && named !== undefined) return writerCall(c, next, named, method, needed, feature);
  if (!token) throw new ApiError(401, "unauthorized", "missing bearer token: send Authorization: Bearer <portal token>");
  const found = await findTokenAuth(getDb(c.env.DB), token);
  if (!found) throw new ApiError(401, "unauthorized", "unknown token, or an expired one");
  if (!scopesAllow(found.token.scopes, needed)) {
    throw new ApiError(403, "scope-required", `this call needs a token with the scope ${needed}; this token has ${found.token.scopes.join(", ") || "none"}`, { scope: needed });
  }
  const changes = method !== "GET" && method !== "HEAD";
  if (found.portal.organisationId !== null) {
    if (feature) requireFeature(found.portal, feature);
    if (changes && (needed === "publish:apis" || needed === "publish:content")) requirePublishing(found.portal);
  }
  c.set("portal", found.portal);
  c.set("token", found.token);
  later(c, touchToken(c.env.DB, found.token.id));
  await next();
  if (changes && c.res.status < 400) {
    later(c, recordAudit(c.env.DB, { kind: "token", id: found.token.id, name: found.token.name }, {
      organisationId: found.portal.organisationId,
      portalId: found.portal.id,
      action: `${method} ${c.req.path}`,
      target: found.portal.slug,
    }));
  }
});

/**
 * A portal route called by a signed-in writer (the dashboard) instead of a token: the same plan checks and audit as
 * a token call, with the writer's role standing for scopes (worker/workspace/writer-portal.ts). `c.var.token` is a
 * stand-in (id 0) holding those scopes; nothing is touched or stored for it.
 */
async function writerCall(c: Context<PortalAppEnv>, next: Next, slug: string, method: string, needed: Scope | "any", feature: Feature | undefined): Promise<void> {
  const { portal, writer, scopes } = await writerPortalAuth(c as unknown as Context<AppEnv>, slug, method, needed);
  const changes = method !== "GET" && method !== "HEAD";
  if (feature) requireFeature(portal, feature);
  if (changes && (needed === "publish:apis" || needed === "publish:content")) requirePublishing(portal);
  c.set("portal", portal);
  c.set("token", { id: 0, name: `writer ${writer.email}`, scopes, expiresAt: null, lastUsedAt: null });
  await next();
  if (changes && c.res.status < 400) {
    later(c, recordAudit(c.env.DB, { kind: "writer", email: writer.email }, {
      organisationId: portal.organisationId,
      portalId: portal.id,
      action: `${method} ${c.req.path}`,
      target: portal.slug,
    }));
  }
}
