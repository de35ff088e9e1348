/**
 * @module One publish's deadline (issue 14: after one stuck publish, every later upload to the portal hung
 * behind it in the serialised queue). Two mechanisms, because workerd cannot preempt synchronous code:
 *
 * - cooperative: the attempt's {@link WorkBudget} is passed into the build, which spends it in its loops and stops
 *   with 422 when the work units or the deadline run out; `checkpoint` is called before every write, so a publish
 *   past its deadline never writes D1 (it may have written content-addressed KV chunks, which nothing reads);
 * - preemptive for awaits: {@link settleWithin} answers 422 when the publish has not settled by its deadline, and
 *   the queue moves on; the abandoned work is marked aborted and stops at its next checkpoint. Once the final D1
 *   transaction has started, the deadline waits for it (bounded by D1), so the answer never contradicts storage.
 */
import { BudgetExceeded, type WorkBudget } from "../openapi/work-budget";
import { publishBudget } from "../openapi/build";
import type { PublishResponse } from "./types";

/**
 * Wall-clock milliseconds one publish may take once it leaves the queue. GitHub's 13 MB description took 6-9 s
 * in workerd on a loaded 2-core machine (lint ~3-5 s of it), so 30 s leaves it room; a stuck publish holds its
 * portal's queue for at most this long.
 */
export const PUBLISH_DEADLINE_MS = 30_000;

/** Thrown by {@link PublishAttempt.checkpoint} once the attempt is past its deadline or abandoned. */
export class PublishAborted extends Error {
  constructor(readonly step: string) {
    super(`publish stopped before ${step}: past its deadline`);
    this.name = "PublishAborted";
  }
}

/** The deadline, work budget and cancellation state of one publish. */
export class PublishAttempt {
  /** Set by {@link settleWithin} when it has answered for this attempt: the work must not write anything more. */
  aborted = false;
  /** Set just before the final D1 transaction: from then on the deadline waits for the outcome. */
  committing = false;
  /**
   * Vector ids this attempt stored (search-semantic.ts), by portal: once the attempt has settled, the
   * PortalPublisher deletes those its portal's live index does not list (a publish that failed, timed out or was
   * a dry run never went live, and nothing else would ever delete them).
   */
  readonly vectorsStored = new Map<number, string[]>();
  readonly budget: WorkBudget;
  /** Epoch milliseconds by which the publish must have answered. */
  readonly deadline: number;

  /** An attempt starting now with `ms` milliseconds to go. */
  constructor(
    readonly ms: number = PUBLISH_DEADLINE_MS,
    private readonly now: () => number = Date.now,
  ) {
    this.deadline = now() + ms;
    this.budget = publishBudget(this.deadline);
  }

  /** Throws {@link PublishAborted} when the attempt was abandoned or is past its deadline; call before each write. */
  checkpoint(step: string): void {
    if (this.aborted || this.now() > this.deadline) {
      this.aborted = true;
      throw new PublishAborted(step);
    }
  }
}

/** The 422 of a publish stopped by its deadline or budget; nothing it did is visible. */
export function deadlineRefusal(detail: string): PublishResponse {
  const message = `the publish was stopped: ${detail}; nothing was published and the portal's other uploads go on`;
  return { status: 422, json: JSON.stringify({ error: { code: "over-budget", message } }), timings: {} };
}

/** Maps a budget or deadline error thrown by the publish work to its 422; rethrows anything else. */
export function refusalFor(error: unknown): PublishResponse {
  if (error instanceof BudgetExceeded) {
    const why = error.reason === "time" ? "it took longer than a publish may take" : "it needed more work than a publish may do";
    return deadlineRefusal(`${why} (while ${error.step})`);
  }
  if (error instanceof PublishAborted) return deadlineRefusal(`it ran past its deadline (before ${error.step})`);
  throw error;
}

/**
 * Resolves with `work`'s answer, or with a 422 once `attempt.deadline` passes first (unless the final commit has
 * started: then with the commit's outcome). Budget and deadline errors thrown by `work` become their 422.
 */
export function settleWithin(attempt: PublishAttempt, work: Promise<PublishResponse>, now: () => number = Date.now): Promise<PublishResponse> {
  const answered = work.catch(refusalFor);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<PublishResponse>((resolve) => {
    const fire = () => {
      if (attempt.committing) return void answered.then(resolve, () => undefined);
      attempt.aborted = true;
      resolve(deadlineRefusal(`it did not finish within its ${attempt.ms / 1000} s deadline`));
    };
    timer = setTimeout(fire, Math.max(0, attempt.deadline - now()));
  });
  return Promise.race([answered, expired]).finally(() => clearTimeout(timer));
}
