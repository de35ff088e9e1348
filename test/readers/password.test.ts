import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ACCESS, get, MARKER, PASSWORD, patchAccess, postForm, resetSignInLimits, sessionCookie, setUpPortal } from "./fixture";

const P = "pw-portal";

beforeAll(async () => {
  const token = await setUpPortal(P);
  expect((await patchAccess(token, ACCESS)).status).toBe(200);
});

beforeEach(() => resetSignInLimits(P));

describe("shared password", () => {
  it("sends a signed-out reader of a gated page to sign in, then back to the page, and out again", async () => {
    const gated = await get(`/p/${P}/guides/partners/deals?x=1`);
    expect(gated.status).toBe(303);
    expect(gated.headers.get("location")).toBe(`/p/${P}/auth/signin?return=${encodeURIComponent(`/p/${P}/guides/partners/deals?x=1`)}`);
    const signin = await get(gated.headers.get("location")!);
    expect(signin.status).toBe(200);
    const html = await signin.text();
    expect(html).toContain(`action="/p/${P}/auth/password"`);
    expect(html).toContain(`action="/p/${P}/auth/magic-link"`);
    expect(html).toContain(`value="/p/${P}/guides/partners/deals?x=1"`);
    expect(html).not.toContain(MARKER);

    const res = await postForm(`/p/${P}/auth/password`, { password: PASSWORD, return: `/p/${P}/guides/partners/deals?x=1` }, { ip: "10.1.1.1" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/p/${P}/guides/partners/deals?x=1`);
    const cookie = sessionCookie(res);
    const page = await get(`/p/${P}/guides/partners/deals`, cookie);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    expect(await page.text()).toContain(`The ${MARKER} terms`);

    const out = await postForm(`/p/${P}/auth/signout`, {}, { cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("set-cookie")).toMatch(/Max-Age=0/);
    expect((await get(`/p/${P}/guides/partners/deals`)).status).toBe(303);
  });

  it("refuses a wrong password with the sign-in page again, and rate-limits guesses per IP", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postForm(`/p/${P}/auth/password`, { password: `guess-${i}`, return: `/p/${P}/` }, { ip: "10.9.9.9" });
      expect(res.status).toBe(401);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(await res.text()).toContain("That password is not right.");
    }
    // The sixth try is refused before the password is even checked: the right one does not get in either.
    const blocked = await postForm(`/p/${P}/auth/password`, { password: PASSWORD }, { ip: "10.9.9.9" });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(900);
    expect(blocked.headers.get("set-cookie")).toBeNull();
    // A CF-Connecting-IP the client sends itself is not believed locally (only Cloudflare sets it): still blocked.
    expect((await postForm(`/p/${P}/auth/password`, { password: PASSWORD }, { ip: "10.9.9.10" })).status).toBe(429);
  });

  it("counts concurrent guesses atomically: of eight wrong passwords sent at once, five are checked and three refused", async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => postForm(`/p/${P}/auth/password`, { password: `race-${i}` }, { ip: "10.8.8.8" })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it("a right password gives its reservation back: five sign-ins in a row leave room for five wrong guesses", async () => {
    for (let i = 0; i < 5; i++) expect((await postForm(`/p/${P}/auth/password`, { password: PASSWORD })).status).toBe(303);
    for (let i = 0; i < 5; i++) expect((await postForm(`/p/${P}/auth/password`, { password: `nope-${i}` })).status).toBe(401);
    expect((await postForm(`/p/${P}/auth/password`, { password: PASSWORD })).status).toBe(429);
  });

  it("signing out one browser leaves another that used the same password signed in", async () => {
    const [a, b] = [sessionCookie(await postForm(`/p/${P}/auth/password`, { password: PASSWORD })), sessionCookie(await postForm(`/p/${P}/auth/password`, { password: PASSWORD }))];
    expect((await postForm(`/p/${P}/auth/signout`, {}, { cookie: a })).status).toBe(303);
    expect((await get(`/p/${P}/guides/partners/deals`, a)).status).toBe(303);
    expect((await get(`/p/${P}/guides/partners/deals`, b)).status).toBe(200);
  });

  it("a changed password ends every session opened with the old one", async () => {
    const token = await setUpPortal("pw-change");
    expect((await patchAccess(token, ACCESS)).status).toBe(200);
    const cookie = sessionCookie(await postForm("/p/pw-change/auth/password", { password: PASSWORD }));
    expect((await get("/p/pw-change/guides/partners/deals", cookie)).status).toBe(200);
    // Setting what is already set (a deploy script run again) signs nobody out.
    expect((await patchAccess(token, ACCESS)).status).toBe(200);
    expect((await get("/p/pw-change/guides/partners/deals", cookie)).status).toBe(200);
    expect((await patchAccess(token, { password: "a brand new password" })).status).toBe(200);
    expect((await get("/p/pw-change/guides/partners/deals", cookie)).status).toBe(303);
    expect((await patchAccess(token, { methods: ["magic-link"], password: null })).status).toBe(200);
    expect((await get("/p/pw-change/guides/partners/deals", cookie)).status).toBe(303);
  });

  it("refuses cross-site form posts (CSRF) for sign-in and sign-out", async () => {
    const res = await postForm(`/p/${P}/auth/password`, { password: PASSWORD }, { ip: "10.2.2.2", origin: "https://evil.test" });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect((await postForm(`/p/${P}/auth/signout`, {}, { origin: "https://evil.test" })).status).toBe(403);
  });

  it("never redirects off the portal, whatever return path is given", async () => {
    for (const bad of ["https://evil.test/", "//evil.test", "/\\evil.test", `/p/other/`, `/p/${P}/../other/`, "javascript:alert(1)", `https://portico.test@evil.test/p/${P}/`]) {
      const res = await postForm(`/p/${P}/auth/password`, { password: PASSWORD, return: bad }, { ip: `10.3.3.${bad.length}` });
      expect(res.status, bad).toBe(303);
      expect(res.headers.get("location"), bad).toBe(`/p/${P}/`);
    }
  });

  it("answers 404 for a way in the portal does not offer", async () => {
    const token = await setUpPortal("pw-none");
    expect((await get("/p/pw-none/auth/signin")).status).toBe(404);
    expect((await patchAccess(token, { methods: ["jwt"], jwt: { secret: "x".repeat(40) } })).status).toBe(200);
    expect((await postForm("/p/pw-none/auth/password", { password: "whatever-1" })).status).toBe(404);
  });
});
