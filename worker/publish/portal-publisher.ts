/** @module PortalPublisher: one Durable Object per portal that serialises publishing. */
import { DurableObject } from "cloudflare:workers";

export class PortalPublisher extends DurableObject<Env> {}
