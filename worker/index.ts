/** @module The Worker entry: the Hono app plus the Durable Object classes (PortalPublisher, SignInLimiter, AssistantLimiter). */
import { app } from "./app";

export { PortalPublisher } from "./publish/portal-publisher";
export { SignInLimiter } from "./access/sign-in-limiter";
export { AssistantLimiter } from "./assistant/limiter";
export default app;
