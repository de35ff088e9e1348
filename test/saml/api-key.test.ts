/**
 * "API key once" in workerd: the Authorize control's forms keep the key in an encrypted cookie, every operation
 * page's code samples then carry it (bearer, apiKey header/query/cookie; basic untouched), pages answer
 * `private, no-store`, Clear forgets it, and cross-site posts are refused.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { API_KEY_COOKIE } from "../../worker/access/api-key";
import { createPortal, ORIGIN, upload } from "../harness/client";

const KEY = "sk_test_Zq8uniqueKey42";
const DEFINITION = `openapi: 3.1.0
info: { title: Keys, version: "1.0" }
servers: [{ url: "https://api.keys.test" }]
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    header: { type: apiKey, in: header, name: X-Api-Key }
    query: { type: apiKey, in: query, name: api_key }
    cookie: { type: apiKey, in: cookie, name: session_key }
    basic: { type: http, scheme: basic }
paths:
  /bearer: { get: { operationId: viaBearer, security: [{ bearer: [] }], responses: { "200": { description: ok } } } }
  /header: { get: { operationId: viaHeader, security: [{ header: [] }], responses: { "200": { description: ok } } } }
  /query: { get: { operationId: viaQuery, security: [{ query: [] }], responses: { "200": { description: ok } } } }
  /cookie: { get: { operationId: viaCookie, security: [{ cookie: [] }], responses: { "200": { description: ok } } } }
  /basic: { get: { operationId: viaBasic, security: [{ basic: [] }], responses: { "200": { description: ok } } } }
`;
const base = "/p/keys/reference/keys/1.0";
const get = (path: string, cookie?: string) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
const post = (path: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  SELF.fetch(`${ORIGIN}${path}`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(body).toString() });
const cookieOf = (res: Response) => /^([^;]+)/.exec(res.headers.get("set-cookie") ?? "")![1]!;

describe("API key once", () => {
  beforeAll(async () => {
    const token = await createPortal("keys");
    expect((await upload(token, DEFINITION, { api: "keys" })).status).toBe(201);
  });

  it("without a key: the Authorize form is there, samples show placeholders, the page is private, no-store", async () => {
    const res = await get(`${base}/viabearer`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const html = await res.text();
    expect(html).toContain('action="/p/keys/auth/api-key"');
    expect(html).toContain("Bearer YOUR_TOKEN");
  });

  it("stores the key (encrypted, HttpOnly, portal path), then every sample carries it in its scheme's place; basic is left alone", async () => {
    const saved = await post("/p/keys/auth/api-key", { key: ` ${KEY} `, return: `${base}/viaheader` });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`${base}/viaheader`);
    const setCookie = saved.headers.get("set-cookie")!;
    expect(setCookie).toMatch(new RegExp(`^${API_KEY_COOKIE}=`));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Path=\/p\/keys\//);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toContain(KEY);
    const cookie = cookieOf(saved);

    const page = async (slug: string) => {
      const res = await get(`${base}/${slug}`, cookie);
      expect(res.headers.get("cache-control")).toBe("private, no-store");
      return res.text();
    };
    expect(await page("viabearer")).toContain(`Bearer ${KEY}`);
    expect(await page("viaheader")).toMatch(new RegExp(`X-Api-Key: ${KEY}`));
    expect(await page("viaquery")).toContain(`api_key=${KEY}`);
    expect(await page("viacookie")).toContain(`session_key=${KEY}`);
    const basic = await page("viabasic");
    expect(basic).toContain("Basic YOUR_BASE64_CREDENTIALS");
    expect(basic).not.toContain(KEY.slice(0, 10));
    // The control shows the key's tail only and offers Clear.
    expect(basic).toContain("Authorized");
    expect(basic).toContain('action="/p/keys/auth/api-key/clear"');

    // Another portal never reads it: the cookie is sealed for this portal (its path scope aside).
    const otherToken = await createPortal("keys-other");
    expect((await upload(otherToken, DEFINITION, { api: "keys" })).status).toBe(201);
    const other = await (await get("/p/keys-other/reference/keys/1.0/viabearer", cookie)).text();
    expect(other).toContain("Bearer YOUR_TOKEN");
    expect(other).not.toContain(KEY);
  });

  it("Clear forgets the key: the cookie is deleted and samples show placeholders again", async () => {
    const cookie = cookieOf(await post("/p/keys/auth/api-key", { key: KEY, return: `${base}/viabearer` }));
    const cleared = await post("/p/keys/auth/api-key/clear", { return: `${base}/viabearer` }, { cookie });
    expect(cleared.status).toBe(303);
    expect(cleared.headers.get("set-cookie")).toMatch(new RegExp(`^${API_KEY_COOKIE}=;.*Max-Age=0`, "i"));
    expect(await (await get(`${base}/viabearer`)).text()).toContain("Bearer YOUR_TOKEN");
  });

  it("refuses cross-site posts, empty or binary keys, and never bounces off the portal", async () => {
    expect((await post("/p/keys/auth/api-key", { key: KEY }, { origin: "https://evil.example" })).status).toBe(403);
    expect((await post("/p/keys/auth/api-key", { key: KEY }, { "sec-fetch-site": "cross-site" })).status).toBe(403);
    const empty = await post("/p/keys/auth/api-key", { key: "  " });
    expect(empty.status).toBe(400);
    expect(empty.headers.get("set-cookie")).toBeNull();
    expect((await post("/p/keys/auth/api-key", { key: "a b\u0000" })).status).toBe(400);
    const offsite = await post("/p/keys/auth/api-key", { key: KEY, return: "//evil.example/x" }, { origin: ORIGIN });
    expect(offsite.headers.get("location")).toBe("/p/keys/");
    expect((await post("/p/nope/auth/api-key", { key: KEY })).status).toBe(404);
  });

  it("a tampered or foreign cookie reads as no key", async () => {
    const cookie = cookieOf(await post("/p/keys/auth/api-key", { key: KEY }));
    const tampered = cookie.slice(0, -3) + (cookie.endsWith("A") ? "BBB" : "AAA");
    expect(await (await get(`${base}/viabearer`, tampered)).text()).toContain("Bearer YOUR_TOKEN");
  });
});

describe("API key once on content pages", () => {
  it("guides show the Authorize control and answer private, no-store; feeds stay cacheable without it", async () => {
    const { bundle, PETSTORE_OPS, uploadContent } = await import("../content/bundles");
    const token = await createPortal("keys-guides");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle())).status).toBe(201);
    const guide = await get("/p/keys-guides/guides/auth");
    expect(guide.status).toBe(200);
    expect(guide.headers.get("cache-control")).toBe("private, no-store");
    const anonymous = await guide.text();
    expect(anonymous).toContain('action="/p/keys-guides/auth/api-key"');
    expect(anonymous).toContain("Bearer KEY_DEFAULT");
    // The entered key fills {{api_key}} in guides and code steps.
    const cookie = cookieOf(await post("/p/keys-guides/auth/api-key", { key: KEY, return: "/p/keys-guides/guides/auth" }));
    expect(await (await get("/p/keys-guides/guides/auth", cookie)).text()).toContain(`Bearer ${KEY}`);
    expect(await (await get("/p/keys-guides/steps/first", cookie)).text()).toContain(KEY);
    const rss = await get("/p/keys-guides/changelog.rss");
    expect(rss.headers.get("cache-control")).not.toBe("private, no-store");
  });
});
