/** @module The Worker entry: the Hono app plus the PortalPublisher Durable Object class. */
import { app } from "./app";

export { PortalPublisher } from "./publish/portal-publisher";
export default app;
