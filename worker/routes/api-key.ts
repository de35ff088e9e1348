/**
 * @module "API key once" routes: `POST /p/{portal}/auth/api-key` (form `key`, `return`) keeps the reader's API key
 * in its encrypted cookie, `POST /p/{portal}/auth/api-key/clear` (form `return`) forgets it; both answer 303 to
 * `return` when it is a path of the portal. Cross-site posts are refused (403), so another site cannot plant its
 * key in a reader's samples. `authorizeState` is what reference pages hand the top bar's Authorize control.
 */
import { portalBasePath } from "../render/shell/base-path";
import { Hono, type Context } from "hono";
import { clearApiKey, crossSiteRequest, normalizeApiKey, readApiKey, storeApiKey } from "../access/api-key";
import { safeReturnPath } from "../access/return-to";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { readBodyLimited } from "../http/read-body";
import { renderErrorPage } from "../render";
import { errorChrome } from "./shell-chrome";
import type { AuthorizeState } from "../render/types";
import { getDb } from "../store/db";
import { findPortalBySlug, type PortalRow } from "../store/portals";

const MAX_FORM_BYTES = 8 * 1024;

/**
 * The Authorize control's state for a page of `portal` at `path` (as the reader sees it: render/shell/base-path.ts `readerPath`), and marks the answer `private, no-store`: the
 * page now depends on the reader's cookie, so no shared cache may keep it.
 */
export async function authorizeState(c: Context<AppEnv>, portal: Pick<PortalRow, "id" | "slug" | "hostname">, path: string): Promise<AuthorizeState> {
  c.header("cache-control", "private, no-store");
  const apiKey = await readApiKey(c, portal);
  const base = `${portalBasePath(portal)}/auth/api-key`;
  return { ...(apiKey ? { apiKey } : {}), action: base, clearAction: `${base}/clear`, returnTo: path };
}

async function formOf(c: Context<AppEnv>): Promise<{ portal: PortalRow; form: URLSearchParams }> {
  if (crossSiteRequest(c)) throw new ApiError(403, "cross-site", "this form can only be sent from the portal's own pages");
  const portal = await findPortalBySlug(getDb(c.env.DB), c.req.param("portal") ?? "");
  if (!portal) throw new ApiError(404, "not-found", "There is no such portal.");
  return { portal, form: new URLSearchParams(new TextDecoder().decode(await readBodyLimited(c.req.raw, MAX_FORM_BYTES))) };
}

export const apiKeyRoutes = new Hono<AppEnv>()
  .post("/p/:portal/auth/api-key", async (c) => {
    const { portal, form } = await formOf(c);
    await storeApiKey(c, portal, normalizeApiKey(form.get("key")));
    return c.redirect(safeReturnPath(portal, form.get("return")), 303);
  })
  .post("/p/:portal/auth/api-key/clear", async (c) => {
    const { portal, form } = await formOf(c);
    clearApiKey(c, portal);
    return c.redirect(safeReturnPath(portal, form.get("return")), 303);
  })
  .onError(async (error, c) => {
    if (!(error instanceof ApiError)) throw error;
    c.header("cache-control", "private, no-store");
    return c.html(renderErrorPage({ status: error.status, title: error.status === 404 ? "Not found" : "API key not kept", message: error.message, chrome: await errorChrome(c) }), error.status);
  });
