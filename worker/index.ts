/**
 * @module The Worker entry: the Hono app behind the Host routing (custom domains, worker/domains/route-host.ts),
 * the scheduled poll of pending custom hostnames, and the Durable Object classes (PortalPublisher, SignInLimiter,
 * PortalCatalog, OrgCredits, PortalAnalytics); the scheduled run also prunes audit entries older than a year.
 */
import { app } from "./app";
import { DEFAULT_BASE_URL } from "./http/public-origin";
import { customHostnamesFor, pollPendingDomains } from "./domains/registry";
import { hostRoutedFetch } from "./domains/route-host";
import { getDb } from "./store/db";
import { pruneAuditLog } from "./workspace/audit";

export { PortalPublisher } from "./publish/portal-publisher";
export { SignInLimiter } from "./access/sign-in-limiter";
export { PortalCatalog } from "./store/portal-catalog";
export { OrgCredits } from "./workspace/credits";
export { PortalAnalytics } from "./analytics/portal-analytics";

export default {
  fetch: hostRoutedFetch(app),
  /** Cron Trigger ([env.production.triggers]): asks the provider about every pending custom hostname. */
  async scheduled(_controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void> {
    ctx.waitUntil((async () => {
      try {
        const activated = await pollPendingDomains(getDb(env.DB), customHostnamesFor(env), env.PORTICO_BASE_URL || DEFAULT_BASE_URL);
        if (activated) console.log(`custom hostnames activated: ${activated}`);
      } catch (error) {
        console.warn("custom hostname poll skipped", String(error));
      }
      try {
        await pruneAuditLog(env.DB);
      } catch (error) {
        console.warn("audit prune skipped", String(error));
      }
    })());
  },
} satisfies ExportedHandler<Env>;
