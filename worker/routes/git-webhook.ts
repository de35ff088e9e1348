/**
 * @module Provider webhooks (docs/git.md): `POST /v1/git/github/webhook` (`X-Hub-Signature-256` verified
 * over the raw body before it is parsed) and `POST /v1/git/gitlab/webhook` (`X-Gitlab-Token`, constant time).
 * A bad or missing signature is 401 and changes nothing. Each verified delivery is recorded once per portal by
 * its delivery id (a redelivery does nothing again), handed to the portal's PortalPublisher queue, and answered
 * 202 at once: the work (archive, publish, preview, checks) goes on in the queue.
 */
import { Hono, type Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { readBodyLimited } from "../http/read-body";
import { portalBasePath } from "../render/shell/base-path";
import { getDb } from "../store/db";
import { claimDelivery, connectionsFor } from "../store/git";
import { findPortalById } from "../store/portals";
import { publisherFor } from "../publish/portal-publisher";
import { githubWork, gitlabWork, payloadInstallation, payloadRepository, type GitJob } from "../git/events";
import { verifyGitHubSignature, verifyGitLabToken } from "../git/signature";
import type { GitProvider } from "../git/config";

/** GitHub caps webhook payloads at 25 MB; anything Portico acts on is far smaller. */
export const MAX_WEBHOOK_BYTES = 5 * 1024 * 1024;

async function accept(c: Context<AppEnv>, provider: GitProvider, event: string, deliveryId: string, raw: Uint8Array) {
  let payload: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(raw));
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    payload = parsed as Record<string, unknown>;
  } catch {
    throw new ApiError(400, "invalid-json", "the webhook body is not a JSON object");
  }
  if (event === "ping") return c.json({ delivery: deliveryId, event, queued: [] }, 200);
  const repository = payloadRepository(provider, payload);
  if (!repository) return c.json({ delivery: deliveryId, event, queued: [], ignored: "no repository in the payload" }, 202);
  const db = getDb(c.env.DB);
  const installation = provider === "github" ? payloadInstallation(payload) : undefined;
  const queued: string[] = [];
  const duplicates: string[] = [];
  for (const conn of await connectionsFor(db, provider, repository)) {
    // A GitHub App delivery names its installation: another installation's events never reach this portal.
    if (provider === "github" && installation !== undefined && conn.installationId !== installation) continue;
    const work = provider === "github" ? githubWork(conn, event, payload) : gitlabWork(conn, event, payload);
    if (!work) continue;
    const portal = await findPortalById(db, conn.portalId);
    if (!portal) continue;
    if (!(await claimDelivery(db, provider, deliveryId, event, portal.id))) {
      duplicates.push(portal.slug);
      continue;
    }
    const job: GitJob = { ...work, provider, deliveryId, event, portalId: portal.id, portalSlug: portal.slug, basePath: portalBasePath(portal), origin: publicOrigin(c.env, portal) };
    await publisherFor(c.env.PUBLISHER, portal.slug).gitSync(job);
    queued.push(portal.slug);
  }
  return c.json({ delivery: deliveryId, event, queued, ...(duplicates.length ? { duplicate: duplicates } : {}) }, 202);
}

function deliveryIdOf(value: string | undefined): string {
  if (!value || value.length > 128 || !/^[\x21-\x7e]+$/.test(value)) throw new ApiError(400, "missing-delivery", "the delivery id header is missing or malformed");
  return value;
}

export const gitWebhookRoutes = new Hono<AppEnv>()
  .post("/v1/git/github/webhook", async (c) => {
    const secret = c.env.GITHUB_WEBHOOK_SECRET;
    if (!secret) throw new ApiError(503, "not-configured", "GitHub sync is not configured on this service (GITHUB_WEBHOOK_SECRET)");
    const raw = await readBodyLimited(c.req.raw, MAX_WEBHOOK_BYTES);
    if (!(await verifyGitHubSignature(secret, raw, c.req.header("x-hub-signature-256")))) {
      throw new ApiError(401, "bad-signature", "X-Hub-Signature-256 is missing or is not the HMAC-SHA256 of the body with the webhook secret");
    }
    const event = c.req.header("x-github-event") ?? "";
    return accept(c, "github", event, deliveryIdOf(c.req.header("x-github-delivery")), raw);
  })
  .post("/v1/git/gitlab/webhook", async (c) => {
    const secret = c.env.GITLAB_WEBHOOK_SECRET;
    if (!secret) throw new ApiError(503, "not-configured", "GitLab sync is not configured on this service (GITLAB_WEBHOOK_SECRET)");
    if (!(await verifyGitLabToken(secret, c.req.header("x-gitlab-token")))) {
      throw new ApiError(401, "bad-token", "X-Gitlab-Token is missing or is not the webhook's secret token");
    }
    const raw = await readBodyLimited(c.req.raw, MAX_WEBHOOK_BYTES);
    const event = c.req.header("x-gitlab-event") ?? "";
    return accept(c, "gitlab", event, deliveryIdOf(c.req.header("x-gitlab-event-uuid") ?? c.req.header("idempotency-key")), raw);
  });
