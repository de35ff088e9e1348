/**
 * @module Rate limits. Sign-in: failed passwords, magic-link requests and SAML sign-in starts, counted atomically
 * by the portal's SignInLimiter Durable Object (access/sign-in-limiter.ts), each kind on its own, over a sliding
 * window, per client address and per portal. A reader over either limit is refused (429) before any check runs. Playground calls: the limits here, counted by the Workers Rate Limiting bindings
 * (wrangler.toml `[[ratelimits]]`; store/playground.ts `spendPlaygroundCall`), per reader and per portal, a minute.
 */

/** The window attempts are counted over, in milliseconds (15 minutes). */
export const ATTEMPT_WINDOW_MS = 15 * 60_000;
/** Attempts one IP may make on one portal per window. */
export const MAX_ATTEMPTS_PER_IP = 5;
/** Attempts all IPs together may make on one portal per window (a distributed guess is slowed too). */
export const MAX_ATTEMPTS_PER_PORTAL = 100;

/** What is counted: a failed password, a magic link asked for, a SAML sign-in started (each writes a D1 row). */
export type AttemptKind = "password" | "magic-link" | "saml-login";

/**
 * Per kind, per window: attempts one client may make on one portal, and all clients together. SAML starts are
 * looser: a whole office behind one NAT signs in through its IdP in the same morning.
 */
export const ATTEMPT_LIMITS: Record<AttemptKind, { client: number; portal: number }> = {
  password: { client: MAX_ATTEMPTS_PER_IP, portal: MAX_ATTEMPTS_PER_PORTAL },
  "magic-link": { client: MAX_ATTEMPTS_PER_IP, portal: MAX_ATTEMPTS_PER_PORTAL },
  "saml-login": { client: 60, portal: 3000 },
};

/**
 * The client a sign-in attempt is counted against. `CF-Connecting-IP` is believed only where Cloudflare sets it
 * (every deployed environment: Cloudflare overwrites what a client sends); locally (`PORTICO_ENVIRONMENT=local`)
 * any client can send the header, so every local request counts as the one client `local`.
 */
export function clientAddress(env: { PORTICO_ENVIRONMENT?: string }, request: Request): string {
  if (env.PORTICO_ENVIRONMENT === "local") return "local";
  return request.headers.get("cf-connecting-ip") ?? "unknown";
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
