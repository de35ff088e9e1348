/**
 * @module PortalPublisher: one Durable Object per portal that serialises publishing.
 *
 * Uploads to one portal queue here in arrival order; each runs to completion (slices in KV, rows in D1, live
 * pointer flipped last) before the next starts, so every accepted version is recorded and the live one is the
 * last accepted. The queue is an explicit promise chain: input gates do not hold across KV/D1 I/O.
 * Each publish runs within a deadline (deadline.ts): one that exceeds its budget or deadline is answered 422 and
 * the queue moves on to the next, whatever the stuck one is still waiting for.
 * A large definition's lint runs after its answer (issue 12): the upload is answered as soon as the version is
 * live, then its lint runs in the same queue slot, within a deadline of its own, and stores the report on the
 * version; the next publish starts when it is done (lint is synchronous CPU work: running it beside the next
 * build would only slow both, and hold two parsed definitions in one isolate).
 */
import { DurableObject } from "cloudflare:workers";
import { PUBLISH_DEADLINE_MS, PublishAttempt, settleWithin } from "./deadline";
import { isContentPublishRequest, publishContent } from "./publish-content";
import { INLINE_LINT_BUDGET } from "../openapi/budgets";
import { getDb } from "../store/db";
import { recordLint } from "../store/apis";
import { catalogFor } from "../store/portal-catalog";
import { publishDefinition, type PublishOptions } from "./publish-definition";
import { storedLintJson } from "./lint-step";
import { rebuildPortalIndex } from "./search-index";
import { discardUnlisted } from "./search-semantic";
import { LengthMismatch, readExactly } from "../lib/pieces";
import { isGitJob, type GitJob } from "../git/events";
import { runGitJob } from "../git/sync";
import { finishDelivery } from "../store/git";
import { isPublishMessage, type LateLint, type PublishMessage, type PublishRequest, type PublishResponse } from "./types";

/**
 * Milliseconds a late lint waits for its upload route's `startLateLint` call before starting anyway (a route that
 * failed after the publish answered must not leave the version pending, nor hold the queue long).
 */
export const LATE_LINT_START_MS = 2_000;

/** Milliseconds between `startLateLint` and the lint itself (see there). */
export const LATE_LINT_SETTLE_MS = 100;

/** Storage key prefix of queued Git jobs (`gitjob:{ms}:{seq}`: listed in the order they were queued). */
const GIT_JOB_PREFIX = "gitjob:";
/** Runs a stored Git job gets (the first, and resumes after resets) before it is given up. */
export const GIT_JOB_MAX_RUNS = 3;
/** Milliseconds after queueing (or resuming) that the alarm looks for stored jobs left by a reset. */
export const GIT_RESUME_ALARM_MS = 5 * 60 * 1000;

/** A Git job as stored until it has run. */
interface StoredGitJob {
  job: GitJob;
  /** How many times it has been started (a resume after a reset counts). */
  runs: number;
}

/** Milliseconds an abandoned publish's work is waited for before the vectors it stored are discarded. */
const DISCARD_WAIT_MS = 5_000;

/** The per-portal publishing queue (RPC: `publish(request)`); holds no state of its own beyond the queue. */
export class PortalPublisher extends DurableObject<Env> {
  private tail: Promise<unknown> = Promise.resolve();
  /** Milliseconds each publish may take once it leaves the queue (tests shorten it through runInDurableObject). */
  deadlineMs = PUBLISH_DEADLINE_MS;
  /** Bodies up to this many bytes are linted within the upload's request; larger ones after it (tests lower it). */
  inlineLintMaxBytes: number = INLINE_LINT_BUDGET.maxBytes;
  /** Work units a lint within the upload's request may spend; a lint needing more is done after it (tests lower it). */
  inlineLintWork: number = INLINE_LINT_BUDGET.maxWork;
  /** The publish work itself (tests replace it through runInDurableObject to simulate a publish that never settles). */
  work: (env: Env, request: PublishRequest, attempt: PublishAttempt, options: PublishOptions) => Promise<PublishResponse> = publishDefinition;
  /** Runs a late lint (tests wrap it through runInDurableObject to hold the report back). */
  lateLint: (job: LateLint, attempt: PublishAttempt) => Promise<void> = (job, attempt) => job.run(attempt);
  /** Late lints waiting for their upload's response to leave: version id → start. */
  private readonly waiting = new Map<number, () => void>();

  /**
   * Starts the late lint of `versionId` (the upload route calls it once its response is handed to the runtime:
   * lint is synchronous, and where the Worker and this object share an isolate, as under `wrangler dev`, a lint
   * started earlier holds the answer back until it is done). Without the call, it starts after LATE_LINT_START_MS.
   */
  async startLateLint(versionId: unknown): Promise<void> {
    const start = typeof versionId === "number" ? this.waiting.get(versionId) : undefined;
    // workerd runs every isolate of a process on one thread: the response still has to pass the runtime's (and,
    // locally, wrangler's proxy) workers to reach the client, and a synchronous lint would stall it there.
    if (start) setTimeout(start, LATE_LINT_SETTLE_MS);
  }

  /**
   * Publishes one uploaded definition after every earlier request of this portal has finished or timed out. A handed
   * body (a byte stream: types.ts PublishMessage) is read into one buffer first, before the publish joins the queue
   * (`handoff` in the answer's timings, milliseconds); a stream of another length than `bodyBytes` is answered 400
   * with nothing written.
   */
  async publish(message: unknown): Promise<PublishResponse> {
    if (!isPublishMessage(message)) {
      return { status: 400, json: JSON.stringify({ error: { code: "bad-request", message: "malformed publish request" } }), timings: {} };
    }
    const started = Date.now();
    let request: PublishRequest;
    try {
      request = await handedRequest(message);
    } catch (error) {
      if (!(error instanceof LengthMismatch)) throw error;
      return { status: 400, json: JSON.stringify({ error: { code: "bad-request", message: `malformed publish request: the handed body's ${error.message}` } }), timings: {} };
    }
    const handoff = message.body ? { handoff: Date.now() - started } : undefined;
    // `queue`: the wait behind this portal's earlier publishes and late lints (issue 37: a publish's time beside the
    // portal's size, apart from its own steps).
    const queued = Date.now();
    let waited = 0;
    const answer = await this.enqueue((attempt) => {
      waited = Date.now() - queued;
      return this.work(this.env, request, attempt, { inlineLintMaxBytes: this.inlineLintMaxBytes, inlineLintWork: this.inlineLintWork });
    });
    return { ...answer, timings: { ...handoff, queue: waited, ...answer.timings } };
  }

  /** Publishes one uploaded content bundle, in the same queue as definitions (content links resolve against them). */
  async publishContent(request: unknown): Promise<PublishResponse> {
    if (!isContentPublishRequest(request)) {
      return { status: 400, json: JSON.stringify({ error: { code: "bad-request", message: "malformed content publish request" } }), timings: {} };
    }
    return this.enqueue((attempt) => publishContent(this.env, request, attempt));
  }

  /** The Git sync job runner (tests replace it through runInDurableObject to point at their fake provider). */
  gitWork: (env: Env, job: GitJob) => Promise<unknown> = (env, job) => runGitJob(env, job);
  /** Stored Git jobs (storage keys) queued in this instance: a resume skips them. */
  private readonly gitInFlight = new Set<string>();
  private gitSeq = 0;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Git jobs queued before a reset (deploy, eviction, crash) are stored: they run again, in their order, as soon
    // as the object starts (any call, or the alarm set when they were queued).
    ctx.blockConcurrencyWhile(() => this.resumeGitJobs());
  }

  /**
   * Queues one Git sync job (worker/git/sync.ts) behind this portal's earlier publishes and answers at once: the
   * webhook that asked is answered within GitHub's 10 s while the work (archive, builds, checks) runs here. The
   * job records its outcome on its delivery; it is not bound by one publish's deadline (each publish it makes is).
   * The job is stored in this object's storage before it is answered and deleted once it finished, so a reset of
   * the object does not lose it (resumed at the next start or alarm; GIT_JOB_MAX_RUNS runs at most).
   */
  async gitSync(job: unknown): Promise<{ queued: boolean }> {
    if (!isGitJob(job)) return { queued: false };
    // The result is recorded on the delivery (the webhook's caller does not wait for it); a failure is logged in the chain.
    this.queueGitJob(await this.storeGitJob(job), job).catch(() => undefined);
    return { queued: true };
  }

  /** Stores a Git job before it is queued (and the alarm that resumes it after a reset); its storage key. */
  private async storeGitJob(job: GitJob): Promise<string> {
    const key = `${GIT_JOB_PREFIX}${String(Date.now()).padStart(15, "0")}:${String(++this.gitSeq).padStart(6, "0")}`;
    await this.ctx.storage.put(key, { job, runs: 1 } satisfies StoredGitJob);
    await this.ctx.storage.setAlarm(Date.now() + GIT_RESUME_ALARM_MS);
    return key;
  }

  /** The alarm set when a Git job was queued: resumes stored jobs this instance is not running (after a reset). */
  async alarm(): Promise<void> {
    await this.resumeGitJobs();
  }

  /** Chains a stored job on the queue; its result (the job's, as recorded on its delivery), or its failure. */
  private queueGitJob(key: string, job: GitJob): Promise<unknown> {
    this.gitInFlight.add(key);
    const result = this.tail.then(() => this.gitWork(this.env, job));
    const run = result
      .catch((error) => console.error("git sync job failed", job.deliveryId, error))
      .then(() => this.ctx.storage.delete(key))
      .catch((error) => console.error("git sync: the finished job could not be unstored", job.deliveryId, error))
      .finally(() => this.gitInFlight.delete(key));
    this.tail = run;
    this.ctx.waitUntil(run);
    return result;
  }

  /**
   * Queues the stored Git jobs this instance is not running, oldest first. A job stored GIT_JOB_MAX_RUNS times
   * already (it reset the object each time) is dropped with a failed delivery rather than run again. While jobs
   * remain, the alarm stays set.
   */
  private async resumeGitJobs(): Promise<void> {
    const stored = await this.ctx.storage.list<StoredGitJob>({ prefix: GIT_JOB_PREFIX });
    let waiting = false;
    for (const [key, entry] of stored) {
      if (this.gitInFlight.has(key)) {
        waiting = true;
        continue;
      }
      if (!entry || !isGitJob(entry.job)) {
        await this.ctx.storage.delete(key);
        continue;
      }
      if (entry.runs >= GIT_JOB_MAX_RUNS) {
        await this.ctx.storage.delete(key);
        const result = { kind: entry.job.kind, error: { code: "interrupted", message: `the job was interrupted ${entry.runs} times; push again to retry` } };
        await finishDelivery(getDb(this.env.DB), entry.job.provider, entry.job.deliveryId, entry.job.portalId, "failed", result).catch((error) => console.error("git sync: recording an interrupted job failed", error));
        continue;
      }
      await this.ctx.storage.put(key, { job: entry.job, runs: entry.runs + 1 } satisfies StoredGitJob);
      this.queueGitJob(key, entry.job).catch(() => undefined);
      waiting = true;
    }
    if (waiting) await this.ctx.storage.setAlarm(Date.now() + GIT_RESUME_ALARM_MS);
  }

  /**
   * Queues one Git sync job as {@link gitSync} does (stored first, so a reset of the object resumes it) and answers
   * with its result once it ran (`POST /v1/git/sync`: `portico sync` waits for it). Should the object reset meanwhile,
   * this call fails but the job still runs; its caller then reads the result from the delivery (routes/git.ts).
   */
  async gitSyncNow(job: unknown): Promise<unknown> {
    if (!isGitJob(job)) return { error: { code: "bad-request", message: "malformed sync job" } };
    return this.queueGitJob(await this.storeGitJob(job), job);
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
    let answer!: (response: PublishResponse) => void;
    let fail!: (error: unknown) => void;
    const answered = new Promise<PublishResponse>((resolve, reject) => ((answer = resolve), (fail = reject)));
    const run = this.tail.then(async () => {
      const attempt = new PublishAttempt(this.deadlineMs);
      let late: LateLint | undefined;
      const working = work(attempt);
      try {
        // The late lint never crosses RPC: only the answer does.
        const { lateLint, ...response } = await settleWithin(attempt, working);
        late = lateLint;
        answer(late ? { ...response, lateLintVersion: late.versionId } : response);
      } catch (error) {
        fail(error);
      } finally {
        await this.discardVectors(attempt, working);
      }
      if (late) await this.runLateLint(late);
    });
    this.tail = run.catch(() => undefined);
    return answered;
  }

  /**
   * Deletes the vectors `attempt` stored that its portal's live index does not list, once its work has settled
   * (an abandoned one may still be storing; it is waited for DISCARD_WAIT_MS at most): a publish that failed or ran
   * out of time never goes live, and no later publish would delete them. Runs in the attempt's queue slot, so the
   * next publish, which may store the same content-addressed ids, starts after it.
   */
  private async discardVectors(attempt: PublishAttempt, working: Promise<unknown>): Promise<void> {
    if (!attempt.vectorsStored.size) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([working.catch(() => undefined), new Promise((resolve) => (timer = setTimeout(resolve, DISCARD_WAIT_MS)))]);
    clearTimeout(timer);
    for (const [portalId, ids] of attempt.vectorsStored) await discardUnlisted(this.env, portalId, ids);
  }

  /**
   * Runs a late lint once the upload's answer has gone out, within its own deadline (the same as a publish's).
   * Whatever stops it (the deadline, a failure storing the report), the version gets a report saying so rather
   * than staying "pending"; lint errors themselves never fail anything (the version is already live).
   */
  private async runLateLint(job: LateLint): Promise<void> {
    // Lint is synchronous: wait until the upload's answer has left (startLateLint), or a moment at most.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, LATE_LINT_START_MS);
      this.waiting.set(job.versionId, () => (clearTimeout(timer), resolve()));
    });
    this.waiting.delete(job.versionId);
    const attempt = new PublishAttempt(this.deadlineMs);
    if (job.step === "search") return this.runLateSearch(job, attempt);
    const stopped = async (why: string) => {
      const report = { errors: 0, warnings: 0, issues: [], note: `lint did not complete (${why}); publish the definition again to lint it` };
      try {
        await recordLint(getDb(this.env.DB), catalogFor(this.env, job.portalId), job.versionId, report, storedLintJson(report));
      } catch (error) {
        console.error("late lint: storing its report failed", job.versionId, error);
      }
    };
    try {
      const outcome = await settleWithin(attempt, this.lateLint(job, attempt).then(() => ({ status: 200 as const, json: "{}", timings: {} })));
      if (outcome.status !== 200) await stopped("it ran past its deadline");
    } catch (error) {
      console.error("late lint failed", job.versionId, error);
      await stopped(error instanceof Error ? error.message.slice(0, 200) : "it failed");
    }
  }

  /**
   * Runs a streamed definition's search shard build after its answer (storage37c), within its own deadline. The
   * version is live either way: should the build fail or run out of time, the API's previous shard (or none, for a
   * new API) stays live, which a later publish of the portal or posting the definition again repairs (logged).
   */
  private async runLateSearch(job: LateLint, attempt: PublishAttempt): Promise<void> {
    const working = this.lateLint(job, attempt);
    try {
      const outcome = await settleWithin(attempt, working.then(() => ({ status: 200 as const, json: "{}", timings: {} })));
      if (outcome.status !== 200) console.error("late search shard: it ran past its deadline; the API's previous shard stays live", job.versionId);
    } catch (error) {
      console.error("late search shard failed; the API's previous shard stays live", job.versionId, error);
    } finally {
      await this.discardVectors(attempt, working);
    }
  }
}

/** A publish message as the publish runs it: its handed body (if any) read whole, exactly `bodyBytes` bytes. */
async function handedRequest(message: PublishMessage): Promise<PublishRequest> {
  const { body, bodyBytes, ...rest } = message;
  if (!body || bodyBytes === undefined) return rest;
  return { ...rest, body: await readExactly(body, bodyBytes) };
}

/** The portal's publisher stub (one Durable Object per portal slug). */
export function publisherFor(namespace: DurableObjectNamespace, portalSlug: string): DurableObjectStub<PortalPublisher> {
  const typed = namespace as DurableObjectNamespace<PortalPublisher>;
  return typed.get(typed.idFromName(portalSlug));
}
