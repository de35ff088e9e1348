/**
 * @module A portal's `/v1` routes called by a signed-in writer (the dashboard's pages) instead of a portal token:
 * the cookie session names the writer, the `Portico-Portal` header names the portal (routes such as `/v1/portal`
 * take their portal from the token, so a cookie call must say which), and the writer's role in the portal's
 * organisation stands for scopes: owners and admins `manage`; editors publish and read analytics; viewers read
 * only (GET/HEAD of routes that need no `manage`). Changes need a same-origin `Origin`, as every cookie call.
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { getDb } from "../store/db";
import { findPortalBySlug, type PortalRow } from "../store/portals";
import { roleAndOrgIn, type Writer } from "../store/workspace";
import { sameOrigin, sessionReaches, sessionWriter } from "./accounts";
import type { Role } from "./roles";
import { scopesAllow, type Scope } from "./scopes";
import { requireSsoSession } from "./sso";

/** The request header naming the portal (its slug) of a writer's cookie call. */
export const PORTAL_HEADER = "portico-portal";

/** The scopes a role stands for on its organisation's portals. */
export function scopesOfRole(role: Role): Scope[] {
  if (role === "owner" || role === "admin") return ["manage"];
  if (role === "editor") return ["publish:apis", "publish:content", "read:analytics"];
  return [];
}

/**
 * The portal, writer and role of a cookie call that names its portal, when the role allows `needed` for `method`.
 * @throws ApiError 401 `unauthorized` (no session), 403 `cross-origin` (a change from elsewhere), 404 `not-found`
 *   (no such portal, or not one of the writer's organisations: its existence is not revealed), 403
 *   `role-required` naming the roles that may.
 */
export async function writerPortalAuth(c: Context<AppEnv>, slug: string, method: string, needed: Scope | "any"): Promise<{ portal: PortalRow; writer: Writer; role: Role; scopes: Scope[] }> {
  const session = await sessionWriter(c);
  if (!session) throw new ApiError(401, "unauthorized", "sign in to the dashboard, or send Authorization: Bearer <portal token>");
  const reads = method === "GET" || method === "HEAD";
  if (!reads && !sameOrigin(c)) throw new ApiError(403, "cross-origin", "a call signed in by cookie must come from the dashboard's own origin");
  const portal = slug.length <= 64 ? await findPortalBySlug(getDb(c.env.DB), slug) : undefined;
  const member = portal && portal.organisationId !== null && sessionReaches(session.writer, portal.organisationId) ? await roleAndOrgIn(c.env.DB, portal.organisationId, session.writer.id) : undefined;
  if (!portal || !member) throw new ApiError(404, "not-found", `no portal "${slug}" in your organisations`);
  const { role } = member;
  requireSsoSession(session.writer, member.org, role);
  const scopes = scopesOfRole(role);
  const viewerRead = reads && needed !== "manage";
  if (!viewerRead && !scopesAllow(scopes, needed)) {
    const roles = needed === "manage" ? ["owner", "admin"] : ["owner", "admin", "editor"];
    throw new ApiError(403, "role-required", `this needs the role ${roles.join(" or ")}; you are ${role}`, { roles, role });
  }
  return { portal, writer: session.writer, role, scopes };
}
