/**
 * @module PortalPublisher: one Durable Object per portal that serialises publishing.
 *
 * Uploads to one portal queue here in arrival order; each runs to completion (slices in KV, rows in D1, live
 * pointer flipped last) before the next starts, so every accepted version is recorded and the live one is the
 * last accepted. The queue is an explicit promise chain: input gates do not hold across KV/D1 I/O.
 * Each publish runs within a deadline (deadline.ts): one that exceeds its budget or deadline is answered 422 and
 * the queue moves on to the next, whatever the stuck one is still waiting for.
 */
import { DurableObject } from "cloudflare:workers";
import { PUBLISH_DEADLINE_MS, PublishAttempt, settleWithin } from "./deadline";
import { isContentPublishRequest, publishContent } from "./publish-content";
import { publishDefinition } from "./publish-definition";
import { rebuildPortalIndex } from "./search-index";
import { isPublishRequest, type PublishRequest, type PublishResponse } from "./types";

/** The per-portal publishing queue (RPC: `publish(request)`); holds no state of its own beyond the queue. */
export class PortalPublisher extends DurableObject<Env> {
  private tail: Promise<unknown> = Promise.resolve();
  /** Milliseconds each publish may take once it leaves the queue (tests shorten it through runInDurableObject). */
  deadlineMs = PUBLISH_DEADLINE_MS;
  /** The publish work itself (tests replace it through runInDurableObject to simulate a publish that never settles). */
  work: (env: Env, request: PublishRequest, attempt: PublishAttempt) => Promise<PublishResponse> = publishDefinition;

  /** Publishes one uploaded definition after every earlier request of this portal has finished or timed out. */
  async publish(request: unknown): Promise<PublishResponse> {
    if (!isPublishRequest(request)) {
      return { status: 400, json: JSON.stringify({ error: { code: "bad-request", message: "malformed publish request" } }), timings: {} };
    }
    return this.enqueue((attempt) => this.work(this.env, request, attempt));
  }

  /** Publishes one uploaded content bundle, in the same queue as definitions (content links resolve against them). */
  async publishContent(request: unknown): Promise<PublishResponse> {
    if (!isContentPublishRequest(request)) {
      return { status: 400, json: JSON.stringify({ error: { code: "bad-request", message: "malformed content publish request" } }), timings: {} };
    }
    return this.enqueue((attempt) => publishContent(this.env, request, attempt));
  }

  /**
   * Rebuilds the portal's search index from what is live, in the same queue as publishes (so it never races
   * one): after an API's layout changed, its operations' URLs did.
   */
  async reindex(portalId: unknown): Promise<PublishResponse> {
    if (typeof portalId !== "number") return { status: 400, json: JSON.stringify({ error: { code: "bad-request", message: "malformed reindex request" } }), timings: {} };
    return this.enqueue(async (attempt) => {
      await rebuildPortalIndex(this.env, portalId, attempt);
      return { status: 200, json: "{}", timings: {} };
    });
  }

  /**
   * Runs `work` after every earlier request of this portal has finished or timed out, within its own deadline;
   * the deadline starts when the work leaves the queue, not when it joined it.
   */
  private enqueue(work: (attempt: PublishAttempt) => Promise<PublishResponse>): Promise<PublishResponse> {
    const run = this.tail.then(() => {
      const attempt = new PublishAttempt(this.deadlineMs);
      return settleWithin(attempt, work(attempt));
    });
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** The portal's publisher stub (one Durable Object per portal slug). */
export function publisherFor(namespace: DurableObjectNamespace, portalSlug: string): DurableObjectStub<PortalPublisher> {
  const typed = namespace as DurableObjectNamespace<PortalPublisher>;
  return typed.get(typed.idFromName(portalSlug));
}
