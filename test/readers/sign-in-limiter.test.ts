/**
 * The SignInLimiter Durable Object on its own (real DO storage in workerd): per-client and per-portal limits per
 * kind, the sliding window, reservations given back, and Retry-After counted from the oldest attempt; assistant
 * questions (the same object, their own kind, window and limits) counted apart from sign-in attempts.
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

  it("counts assistant questions apart from sign-in attempts, with the window and limits the caller gives", async () => {
    const limiter = signInLimiter(env, 9005);
    const limits = { client: 3, portal: 5 };
    for (let i = 0; i < 3; i++) expect(await limiter.spend("assistant-question", "reader:a", T0 + i * 1000, limits, 60_000)).toEqual({ ok: true });
    expect(await limiter.spend("assistant-question", "reader:a", T0 + 5000, limits, 60_000)).toEqual({ ok: false, scope: "client", retryAfterSeconds: 55 });
    // Sign-in attempts of the same client string are another kind: five passwords still go through.
    for (let i = 0; i < 5; i++) expect((await limiter.reserve("password", "reader:a", T0 + 5000)).ok).toBe(true);
    expect((await limiter.spend("assistant-question", "reader:b", T0 + 6000, limits, 60_000)).ok).toBe(true);
    expect((await limiter.spend("assistant-question", "reader:c", T0 + 7000, limits, 60_000)).ok).toBe(true);
    // Five questions in the portal's window: a sixth reader waits for the oldest to leave it.
    expect(await limiter.spend("assistant-question", "reader:d", T0 + 8000, limits, 60_000)).toEqual({ ok: false, scope: "portal", retryAfterSeconds: 52 });
    // A minute on, the question window has slid; the passwords (15 minutes) still count.
    expect((await limiter.spend("assistant-question", "reader:a", T0 + 61_000, limits, 60_000)).ok).toBe(true);
    expect((await limiter.reserve("password", "reader:a", T0 + 61_000)).ok).toBe(false);
  });
});
