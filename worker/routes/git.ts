/**
 * @module Git sync over the service API (docs/git.md): `PUT/GET/DELETE /v1/portal/git` (portal token) connect,
 * show and disconnect a repository; `POST /v1/git/sync` publishes an uploaded folder (`portico sync`) through the
 * same job as a webhook; the provider webhooks are in git-webhook.ts.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import type { PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { DEFAULT_BASE_URL } from "../http/public-origin";
import { readJsonObject } from "../http/read-json";
import { requirePortal } from "../middleware/auth";
import { getDb } from "../store/db";
import { deleteConnection, findConnection, findDelivery, recentDeliveries, saveConnection, type StoredConnection } from "../store/git";
import { parseGitConnection, validBranch } from "../git/config";
import type { GitJob, GitWork } from "../git/events";
import { publicOrigin } from "../http/public-origin";
import { readBodyLimited } from "../http/read-body";
import { publisherFor } from "../publish/portal-publisher";
import { portalBasePath } from "../render/shell/base-path";
import { putBundle } from "../store/content";
import { claimDelivery } from "../store/git";
import { sha256Hex } from "../store/tokens";
import { MAX_BUNDLE_BYTES } from "./content";

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

/** Milliseconds `POST /v1/git/sync` waits for its job before answering 202 (clients time out at 300 s: undici's default). */
export const SYNC_WAIT_MS = 240_000;

/**
 * The result of a sync job: the queue's answer (`direct`), or the one recorded on its delivery, read with a growing
 * interval (0.2 s to 2 s) while `direct` is pending or failed (a reset of the object cuts the call, not the stored
 * job). Undefined when neither came within `maxMs`.
 */
export async function syncOutcome(db: ReturnType<typeof getDb>, portalId: number, deliveryId: string, direct?: Promise<Record<string, unknown>>, maxMs = SYNC_WAIT_MS): Promise<Record<string, unknown> | undefined> {
  let answered: Record<string, unknown> | undefined;
  let pending = direct !== undefined;
  const settled = direct?.then((r) => void (answered = r), () => undefined).finally(() => (pending = false));
  const until = Date.now() + maxMs;
  for (let wait = 200; ; wait = Math.min(2_000, wait * 1.5)) {
    if (answered) return answered;
    const d = await findDelivery(db, portalId, deliveryId);
    if (d && d.status !== "queued" && d.result) return d.result;
    if (answered) return answered;
    if (Date.now() >= until) return undefined;
    const sleep = new Promise<void>((r) => setTimeout(r, Math.min(wait, until - Date.now())));
    await Promise.race(pending && settled ? [sleep, settled] : [sleep]);
  }
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
  .get("/v1/portal/git/deliveries/:delivery", async (c) => {
    const d = await findDelivery(getDb(c.env.DB), c.get("portal").id, c.req.param("delivery"));
    if (!d) throw new ApiError(404, "not-found", "no delivery with this id for this portal");
    return c.json({ delivery: d });
  })
  // `portico sync`: a folder (.tar.gz) published as the production release, a release (`?release=2.1.0`) or a
  // branch preview with checks (`?branch=name`), through the same job as a webhook's, answered once it is done.
  // Paths: `?definition=api=file` (repeatable) and `?content=docs/`, else the connection's.
  .use("/v1/git/sync", requirePortal)
  .post("/v1/git/sync", async (c) => {
    const portal = c.get("portal");
    const branch = c.req.query("branch");
    const release = c.req.query("release");
    if (branch !== undefined && release !== undefined) throw new ApiError(400, "invalid-query", "give either branch or release, not both");
    if (branch !== undefined && !validBranch(branch)) throw new ApiError(400, "invalid-query", "branch must be a branch name");
    if (release !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(release)) throw new ApiError(400, "invalid-query", "release must be a version label (letters, digits, . _ + -)");
    const definitions = c.req.queries("definition") ?? [];
    const content = c.req.query("content");
    const paths = definitions.length || content !== undefined
      ? parseGitConnection({ provider: "gitlab", repository: "upload/folder", apiUrl: "https://gitlab.com/api/v4", paths: { definitions: definitions.map((d) => ({ api: d.split("=")[0], file: d.split("=").slice(1).join("=") })), ...(content !== undefined ? { content } : {}) } }, false).paths
      : undefined;
    const db = getDb(c.env.DB);
    if (!paths && !(await findConnection(db, portal.id))) throw new ApiError(400, "no-paths", "no repository is connected: give ?definition=api=file and/or ?content=docs/");
    const body = await readBodyLimited(c.req.raw, MAX_BUNDLE_BYTES);
    if (!body.byteLength) throw new ApiError(400, "empty-body", "post the folder as a .tar.gz body");
    // `Idempotency-Key` (the CLI sends one; a retry sends it again): the same key runs the job once, and a repeat
    // answers with that job's result, as a webhook redelivery is matched by its delivery id.
    const key = c.req.header("idempotency-key");
    if (key !== undefined && !/^[A-Za-z0-9._:-]{8,100}$/.test(key)) throw new ApiError(400, "invalid-idempotency-key", "Idempotency-Key must be 8-100 letters, digits, '.', '_', ':' or '-'");
    const deliveryId = `upload-${key ?? crypto.randomUUID()}`;
    const sha = await sha256Hex(body);
    await putBundle(c.env.DEFINITIONS, sha, body);
    const fresh = await claimDelivery(db, "upload", deliveryId, "sync", portal.id);
    const work: GitWork = branch !== undefined
      ? { kind: "preview", sha: "0".repeat(40), branch, build: true }
      : release !== undefined ? { kind: "release", sha: "upload", tag: release, label: release } : { kind: "production", sha: "upload", branch: "upload" };
    const job: GitJob = { ...work, provider: "upload", upload: { sha256: sha, ...(paths ? { paths } : {}) }, deliveryId, event: "sync", portalId: portal.id, portalSlug: portal.slug, basePath: portalBasePath(portal), origin: publicOrigin(c.env, portal) };
    // The job is stored in the portal's queue like a webhook's (it survives a reset of the object); the answer is its
    // result, from the queue's call or, should that call be cut by a reset, from its delivery once it is recorded.
    const direct = fresh ? (publisherFor(c.env.PUBLISHER, portal.slug).gitSyncNow(job) as Promise<Record<string, unknown>>) : undefined;
    const result = await syncOutcome(db, portal.id, deliveryId, direct);
    if (!result) {
      c.header("location", `/v1/portal/git/deliveries/${deliveryId}`);
      return c.json({ delivery: deliveryId, status: "queued", poll: `/v1/portal/git/deliveries/${deliveryId}` }, 202);
    }
    const failed = result.error !== undefined || result.failure !== undefined;
    return c.json({ delivery: deliveryId, ...(fresh ? {} : { duplicate: true }), ...result }, failed ? 422 : 200);
  })
  .delete("/v1/portal/git", async (c) => {
    const gone = await deleteConnection(getDb(c.env.DB), c.get("portal").id);
    if (!gone) throw new ApiError(404, "not-connected", "no repository is connected");
    return c.json({ disconnected: true });
  });
