/**
 * @module Sign-in rate limits: failed passwords and magic-link requests counted in D1 (`sign_in_attempts`), each kind
 * on its own, over a sliding window, per client IP and per portal. A reader over either limit is refused (429)
 * before any check runs.
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
