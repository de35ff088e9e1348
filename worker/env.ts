/** @module The Hono environment types every route and middleware shares (kept apart from app.ts so routes never import the app). */
import type { PortalRow } from "./store/portals";

/**
 * Bindings and secrets the app reads, as `wrangler types` generates them (`npm run types`). `PORTICO_ADMIN_TOKEN`
 * comes from `.dev.vars` locally and a secret in production; code still treats it as possibly unset.
 */
export type AppEnv = { Bindings: Env };

/** Routes behind `requirePortal` see the authenticated portal as `c.var.portal`. */
export type PortalAppEnv = AppEnv & { Variables: { portal: PortalRow } };
