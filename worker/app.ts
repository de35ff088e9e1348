/**
 * @module The Hono app: security headers on every answer, one sub-app per resource, errors mapped to JSON
 * problems.
 */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { readerCacheMiddleware, SignInRequired } from "./access/resolve";
import { ApiError } from "./http/errors";
import { ClientAbortError } from "./http/read-body";
import { securityHeadersMiddleware } from "./http/security-headers";
import { analyticsRoutes } from "./routes/analytics";
import { apiKeyRoutes } from "./routes/api-key";
import { assistantRoutes } from "./routes/assistant";
import { apisRoutes } from "./routes/apis";
import { authRoutes } from "./routes/auth";
import { contentRoutes } from "./routes/content";
import { gitRoutes } from "./routes/git";
import { gitWebhookRoutes } from "./routes/git-webhook";
import { contentPagesRoutes } from "./routes/content-pages";
import { previewSearchRoutes } from "./routes/preview-search";
import { portalSettingsRoutes, portalsRoutes } from "./routes/portals";
import { domainRoutes } from "./routes/domain";
import { editorRoutes } from "./routes/editor";
import { changelogAdminRoutes } from "./routes/changelog-admin";
import { playgroundRoutes } from "./routes/playground";
import { playgroundOAuthRoutes } from "./routes/playground-oauth";
import { referenceRoutes } from "./routes/reference";
import { samlReaderRoutes, samlSettingsRoutes } from "./routes/saml";
import { searchRoutes } from "./routes/search";
import { mcpRoutes } from "./routes/mcp";
import { mcpOAuthRoutes } from "./routes/mcp-oauth";
import { docsApiKeyRoutes, docsApiRoutes } from "./routes/docs-api";
import { embedRoutes } from "./routes/embed";
import { organisationRoutes } from "./routes/organisations";
import { workspaceRoutes } from "./routes/workspace";
import { writerSamlRoutes } from "./routes/writer-saml";
import { dashboardRoutes } from "./routes/dashboard";
import { sitemapRoutes } from "./routes/sitemap";
import type { AppEnv } from "./env";

/** HTTP status logged (and answered, should anyone still listen) when the client left mid-request (nginx's convention). */
export const CLIENT_CLOSED_REQUEST = 499;

export const app = new Hono<AppEnv>()
  .use("*", securityHeadersMiddleware)
  .use("/p/*", readerCacheMiddleware)
  .get("/healthz", (c) => c.json({ ok: true }))
  .route("/", portalsRoutes)
  .route("/", portalSettingsRoutes)
  .route("/", domainRoutes)
  .route("/", samlSettingsRoutes)
  .route("/", samlReaderRoutes)
  .route("/", apiKeyRoutes)
  .route("/", apisRoutes)
  .route("/", contentRoutes)
  .route("/", gitRoutes)
  .route("/", gitWebhookRoutes)
  .route("/", authRoutes)
  .route("/", searchRoutes)
  .route("/", mcpRoutes)
  .route("/", mcpOAuthRoutes)
  .route("/", docsApiRoutes)
  .route("/", docsApiKeyRoutes)
  .route("/", embedRoutes)
  .route("/", assistantRoutes)
  .route("/", playgroundRoutes)
  .route("/", playgroundOAuthRoutes)
  .route("/", workspaceRoutes)
  .route("/", writerSamlRoutes)
  .route("/", dashboardRoutes)
  .route("/", organisationRoutes)
  .route("/", contentPagesRoutes)
  .route("/", previewSearchRoutes)
  .route("/", referenceRoutes)
  .route("/", sitemapRoutes)
  .route("/", editorRoutes)
  .route("/", changelogAdminRoutes)
  .route("/", analyticsRoutes);

app.notFound((c) => {
  if (c.req.path.startsWith("/v1/")) return c.json({ error: { code: "not-found", message: `no route ${c.req.method} ${c.req.path}` } }, 404);
  return c.text("Not found", 404);
});

app.onError((error, c) => {
  if (error instanceof SignInRequired) return c.redirect(error.location, 303);
  if (error instanceof ApiError) return c.json(error.toBody(), error.status);
  if (error instanceof HTTPException) {
    return c.json({ error: { code: "http-error", message: error.message || "request refused" } }, error.status);
  }
  if (error instanceof ClientAbortError) {
    console.warn("client abort", c.req.method, c.req.path, String(error.cause ?? ""));
    return new Response(null, { status: CLIENT_CLOSED_REQUEST });
  }
  console.error("unhandled error", c.req.method, c.req.path, error);
  return c.json({ error: { code: "internal", message: "internal error" } }, 500);
});
