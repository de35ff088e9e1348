/** @module The Worker entry: the Hono app plus the Durable Object classes (PortalPublisher, SignInLimiter, PortalCatalog). */
import { app } from "./app";

export { PortalPublisher } from "./publish/portal-publisher";
export { SignInLimiter } from "./access/sign-in-limiter";
export { PortalCatalog } from "./store/portal-catalog";
export default app;
