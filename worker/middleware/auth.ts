/** @module Bearer-token middleware: the admin token (portal creation) and portal tokens (everything of a portal). */
import { createMiddleware } from "hono/factory";
import type { AppEnv, PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { getDb } from "../store/db";
import { findPortalByToken } from "../store/portals";
import { secretsEqual } from "../store/tokens";

/** The bearer token of a request, or undefined (RFC 6750 §2.1). */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

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

/** Requires a portal token and sets `c.var.portal`; 401 for a missing or unknown token. */
export const requirePortal = createMiddleware<PortalAppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header("authorization"));
  if (!token) throw new ApiError(401, "unauthorized", "missing bearer token: send Authorization: Bearer <portal token>");
  const portal = await findPortalByToken(getDb(c.env.DB), token);
  if (!portal) throw new ApiError(401, "unauthorized", "unknown token");
  c.set("portal", portal);
  await next();
});
