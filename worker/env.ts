/** @module The Hono environment types every route and middleware shares (kept apart from app.ts so routes never import the app). */
import type { PagePolicy } from "./http/page-policy";
import type { PortalRow, TokenAuth } from "./store/portals";

/**
 * Bindings and secrets the app reads, as `wrangler types` generates them (`npm run types`). `PORTICO_ADMIN_TOKEN`
 * comes from `.dev.vars` locally and a secret in production; code still treats it as possibly unset.
 * `PORTICO_BASE_URL` (wrangler.toml `[vars]`) is the service's public origin, the base of absolute URLs for
 * portals without their own origin.
 */
export type AppEnv = {
  Bindings: Env;
  /**
   * `pagePolicy`: set by pages that know their portal (worker/http/page-policy.ts), read by security-headers.ts;
   * `inlineStyles`: the exact text of `<style>` elements the page carries (the brand's tokens), admitted by hash.
   */
  Variables: { pagePolicy?: PagePolicy; inlineStyles?: string[] };
};

/** Routes behind `requirePortal` see the authenticated portal as `c.var.portal` and its token as `c.var.token`. */
export type PortalAppEnv = AppEnv & { Variables: { portal: PortalRow; token: TokenAuth } };
