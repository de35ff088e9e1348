/**
 * @module Rate limits. Sign-in: failed passwords and magic-link requests counted in D1 (`sign_in_attempts`), each kind
 * on its own, over a sliding window, per client IP and per portal. A reader over either limit is refused (429)
 * before any check runs. Playground calls: the limits here, counted by the Workers Rate Limiting bindings
 * (wrangler.toml `[[ratelimits]]`; store/playground.ts `spendPlaygroundCall`), per reader and per portal, a minute.
 */

/** The window attempts are counted over, in milliseconds (15 minutes). */
export const ATTEMPT_WINDOW_MS = 15 * 60_000;
/** Attempts one IP may make on one portal per window. */
export const MAX_ATTEMPTS_PER_IP = 5;
/** Attempts all IPs together may make on one portal per window (a distributed guess is slowed too). */
export const MAX_ATTEMPTS_PER_PORTAL = 100;

/** Whether another attempt is allowed given the counts in the current window. */
export function attemptAllowed(counts: { ip: number; portal: number }): boolean {
  return counts.ip < MAX_ATTEMPTS_PER_IP && counts.portal < MAX_ATTEMPTS_PER_PORTAL;
}

/**
 * The period playground calls are counted over, in milliseconds: the bindings' `period = 60` (seconds) in
 * wrangler.toml. Windows are fixed, not sliding (a new count starts each period).
 */
export const PLAYGROUND_WINDOW_MS = 60_000;
/** Playground calls one reader (signed-in reader id, else client IP) may make on one portal per window: wrangler.toml's `PLAYGROUND_READER_LIMIT`. */
export const MAX_PLAYGROUND_CALLS_PER_READER = 30;
/** Playground calls all readers together may make through one portal per window: wrangler.toml's `PLAYGROUND_PORTAL_LIMIT`. */
export const MAX_PLAYGROUND_CALLS_PER_PORTAL = 600;
