/** @module The Hono environment types every route and middleware shares (kept apart from app.ts so routes never import the app). */
import type { PortalRow } from "./store/portals";

/** Bindings and secrets the app reads. `PORTICO_ADMIN_TOKEN` comes from `.dev.vars` locally, a secret in production. */
export type AppEnv = { Bindings: Env & { PORTICO_ADMIN_TOKEN?: string } };

/** Routes behind `requirePortal` see the authenticated portal as `c.var.portal`. */
export type PortalAppEnv = AppEnv & { Variables: { portal: PortalRow } };
