/** @module The Hono app: mounts one sub-app per resource and maps errors to JSON problems. */
import { Hono } from "hono";

/** Bindings and secrets the app reads. `PORTICO_ADMIN_TOKEN` comes from `.dev.vars` locally, a secret in production. */
export type AppEnv = { Bindings: Env & { PORTICO_ADMIN_TOKEN?: string } };

export const app = new Hono<AppEnv>();
app.get("/healthz", (c) => c.json({ ok: true }));
