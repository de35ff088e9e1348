/** @module A time limit for a promise (timers only: the work itself is not cancelled and may still settle later). */

/** Thrown by {@link withinMs} when the time runs out first. */
export class TimeLimitExceeded extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${Math.round(ms)} ms`);
    this.name = "TimeLimitExceeded";
  }
}

/** Resolves or rejects as `work` does, or rejects with {@link TimeLimitExceeded} once `ms` milliseconds pass first. */
export function withinMs<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeLimitExceeded(ms)), Math.min(2 ** 31 - 1, Math.max(0, ms)));
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
