/**
 * @module Who may do what to an organisation: the principal's role (worker/workspace/roles.ts) looked up once per
 * call. The service admin may do everything; portal tokens act only on their own portal (tokens routes).
 */
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { findOrganisation, findOrganisationWithRole, type OrgRow } from "../store/workspace";
import { sessionReaches, type Principal } from "./accounts";
import { roleAllows, ACTIONS, type Action, type Role } from "./roles";
import { requireSsoSession } from "./sso";

/** An organisation and the caller's role in it (`owner` stands for the service admin). */
export interface OrgAccess {
  org: OrgRow;
  role: Role;
}

/**
 * The organisation `slug` if `principal` may do `action` in it.
 * @throws ApiError 404 for an unknown organisation or one the writer is not a member of (its existence is not
 *   revealed), 403 `role-required` naming the roles that may, 403 `forbidden` for a portal token.
 */
export async function orgFor(c: Context<AppEnv>, principal: Principal, slug: string, action: Action): Promise<OrgAccess> {
  if (principal.kind === "token") throw new ApiError(403, "forbidden", "a portal token cannot act on an organisation; sign in or use the admin token");
  if (principal.kind === "admin") {
    const org = await findOrganisation(c.env.DB, slug);
    if (!org) throw new ApiError(404, "not-found", `no organisation "${slug}"`);
    return { org, role: "owner" };
  }
  const found = await findOrganisationWithRole(c.env.DB, slug, principal.writer.id);
  if (!found || !found.role || !sessionReaches(principal.writer, found.id)) throw new ApiError(404, "not-found", `no organisation "${slug}"`);
  const { role, ...org } = found;
  requireSsoSession(principal.writer, org, role);
  if (!roleAllows(role, action)) {
    throw new ApiError(403, "role-required", `this needs the role ${ACTIONS[action].join(" or ")}; you are ${role}`, { roles: ACTIONS[action], role });
  }
  return { org, role };
}
