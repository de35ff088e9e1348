import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "../harness/client";
import { bundle, PETSTORE_OPS, uploadContent } from "../content/bundles";
import { ACCESS, MARKER, PASSWORD, patchAccess, setUpPortal } from "../readers/fixture";
import { domainApi, onHost, postFormOn } from "./helpers";

const P = "dom-route";
const HOST = "docs.dom-route.example";
let token = "";

beforeAll(async () => {
  token = await createPortal(P, "Route docs");
  expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
  expect((await uploadContent(token, bundle("routed"))).status).toBe(201);
  expect((await domainApi(token, "PUT", { hostname: HOST })).status).toBe(200);
});

/** Every href/src/action/content URL of an HTML page. */
function urlsOf(html: string): string[] {
  return [...html.matchAll(/\b(?:href|src|action|content)="([^"]*)"/g)].map((m) => m[1]!).filter((u) => u.startsWith("/") || u.startsWith("http"));
}

describe("requests on a registered, active custom hostname", () => {
  it("serve the portal at the root: guides, reference, search, changelog, glossary, assets, with no /p/ prefix in any link", async () => {
    for (const path of ["/", "/guides/intro", "/de/guides/intro", "/steps/first", "/reference/pets/", "/reference/pets/1.0.0/", "/reference/pets/1.0.0/listpets", "/search?q=pets", "/changelog", "/glossary", "/tags/start"]) {
      const res = await onHost(HOST, path);
      expect(res.status, path).toBe(200);
      const html = await res.text();
      expect(html, path).not.toContain(`/p/${P}`);
      for (const url of urlsOf(html)) expect(url.startsWith(`${ORIGIN}/`) || url.includes("/p/"), `${path}: ${url}`).toBe(false);
    }
    const guide = await (await onHost(HOST, "/guides/intro")).text();
    expect(guide).toContain(`<link rel="canonical" href="http://${HOST}/guides/intro">`);
    expect(guide).toContain('href="/guides/auth#keys"');
    expect(guide).toMatch(/href="\/reference\/pets\/1\.0\.0\/listpets"/);
    const operation = await (await onHost(HOST, "/reference/pets/1.0.0/listpets")).text();
    expect(operation).toContain(`<link rel="canonical" href="http://${HOST}/reference/pets/1.0.0/listpets">`);
    // The content bundle's logo, the theme stylesheet and the built client assets load from the custom host too.
    const logo = /src="(\/_content\/[0-9a-f]{64}\.png)"/.exec(guide)?.[1];
    expect(logo).toBeDefined();
    expect((await onHost(HOST, logo!)).status).toBe(200);
    expect((await onHost(HOST, "/theme.css")).headers.get("content-type")).toMatch(/^text\/css/);
  });

  it("search.json, the sitemap, RSS and llms.txt use the custom host's URLs", async () => {
    const search = (await (await onHost(HOST, "/search.json?q=pets")).json()) as { results: { url: string }[] };
    expect(search.results.length).toBeGreaterThan(0);
    for (const r of search.results) expect(r.url.startsWith("/") && !r.url.startsWith("/p/"), r.url).toBe(true);

    const sitemap = await (await onHost(HOST, "/sitemap.xml")).text();
    const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(locs).toContain(`http://${HOST}/`);
    expect(locs).toContain(`http://${HOST}/guides/intro`);
    expect(locs).toContain(`http://${HOST}/reference/pets/1.0.0/listpets`);
    for (const loc of locs) expect(loc.startsWith(`http://${HOST}/`), loc).toBe(true);

    for (const path of ["/changelog.rss", "/de/changelog.rss", "/llms.txt", "/llms-full.txt"]) {
      const res = await onHost(HOST, path);
      expect(res.status, path).toBe(200);
      const text = await res.text();
      expect(text, path).toContain(`http://${HOST}/`);
      expect(text, path).not.toContain("/p/");
      expect(text, path).not.toContain("portico.test");
    }
    // The service API tells uploaders the same URLs.
    const up = await upload(token, PETSTORE_OPS, { api: "pets", version: "1.0.1" });
    expect(up.json.url).toBe(`http://${HOST}/reference/pets/1.0.1/`);
    const listed = (await (await onHost(ORIGIN.slice(7), "/v1/apis", { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(listed.apis[0].url).toBe(`http://${HOST}/reference/pets/`);
  });

  it("slash redirects stay on the custom host; /v1 is the service API there too; the team's pages are not served there", async () => {
    const res = await onHost(HOST, "/reference/pets");
    expect(res.status).toBe(301);
    expect(new URL(res.headers.get("location")!, `http://${HOST}/reference/pets`).href).toBe(`http://${HOST}/reference/pets/`);
    const version = await onHost(HOST, "/reference/pets/1.0.0");
    expect(new URL(version.headers.get("location")!, `http://${HOST}/reference/pets/1.0.0`).href).toBe(`http://${HOST}/reference/pets/1.0.0/`);
    expect((await onHost(HOST, "/v1/apis", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await onHost(HOST, "/editor/")).status).toBe(404);
    expect((await onHost(HOST, `/p/${P}/guides/intro`)).status).toBe(404);
    expect((await onHost(HOST, "/p/other-portal/")).status).toBe(404);
  });
});

describe("an organisation's search across portals", () => {
  it("gives a portal on its custom hostname absolute URLs there, and the others their /p/ paths", async () => {
    const other = await createPortal("dom-org-other");
    expect((await upload(other, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(other, bundle("other"))).status).toBe(201);
    const put = await onHost("portico.test", "/v1/orgs/dom-org", {
      method: "PUT", headers: { authorization: `Bearer ${env.PORTICO_ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Dom org", plan: "enterprise", portals: [P, "dom-org-other"] }),
    });
    expect(put.status).toBe(200);
    const found = (await (await onHost("portico.test", "/o/dom-org/search.json?q=introduction")).json()) as { results: { url: string; portal: string }[] };
    const mine = found.results.filter((r) => r.portal === P);
    const theirs = found.results.filter((r) => r.portal === "dom-org-other");
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    for (const r of mine) expect(r.url.startsWith(`http://${HOST}/`), r.url).toBe(true);
    for (const r of theirs) expect(r.url.startsWith("/p/dom-org-other/"), r.url).toBe(true);
  });
});

describe("the service host once the custom hostname is active", () => {
  it("redirects reader URLs under /p/{portal} with 301 (GET) or 308 (other methods) to the same path on the custom host", async () => {
    for (const [path, to] of [[`/p/${P}`, "/"], [`/p/${P}/`, "/"], [`/p/${P}/guides/intro?x=1`, "/guides/intro?x=1"], [`/p/${P}/sitemap.xml`, "/sitemap.xml"], [`/p/${P}/search.json?q=a`, "/search.json?q=a"]] as const) {
      const res = await onHost("portico.test", path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get("location"), path).toBe(`http://${HOST}${to}`);
    }
    const post = await onHost("portico.test", `/p/${P}/auth/password`, { method: "POST", body: "password=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(post.status).toBe(308);
    expect(post.headers.get("location")).toBe(`http://${HOST}/auth/password`);
  });

  it("never redirects the /v1 API or the team's pages", async () => {
    expect((await onHost("portico.test", "/v1/apis", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await onHost("portico.test", `/p/${P}/editor/`)).status).toBe(200);
    expect((await onHost("portico.test", `/p/${P}/admin/changelog`)).status).toBe(200);
  });

  it("never redirects the machine endpoints (MCP, Docs API, discovery), which answer on both hosts with the custom host's URLs", async () => {
    const doc = await onHost("portico.test", `/p/${P}/.well-known/mcp`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { transport: { url: string } }).transport.url).toBe(`http://${HOST}/mcp`);
    expect((await onHost("portico.test", `/p/${P}/mcp`)).status).toBe(405);
    expect((await onHost("portico.test", `/p/${P}/api/v1/apis`)).status).toBe(401);
    expect(((await (await onHost(HOST, "/.well-known/mcp")).json()) as { transport: { url: string } }).transport.url).toBe(`http://${HOST}/mcp`);
  });
});

describe("a pending custom hostname", () => {
  it("routes nowhere yet, and the service host keeps serving /p/{portal} until it is active", async () => {
    const pending = await createPortal("dom-pending");
    expect((await upload(pending, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    // As the production adapter leaves it while validation runs (test/domains/cloudflare.test.ts drives the real path).
    const portal = await env.DB.prepare("SELECT id FROM portals WHERE slug = 'dom-pending'").first<{ id: number }>();
    await env.DB.prepare("INSERT INTO custom_hostnames (portal_id, hostname, status, validation, provider_id, hostname_status, certificate_status, created_at, checked_at) VALUES (?, 'docs.pending.example', 'pending', 'http', 'embedded:docs.pending.example', 'pending', 'pending_validation', '2026-01-01', '2026-01-01')").bind(portal!.id).run();
    expect((await onHost("docs.pending.example", "/")).status).toBe(404);
    const page = await onHost("portico.test", "/p/dom-pending/reference/pets/1.0.0/listpets");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<link rel="canonical" href="http://portico.test/p/dom-pending/reference/pets/1.0.0/listpets">');
    // GET asks the provider again (the embedded one says active): from then on it routes and redirects.
    expect((await domainApi(pending, "GET")).json.domain.status).toBe("active");
    expect((await onHost("docs.pending.example", "/reference/pets/1.0.0/listpets")).status).toBe(200);
    expect((await onHost("portico.test", "/p/dom-pending/")).status).toBe(301);
    // Released: back to /p/ on the service host, and the hostname is unknown again.
    expect((await domainApi(pending, "DELETE")).status).toBe(200);
    expect((await onHost("portico.test", "/p/dom-pending/reference/pets/1.0.0/listpets")).status).toBe(200);
    expect((await onHost("docs.pending.example", "/")).status).toBe(404);
  });
});

describe("an unknown Host", () => {
  it("gets the same plain 404 whatever it asks, naming nothing and reflecting nothing", async () => {
    const bodies = new Set<string>();
    for (const [host, path, init] of [
      ["evil.example", "/", {}], ["evil.example", `/p/${P}/guides/intro`, {}], ["evil.example", "/guides/intro", {}], ["evil.example", "/v1/apis", { headers: { authorization: `Bearer ${token}` } }],
      ["evil.example", "/v1/apis/upload?api=x", { method: "POST", body: PETSTORE_OPS, headers: { authorization: `Bearer ${token}` } }], ["evil.example", "/healthz", {}],
      ["docs.pending.example", "/", {}], ["127.0.0.2", "/", {}], ["unknown.localhost", "/", {}], [`x.${HOST}`, "/", {}],
    ] as [string, string, RequestInit][]) {
      const res = await onHost(host, path, init);
      expect(res.status, `${host}${path}`).toBe(404);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'/);
      const body = await res.text();
      for (const word of [host, "evil", P, "Route docs", "portico"]) expect(body.toLowerCase(), `${host}${path}`).not.toContain(word.toLowerCase());
      bodies.add(body);
    }
    expect(bodies.size).toBe(1);
  });

  it("with X-Forwarded-Host or Forwarded naming another host, changes nothing on a known host", async () => {
    const headers = { "x-forwarded-host": "evil.example", forwarded: "host=evil.example", "x-original-host": "evil.example" };
    for (const path of ["/guides/intro", "/sitemap.xml", "/changelog.rss", "/reference/pets/1.0.0/listpets", "/reference/pets"]) {
      const res = await onHost(HOST, path, { headers });
      const text = await res.text();
      expect(text, path).not.toContain("evil");
      expect(res.headers.get("location") ?? "", path).not.toContain("evil");
      expect(res.headers.get("content-security-policy") ?? "", path).not.toContain("evil");
    }
  });
});

describe("cookies on a custom hostname", () => {
  it("sign-in, the session, the API key and sign-out live on the custom host at Path=/ with no Domain attribute", async () => {
    const gatedToken = await setUpPortal("dom-cookies");
    expect((await patchAccess(gatedToken, ACCESS)).status).toBe(200);
    const host = "docs.dom-cookies.example";
    expect((await domainApi(gatedToken, "PUT", { hostname: host })).status).toBe(200);

    const gated = await onHost(host, "/guides/partners/deals?x=1");
    expect(gated.status).toBe(303);
    expect(gated.headers.get("location")).toBe(`/auth/signin?return=${encodeURIComponent("/guides/partners/deals?x=1")}`);
    const signin = await (await onHost(host, gated.headers.get("location")!)).text();
    expect(signin).toContain('action="/auth/password"');
    expect(signin).toContain('value="/guides/partners/deals?x=1"');
    expect(signin).not.toContain("/p/");

    const res = await postFormOn(host, "/auth/password", { password: PASSWORD, return: "/guides/partners/deals?x=1" }, { "cf-connecting-ip": "10.77.0.1" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/guides/partners/deals?x=1");
    const setCookie = res.headers.get("set-cookie")!;
    // Secure: only plain-http localhost goes without it.
    expect(setCookie).toMatch(/^portico_session=[^;]+; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    expect(setCookie).not.toMatch(/domain=/i);
    const cookie = setCookie.split(";")[0]!;
    const page = await onHost(host, "/guides/partners/deals", { headers: { cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`The ${MARKER} terms`);
    // A return outside the portal's host is refused: home instead.
    const away = await postFormOn(host, "/auth/password", { password: PASSWORD, return: "//evil.example/x" }, { "cf-connecting-ip": "10.77.0.2" });
    expect(away.headers.get("location")).toBe("/");
    // A form posted from the service host's origin (or any other) is refused by the CSRF check.
    expect((await postFormOn(host, "/auth/password", { password: PASSWORD }, { origin: ORIGIN, "cf-connecting-ip": "10.77.0.3" })).status).toBe(403);

    const key = await postFormOn(host, "/auth/api-key", { key: "k-123", return: "/reference/pets/" }, { "sec-fetch-site": "same-origin" });
    expect(key.status).toBe(303);
    expect(key.headers.get("location")).toBe("/reference/pets/");
    expect(key.headers.get("set-cookie")).toMatch(/; Path=\/; HttpOnly; Secure; SameSite=Lax$/);

    const out = await postFormOn(host, "/auth/signout", {}, { cookie });
    expect(out.status).toBe(303);
    expect(out.headers.get("location")).toBe("/");
    for (const c of out.headers.getSetCookie()) {
      expect(c).toMatch(/Max-Age=0/);
      expect(c).not.toMatch(/domain=/i);
      expect(c).toMatch(/Path=\/(?:playground\/)?;/);
    }
  });

  it("a session cookie set on the service host before the domain went live does not open pages on the custom host", async () => {
    const t = await setUpPortal("dom-cookies-2");
    expect((await patchAccess(t, ACCESS)).status).toBe(200);
    const before = await onHost("portico.test", "/p/dom-cookies-2/auth/password", {
      method: "POST", body: new URLSearchParams({ password: PASSWORD }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, "cf-connecting-ip": "10.77.1.1" },
    });
    expect(before.headers.get("set-cookie")).toMatch(/Path=\/p\/dom-cookies-2\//);
    expect((await domainApi(t, "PUT", { hostname: "docs.dom-cookies-2.example" })).status).toBe(200);
    // The browser scopes it to portico.test: it is never sent to the custom host, which therefore asks to sign in.
    expect((await onHost("docs.dom-cookies-2.example", "/guides/partners/deals")).status).toBe(303);
  });
});
