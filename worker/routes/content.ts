/**
 * @module The portal's written content over the service API (portal token): `POST /v1/content/upload` (a raw
 * .tar.gz/.zip bundle, published through the portal's PortalPublisher) and `GET /v1/content` (the live release).
 * Reader pages are in content-pages.ts.
 */
import { portalBasePath } from "../render/shell/base-path";
import { Hono } from "hono";
import type { PortalAppEnv } from "../env";
import { pagePath } from "../content/compile";
import { ApiError } from "../http/errors";
import { publishAnswer, survivingReset } from "../http/publish-answer";
import { publicOrigin } from "../http/public-origin";
import { readBodyLimited } from "../http/read-body";
import { requirePortal } from "../middleware/auth";
import { publisherFor } from "../publish/portal-publisher";
import type { ContentPublishRequest } from "../publish/publish-content";
import { liveReleaseWithPages, putBundle } from "../store/content";
import { sha256Hex } from "../store/tokens";

/** Largest accepted bundle body: 25 MiB compressed (the archive limits bound what it inflates to). */
export const MAX_BUNDLE_BYTES = 25 * 1024 * 1024;

const REFUSED_MEDIA = /^(multipart\/|application\/x-www-form-urlencoded|text\/)/i;

function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true" || value === "") return true;
  throw new ApiError(400, "invalid-query", `${name} must be true or false`);
}

export const contentRoutes = new Hono<PortalAppEnv>()
  .use("/v1/content/*", requirePortal)
  .use("/v1/content", requirePortal)
  .post("/v1/content/upload", async (c) => {
    const portal = c.get("portal");
    const contentType = c.req.header("content-type") ?? "application/octet-stream";
    if (REFUSED_MEDIA.test(contentType)) {
      throw new ApiError(415, "unsupported-media-type", `${contentType.split(";")[0]} is not accepted: post the bundle as a raw .tar.gz or .zip body`);
    }
    const dryRun = flag(c.req.query("dryRun"), "dryRun");
    const allowBrokenLinks = flag(c.req.query("allowBrokenLinks"), "allowBrokenLinks");
    const body = await readBodyLimited(c.req.raw, MAX_BUNDLE_BYTES);
    if (body.byteLength === 0) throw new ApiError(400, "empty-body", "the request body is empty: post the bundle (.tar.gz or .zip) as the body");
    const sha256 = await sha256Hex(body);
    await putBundle(c.env.DEFINITIONS, sha256, body);
    const request: ContentPublishRequest = { portalId: portal.id, portalSlug: portal.slug, basePath: portalBasePath(portal), sha256, dryRun, allowBrokenLinks, origin: publicOrigin(c.env, portal) };
    const result = await survivingReset(() => publisherFor(c.env.PUBLISHER, portal.slug).publishContent(request));
    return publishAnswer(result);
  })
  .get("/v1/content", async (c) => {
    const portal = c.get("portal");
    const live = await liveReleaseWithPages(c.env, portal.id);
    if (!live) return c.json({ release: null, pages: [], checks: null });
    const { release, pages } = live;
    const origin = publicOrigin(c.env, portal);
    const defaultLocale = release.config.locales[0];
    return c.json({
      release: { id: release.id, digest: release.digest, publishedAt: release.createdAt, locales: release.config.locales, guides: release.pages, steps: release.steps, changelog: release.changelog, glossary: release.glossary.length },
      pages: pages.map((p) => ({
        kind: p.kind, slug: p.slug, locale: p.locale, title: p.title, tags: p.tags, audiences: p.labels, file: p.file,
        url: `${origin}${portalBasePath(portal)}${pagePath(p.kind, p.slug, p.locale, defaultLocale)}`,
        ...(p.changelog ? { changelog: p.changelog } : {}),
      })),
      checks: release.checks,
    });
  });
