/**
 * The SignInLimiter Durable Object on its own (real DO storage in workerd): per-client and per-portal limits per
 * kind, the sliding window, reservations given back, and Retry-After counted from the oldest attempt.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ATTEMPT_WINDOW_MS } from "../../worker/access/rate-limit";
import { signInLimiter } from "../../worker/access/sign-in-limiter";

const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);

describe("SignInLimiter", () => {
  it("refuses a client's sixth password attempt in the window, not another client's; releases and the window free slots", async () => {
    const limiter = signInLimiter(env, 9001);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await limiter.reserve("password", "198.51.100.1", T0 + i * 1000);
      expect(r.ok).toBe(true);
      if (r.ok) ids.push(r.id);
    }
    const refused = await limiter.reserve("password", "198.51.100.1", T0 + 10_000);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: ATTEMPT_WINDOW_MS / 1000 - 10 });
    expect((await limiter.reserve("password", "198.51.100.2", T0 + 10_000)).ok).toBe(true);
    // Kinds are counted apart: the same client may still ask for a magic link.
    expect((await limiter.reserve("magic-link", "198.51.100.1", T0 + 10_000)).ok).toBe(true);
    await limiter.release(ids[0]!);
    expect((await limiter.reserve("password", "198.51.100.1", T0 + 11_000)).ok).toBe(true);
    expect((await limiter.reserve("password", "198.51.100.1", T0 + 12_000)).ok).toBe(false);
    // Once the oldest attempts leave the sliding window, the client may try again.
    expect((await limiter.reserve("password", "198.51.100.1", T0 + 1000 + ATTEMPT_WINDOW_MS + 1)).ok).toBe(true);
  });

  it("refuses the portal's 101st password attempt in the window, whoever sends it", async () => {
    const limiter = signInLimiter(env, 9002);
    for (let i = 0; i < 100; i++) expect((await limiter.reserve("password", `203.0.113.${i}`, T0)).ok, `client ${i}`).toBe(true);
    expect((await limiter.reserve("password", "192.0.2.1", T0)).ok).toBe(false);
    // Another portal has its own object and its own count.
    expect((await signInLimiter(env, 9003).reserve("password", "192.0.2.1", T0)).ok).toBe(true);
  });

  it("lets 60 SAML sign-ins start from one client (an office behind one address), then refuses", async () => {
    const limiter = signInLimiter(env, 9004);
    for (let i = 0; i < 60; i++) expect((await limiter.reserve("saml-login", "local", T0 + i)).ok).toBe(true);
    expect((await limiter.reserve("saml-login", "local", T0 + 61)).ok).toBe(false);
  });
});
