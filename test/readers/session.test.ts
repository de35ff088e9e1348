import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { clearSession, establishSession, readSession, SESSION_COOKIE } from "../../worker/access/session";
import type { ReaderIdentity } from "../../worker/access/identity";
import type { AppEnv } from "../../worker/env";
import { ApiError } from "../../worker/http/errors";
import { getDb } from "../../worker/store/db";
import { createPortal, type PortalRow } from "../../worker/store/portals";

const IDENTITY: ReaderIdentity = { readerId: "u-1", email: "ada@acme.test", audiences: ["partners"], variables: { api_key: "k-123" }, method: "jwt" };

/** A tiny app over the session functions: /p/:portal/in?return=…, /p/:portal/me, /p/:portal/out. */
function appFor(portals: PortalRow[], secret = env.SESSION_SECRET) {
  const find = (slug: string) => portals.find((p) => p.slug === slug)!;
  const app = new Hono<AppEnv>()
    .get("/p/:portal/in", (c) => establishSession(c, find(c.req.param("portal")), IDENTITY, c.req.query("return") ?? ""))
    .get("/p/:portal/me", async (c) => c.json(await readSession(c, find(c.req.param("portal")), find(c.req.param("portal")))))
    .get("/p/:portal/out", (c) => {
      clearSession(c, find(c.req.param("portal")));
      return c.body(null, 204);
    })
    .onError((e, c) => (e instanceof ApiError ? c.json(e.toBody(), e.status) : c.text("unexpected", 500)));
  return (url: string, cookie?: string) => app.request(url, { headers: cookie ? { cookie } : {} }, { ...env, SESSION_SECRET: secret });
}

async function portals(...slugs: string[]): Promise<PortalRow[]> {
  return Promise.all(slugs.map(async (s) => (await createPortal(getDb(env.DB), s, s)).portal));
}

const cookieOf = (res: Response) => /^([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1];

describe("reader sessions", () => {
  it("seals the identity into an HttpOnly, SameSite=Lax, Secure cookie scoped to the portal, and reads it back", async () => {
    const fetch = appFor(await portals("sess-a"));
    const res = await fetch("https://docs.test/p/sess-a/in?return=/p/sess-a/guides/x?y=1");
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/p/sess-a/guides/x?y=1");
    const set = res.headers.get("set-cookie")!;
    expect(set).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(set).toContain("Path=/p/sess-a/");
    expect(set).toContain("HttpOnly");
    expect(set).toContain("SameSite=Lax");
    expect(set).toContain("Secure");
    expect(set).toMatch(/Max-Age=43200/);
    expect(set).not.toContain("k-123"); // sealed, not merely signed
    expect(set).not.toContain("ada@acme");
    expect(await (await fetch("https://docs.test/p/sess-a/me", cookieOf(res))).json()).toEqual(IDENTITY);
  });

  it("leaves out Secure on plain-http localhost only", async () => {
    const fetch = appFor(await portals("sess-l"));
    expect((await fetch("http://127.0.0.1:9999/p/sess-l/in")).headers.get("set-cookie")).not.toContain("Secure");
    expect((await fetch("http://localhost/p/sess-l/in")).headers.get("set-cookie")).not.toContain("Secure");
  });

  it("sends the reader home for any return path outside the portal", async () => {
    const fetch = appFor(await portals("sess-r"));
    for (const bad of ["https://evil.test/", "//evil.test/p/sess-r/", "/\\evil.test", "/p/other/guides/x", "/p/sess-r/../other/", "/p/sess-r/%2e%2e/other", "javascript:alert(1)", "/p/sess-r/auth/signout", "/p/sess-rx/", "\t//evil.test"]) {
      expect((await fetch(`https://docs.test/p/sess-r/in?return=${encodeURIComponent(bad)}`)).headers.get("location"), bad).toBe("/p/sess-r/");
    }
  });

  it("reads no session from another portal's cookie, a tampered cookie, another key, or none", async () => {
    const [a, b] = await portals("sess-x", "sess-y");
    const fetch = appFor([a, b]);
    const cookie = cookieOf(await fetch("https://docs.test/p/sess-x/in"));
    expect(await (await fetch("https://docs.test/p/sess-y/me", cookie)).json()).toBeNull();
    const tampered = cookie.slice(0, -4) + (cookie.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(await (await fetch("https://docs.test/p/sess-x/me", tampered)).json()).toBeNull();
    expect(await (await appFor([a, b], "another-secret-of-enough-length")("https://docs.test/p/sess-x/me", cookie)).json()).toBeNull();
    expect(await (await fetch("https://docs.test/p/sess-x/me", `${SESSION_COOKIE}=garbage`)).json()).toBeNull();
    expect(await (await fetch("https://docs.test/p/sess-x/me")).json()).toBeNull();
  });

  it("refuses to sign in without a configured secret, and clears the cookie on sign-out", async () => {
    const [p] = await portals("sess-z");
    expect((await appFor([p], "")("https://docs.test/p/sess-z/in")).status).toBe(503);
    const out = await appFor([p])("https://docs.test/p/sess-z/out");
    expect(out.headers.get("set-cookie")).toMatch(new RegExp(`^${SESSION_COOKIE}=;.*Max-Age=0`));
    expect(out.headers.get("set-cookie")).toContain("Path=/p/sess-z/");
  });
});
