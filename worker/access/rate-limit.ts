/**
 * @module Rate limits. Sign-in: failed passwords and magic-link requests counted in D1 (`sign_in_attempts`), each kind
 * on its own, over a sliding window, per client IP and per portal. A reader over either limit is refused (429)
 * before any check runs. Playground calls: counted by the Workers Rate Limiting binding (wrangler.toml
 * `[[ratelimits]]`, emulated by miniflare locally and in the tests), per reader and per portal, over one minute;
 * no D1 on the proxy's hot path.
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

/** The two Rate Limiting bindings (https://developers.cloudflare.com/workers/runtime-apis/bindings/rate-limit/). */
export interface PlaygroundLimiters {
  PLAYGROUND_READER_LIMIT: RateLimit;
  PLAYGROUND_PORTAL_LIMIT: RateLimit;
}

/** Reader keys the reader's limiter refused, with the end of that window (ms), per isolate; bounded. */
const REFUSED = new Map<string, number>();
const MAX_REFUSED = 1024;

/**
 * Spends one playground call of `reader` (`reader:<id>` or `ip:<address>`) on `portal`; false when the reader's
 * or the portal's limit for this window is reached. Both limiters are asked at once (one wait, not two); so that
 * one reader over its limit cannot use up the portal's quota for everyone else, a reader the reader's limiter
 * refused is refused by this isolate without asking either limiter again until the minute ends (at most one
 * portal call spent per refused reader, window and isolate). Keys carry the portal's id and slug. In production
 * the counts are per Cloudflare location and approximate (the binding's own design: no round trip to a central
 * store); locally miniflare keeps exact counts in fixed windows aligned to the minute.
 */
export async function spendPlaygroundCall(env: PlaygroundLimiters, portal: { id: number; slug: string }, reader: string): Promise<boolean> {
  const key = `${portal.id}:${portal.slug}`;
  const readerKey = `${key}|${reader}`;
  const now = Date.now();
  const until = REFUSED.get(readerKey);
  if (until !== undefined) {
    if (until > now) return false;
    REFUSED.delete(readerKey);
  }
  const [own, all] = await Promise.all([env.PLAYGROUND_READER_LIMIT.limit({ key: readerKey }), env.PLAYGROUND_PORTAL_LIMIT.limit({ key })]);
  if (!own.success) {
    if (REFUSED.size >= MAX_REFUSED) REFUSED.delete(REFUSED.keys().next().value!);
    REFUSED.set(readerKey, (Math.floor(now / PLAYGROUND_WINDOW_MS) + 1) * PLAYGROUND_WINDOW_MS);
  }
  return own.success && all.success;
}
