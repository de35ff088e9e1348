/**
 * The Docs API and its keys: keys shown once and hashed at rest, listed without the key, revoked; public keys only
 * from their origins (CORS preflight included), secret keys refused from browsers; gated content never visible to a
 * key, visible to a reader JWT; the per-key-and-client rate limit.
 */
import { env, SELF } from "cloudflare:test";
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { ACCESS, JWT_SECRET, MARKER, patchAccess, setUpPortal, signInWithPassword } from "../readers/fixture";

const SLUG = "docs-api";
const EMBED = "https://help.example.com";
let portalToken: string;
let pk: string;
let sk: string;

function keysCall(method: string, path = "/v1/portal/keys", body?: unknown): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { method, headers: { authorization: `Bearer ${portalToken}`, "content-type": "application/json" }, ...(body ? { body: JSON.stringify(body) } : {}) });
}

function api(path: string, token: string | undefined, init: { origin?: string; method?: string; body?: unknown; cookie?: string } = {}): Promise<Response> {
  return SELF.fetch(`${ORIGIN}/p/${SLUG}/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.origin ? { origin: init.origin } : {}), ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.body ? { "content-type": "application/json" } : {}) },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
}

async function readerJwt(): Promise<string> {
  return new SignJWT({ sub: "user-9", groups: ["partners"] }).setProtectedHeader({ alg: "HS256" }).setIssuedAt()
    .setIssuer("https://login.acme.test").setAudience("portico").setExpirationTime("10m").sign(new TextEncoder().encode(JWT_SECRET));
}

beforeAll(async () => {
  portalToken = await setUpPortal(SLUG);
  expect((await patchAccess(portalToken, ACCESS)).status).toBe(200);
  const a = await keysCall("POST", undefined, { kind: "public", name: "Help center", origins: [EMBED] });
  expect(a.status).toBe(201);
  pk = ((await a.json()) as { key: string }).key;
  const b = await keysCall("POST", undefined, { kind: "secret", name: "Backend" });
  expect(b.status).toBe(201);
  sk = ((await b.json()) as { key: string }).key;
});

describe("Docs API keys", () => {
  it("shows a key once, stores only its hash, lists keys without them", async () => {
    expect(pk).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    expect(sk).toMatch(/^sk_[A-Za-z0-9_-]{43}$/);
    const rows = await env.DB.prepare("SELECT key_hash, key_start FROM docs_api_keys").all<{ key_hash: string; key_start: string }>();
    expect(JSON.stringify(rows.results)).not.toContain(sk);
    expect(JSON.stringify(rows.results)).not.toContain(pk);
    const listed = (await (await keysCall("GET")).json()) as { keys: { kind: string; name: string; origins: string[]; start: string }[] };
    expect(listed.keys.map((k) => [k.kind, k.name, k.origins])).toEqual([["public", "Help center", [EMBED]], ["secret", "Backend", []]]);
    expect(JSON.stringify(listed)).not.toContain(pk.slice(8));
  });

  it("refuses bad keys requests with a field-named 400 and needs the portal token", async () => {
    expect((await (await keysCall("POST", undefined, { kind: "public", name: "x" })).json())).toMatchObject({ error: { code: "invalid-origins" } });
    expect((await (await keysCall("POST", undefined, { kind: "public", name: "x", origins: ["https://a.test/path"] })).json())).toMatchObject({ error: { code: "invalid-origins" } });
    expect((await (await keysCall("POST", undefined, { kind: "root", name: "x" })).json())).toMatchObject({ error: { code: "invalid-kind" } });
    expect((await SELF.fetch(`${ORIGIN}/v1/portal/keys`)).status).toBe(401);
  });

  it("revokes a key: it no longer answers", async () => {
    const made = (await (await keysCall("POST", undefined, { kind: "secret", name: "Temp" })).json()) as { id: string; key: string };
    expect((await api("/apis", made.key)).status).toBe(200);
    expect((await keysCall("DELETE", `/v1/portal/keys/${made.id}`)).status).toBe(204);
    expect((await api("/apis", made.key)).status).toBe(401);
    expect((await keysCall("DELETE", `/v1/portal/keys/${made.id}`)).status).toBe(404);
  });
});

describe("Docs API", () => {
  it("answers search, pages and apis to a public key from its origin, with CORS for that origin", async () => {
    const res = await api("/search?q=public%20words", pk, { origin: EMBED });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(EMBED);
    const found = (await res.json()) as { total: number; results: { title: string; url: string }[] };
    expect(found.results.map((r) => r.title)).toContain("Introduction");
    const page = (await (await api(`/pages?path=${encodeURIComponent(`/p/${SLUG}/guides/intro`)}`, pk, { origin: EMBED })).json()) as { title: string; markdown: string; html: string };
    expect(page.title).toBe("Introduction");
    expect(page.markdown).toContain("Public words.");
    expect(page.html).toContain("<p>Public words.");
    const apis = (await (await api("/apis", pk, { origin: EMBED })).json()) as { apis: { api: string }[] };
    expect(apis.apis.map((a) => a.api)).toEqual(["pets"]);
  });

  it("answers a preflight only for a public key's origin", async () => {
    const ok = await api("/search?q=x", undefined, { method: "OPTIONS", origin: EMBED });
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(EMBED);
    expect(ok.headers.get("access-control-allow-headers")).toContain("authorization");
    const no = await api("/search?q=x", undefined, { method: "OPTIONS", origin: "https://evil.example" });
    expect(no.status).toBe(403);
    expect(no.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("refuses a public key from another origin or none, and a secret key from a browser", async () => {
    const other = await api("/search?q=public", pk, { origin: "https://evil.example" });
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    expect(JSON.stringify(await other.json())).not.toContain("Introduction");
    expect((await api("/search?q=public", pk)).status).toBe(403);
    expect((await api("/search?q=public", sk, { origin: EMBED })).status).toBe(403);
    expect((await api("/search?q=public", sk)).status).toBe(200);
    expect((await api("/search?q=public", undefined)).status).toBe(401);
  });

  it("never shows gated content to a key, even with a session cookie; a reader JWT sees it", async () => {
    const cookie = await signInWithPassword(SLUG);
    expect((await SELF.fetch(`${ORIGIN}/p/${SLUG}/guides/partners/deals`, { headers: { cookie } })).status).toBe(200);
    for (const token of [pk, sk]) {
      const init = { cookie, ...(token === pk ? { origin: EMBED } : {}) };
      const search = (await (await api(`/search?q=${MARKER}`, token, init)).json()) as { total: number; results: unknown[] };
      expect(search).toMatchObject({ total: 0, results: [] });
      const page = await api(`/pages?path=/p/${SLUG}/guides/partners/deals`, token, init);
      expect(page.status).toBe(404);
      expect(JSON.stringify(await page.json())).not.toContain(MARKER);
      expect(JSON.stringify(await (await api("/apis", token, init)).json())).not.toContain("internal");
    }
    const jwt = await readerJwt();
    const page = await api(`/pages?path=/p/${SLUG}/guides/partners/deals`, jwt);
    expect(page.status).toBe(200);
    expect(JSON.stringify(await page.json())).toContain(MARKER);
    expect(((await (await api(`/search?q=${MARKER}`, jwt)).json()) as { total: number }).total).toBeGreaterThan(0);
    expect((await api("/apis", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl")).status).toBe(401);
  });

  it("asks the assistant with a key (the assistant contract)", async () => {
    const res = await api("/ask", pk, { origin: EMBED, method: "POST", body: { question: "What are the public words?" } });
    expect(res.status).toBe(200);
    const a = (await res.json()) as { threadId: string; answer: string; sources: unknown[] };
    expect(typeof a.threadId).toBe("string");
    expect(JSON.stringify(a)).not.toContain(MARKER);
    expect((await api("/ask", pk, { origin: EMBED, method: "POST", body: { question: "" } })).status).toBe(400);
  });

  it("limits calls per key and client (60 a minute), 429 with Retry-After", async () => {
    const made = (await (await keysCall("POST", undefined, { kind: "secret", name: "Busy" })).json()) as { key: string };
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await api("/apis", made.key)).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await api("/apis", sk)).status).toBe(200);
  });

  it("iframe mode: the frame page is framed only by the key's origins, and calls from the portal's own origin pass", async () => {
    const frame = await SELF.fetch(`${ORIGIN}/p/${SLUG}/embed/frame?widget=search&key=${pk}`);
    expect(frame.status).toBe(200);
    expect(frame.headers.get("content-security-policy")).toContain(`frame-ancestors ${EMBED}`);
    expect(await frame.text()).toContain(`data-key="${pk}"`);
    for (const key of [sk, "pk_nope"]) {
      const refused = await SELF.fetch(`${ORIGIN}/p/${SLUG}/embed/frame?widget=search&key=${key}`);
      expect(refused.status).toBe(404);
      expect(refused.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    }
    const own = await SELF.fetch(`${ORIGIN}/p/${SLUG}/api/v1/apis`, { headers: { authorization: `Bearer ${pk}`, "sec-fetch-site": "same-origin" } });
    expect(own.status).toBe(200);
    const crossNoOrigin = await SELF.fetch(`${ORIGIN}/p/${SLUG}/api/v1/apis`, { headers: { authorization: `Bearer ${pk}`, "sec-fetch-site": "cross-site" } });
    expect(crossNoOrigin.status).toBe(403);
  });
});
