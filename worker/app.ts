/** @module The Hono app: mounts one sub-app per resource and maps errors to JSON problems. */
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { ApiError } from "./http/errors";
import { apisRoutes } from "./routes/apis";
import { contentRoutes } from "./routes/content";
import { contentPagesRoutes } from "./routes/content-pages";
import { portalsRoutes } from "./routes/portals";
import { editorRoutes } from "./routes/editor";
import { referenceRoutes } from "./routes/reference";
import { sitemapRoutes } from "./routes/sitemap";
import type { AppEnv } from "./env";

export const app = new Hono<AppEnv>()
  .get("/healthz", (c) => c.json({ ok: true }))
  .route("/", portalsRoutes)
  .route("/", apisRoutes)
  .route("/", contentRoutes)
  .route("/", contentPagesRoutes)
  .route("/", referenceRoutes)
  .route("/", sitemapRoutes)
  .route("/", editorRoutes);

app.notFound((c) => {
  if (c.req.path.startsWith("/v1/")) return c.json({ error: { code: "not-found", message: `no route ${c.req.method} ${c.req.path}` } }, 404);
  return c.text("Not found", 404);
});

app.onError((error, c) => {
  if (error instanceof ApiError) return c.json(error.toBody(), error.status);
  if (error instanceof HTTPException) {
    return c.json({ error: { code: "http-error", message: error.message || "request refused" } }, error.status);
  }
  console.error("unhandled error", c.req.method, c.req.path, error);
  return c.json({ error: { code: "internal", message: "internal error" } }, 500);
});
