/** @module The Worker entry: the Hono app plus the Durable Object classes (PortalPublisher, SignInLimiter). */
import { app } from "./app";

export { PortalPublisher } from "./publish/portal-publisher";
export { SignInLimiter } from "./access/sign-in-limiter";
export default app;
