/**
 * @module Git sync over the service API (docs/git-sync.md): `PUT/GET/DELETE /v1/portal/git` (portal token) connect,
 * show and disconnect a repository; the provider webhooks are in git-webhook.ts.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { DEFAULT_BASE_URL } from "../http/public-origin";
import { readJsonObject } from "../http/read-json";
import { requirePortal } from "../middleware/auth";
import { getDb } from "../store/db";
import { deleteConnection, findConnection, recentDeliveries, saveConnection, type StoredConnection } from "../store/git";
import { parseGitConnection } from "../git/config";

const FIELDS = ["provider", "apiUrl", "repository", "installationId", "productionBranch", "paths", "previews", "releases", "blocking"];

/** The URL the provider must deliver webhooks to (GitHub: the App's webhook URL; GitLab: the project hook's). */
export function webhookUrl(env: { PORTICO_BASE_URL?: string }, provider: string): string {
  return `${(env.PORTICO_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, "")}/v1/git/${provider}/webhook`;
}

/** What the API shows of a connection (it holds no secret) and whether the service secrets it needs are set. */
function view(c: Context<PortalAppEnv>, conn: StoredConnection) {
  const { portalId: _portal, ...rest } = conn;
  const secrets = conn.provider === "github"
    ? { GITHUB_APP_ID: !!c.env.GITHUB_APP_ID, GITHUB_APP_PRIVATE_KEY: !!c.env.GITHUB_APP_PRIVATE_KEY, GITHUB_WEBHOOK_SECRET: !!c.env.GITHUB_WEBHOOK_SECRET }
    : { GITLAB_TOKEN: !!c.env.GITLAB_TOKEN, GITLAB_WEBHOOK_SECRET: !!c.env.GITLAB_WEBHOOK_SECRET };
  return { ...rest, webhookUrl: webhookUrl(c.env, conn.provider), secretsConfigured: secrets };
}

export const gitRoutes = new Hono<PortalAppEnv>()
  .use("/v1/portal/git", requirePortal)
  .use("/v1/portal/git/*", requirePortal)
  .put("/v1/portal/git", async (c) => {
    const body = await readJsonObject(c.req.raw, 32 * 1024);
    const unknown = Object.keys(body).filter((k) => !FIELDS.includes(k));
    if (unknown.length) throw new ApiError(400, "invalid-git-connection", `unknown field(s): ${unknown.join(", ")}; known: ${FIELDS.join(", ")}`);
    const connection = parseGitConnection(body, c.env.PORTICO_ENVIRONMENT === "local");
    const saved = await saveConnection(getDb(c.env.DB), c.get("portal").id, connection);
    return c.json({ git: view(c, saved) });
  })
  .get("/v1/portal/git", async (c) => {
    const conn = await findConnection(getDb(c.env.DB), c.get("portal").id);
    if (!conn) throw new ApiError(404, "not-connected", "no repository is connected: PUT /v1/portal/git first");
    return c.json({ git: view(c, conn) });
  })
  .get("/v1/portal/git/deliveries", async (c) => {
    return c.json({ deliveries: await recentDeliveries(getDb(c.env.DB), c.get("portal").id) });
  })
  .delete("/v1/portal/git", async (c) => {
    const gone = await deleteConnection(getDb(c.env.DB), c.get("portal").id);
    if (!gone) throw new ApiError(404, "not-connected", "no repository is connected");
    return c.json({ disconnected: true });
  });
