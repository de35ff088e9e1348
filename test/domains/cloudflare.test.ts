import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import worker from "../../worker/index";
import { CloudflareCustomHostnames } from "../../worker/domains/cloudflare";
import { CustomHostnameError } from "../../worker/domains/custom-hostnames";
import { customHostnamesFor, pollPendingDomains, refreshDomain, registerDomain, releaseDomain, findDomain } from "../../worker/domains/registry";
import { getDb } from "../../worker/store/db";
import { createPortal, ORIGIN } from "../harness/client";
import { FAKE_API, FAKE_TOKEN, FAKE_ZONE, FakeCloudflare } from "../harness/fake-cloudflare";
import { domainApi, onHost } from "./helpers";

const adapterFor = (fake: FakeCloudflare, token = FAKE_TOKEN) =>
  new CloudflareCustomHostnames({ zoneId: FAKE_ZONE, apiToken: token, cnameTarget: "customers.portico.example", apiBase: FAKE_API, fetch: fake.fetch });

async function portalId(slug: string): Promise<number> {
  await createPortal(slug);
  return (await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>())!.id;
}

describe("the Cloudflare for SaaS adapter (against a fake of Cloudflare's API)", () => {
  it("creates a custom hostname with the asked validation, reads it pending with its records, then active", async () => {
    const fake = new FakeCloudflare();
    const cf = adapterFor(fake);
    const created = await cf.create("docs.cf.example", "txt");
    expect(fake.calls[0]).toEqual({
      method: "POST", path: `/client/v4/zones/${FAKE_ZONE}/custom_hostnames`, auth: `Bearer ${FAKE_TOKEN}`,
      body: { hostname: "docs.cf.example", ssl: { method: "txt", type: "dv", settings: { min_tls_version: "1.2" } } },
    });
    expect(created).toEqual({
      id: "cf-1", active: false, hostnameStatus: "pending", certificateStatus: "pending_validation",
      records: [
        { type: "TXT", name: "_cf-custom-hostname.docs.cf.example", value: "own-cf-1", purpose: "ownership" },
        { type: "TXT", name: "_acme-challenge.docs.cf.example", value: "ca3-cf-1", purpose: "certificate" },
      ],
      errors: ["custom hostname does not CNAME to this zone."],
    });
    expect((await cf.get("cf-1")).active).toBe(false);
    fake.activate("docs.cf.example");
    expect(await cf.get("cf-1")).toMatchObject({ active: true, hostnameStatus: "active", certificateStatus: "active", errors: [] });
    await cf.delete("cf-1");
    expect(fake.hostnames.size).toBe(0);
    // Already gone at Cloudflare counts as released.
    await cf.delete("cf-1");
  });

  it("surfaces Cloudflare's errors with their message: duplicate (409), refused (422), failure (502), bad token", async () => {
    const fake = new FakeCloudflare();
    await adapterFor(fake).create("dup.cf.example", "http");
    const dup = await adapterFor(fake).create("dup.cf.example", "http").catch((e) => e);
    expect(dup).toBeInstanceOf(CustomHostnameError);
    expect(dup).toMatchObject({ status: 409, code: "hostname-taken" });
    expect(dup.message).toContain("Duplicate custom hostname found. (1406)");
    const invalid = await adapterFor(fake).create("UPPER_case.example", "http").catch((e) => e);
    expect(invalid).toMatchObject({ status: 422, code: "provider-refused" });
    expect(invalid.message).toContain("Custom hostname is invalid.");
    const badToken = await adapterFor(fake, "wrong").get("cf-1").catch((e) => e);
    expect(badToken).toMatchObject({ status: 502, code: "provider-error" });
    expect(badToken.message).toContain("Authentication error (10000)");
    fake.failWith = { status: 500, code: 1000, message: "Internal server error" };
    const outage = await adapterFor(fake).get("cf-1").catch((e) => e);
    expect(outage).toMatchObject({ status: 502, code: "provider-error" });
    expect(outage.message).toContain("Internal server error (1000)");
    const unreachable = await new CloudflareCustomHostnames({ zoneId: FAKE_ZONE, apiToken: FAKE_TOKEN, cnameTarget: "x.example", apiBase: FAKE_API, fetch: async () => { throw new TypeError("network down"); } })
      .create("x.cf.example", "http").catch((e) => e);
    expect(unreachable).toMatchObject({ status: 502, code: "provider-unreachable" });
    const notJson = await new CloudflareCustomHostnames({ zoneId: FAKE_ZONE, apiToken: FAKE_TOKEN, cnameTarget: "x.example", apiBase: FAKE_API, fetch: async () => new Response("<html>bad gateway</html>", { status: 502 }) })
      .get("cf-9").catch((e) => e);
    expect(notJson).toMatchObject({ status: 502, code: "provider-error" });
  });

  it("through the registry with real D1: pending (not routed) → polled active (routed, /p/ redirects) → released", async () => {
    const fake = new FakeCloudflare();
    const cf = adapterFor(fake);
    const db = getDb(env.DB);
    const id = await portalId("dom-cf");
    const view = await registerDomain(db, cf, ORIGIN, id, "docs.dom-cf.example", "http");
    expect(view).toMatchObject({ hostname: "docs.dom-cf.example", status: "pending", validation: "http", hostnameStatus: "pending", certificateStatus: "pending_validation" });
    expect(view.dnsRecords[0]).toEqual({ type: "CNAME", name: "docs.dom-cf.example", value: "customers.portico.example", purpose: "routing" });
    expect(view.dnsRecords[1]).toEqual({ type: "TXT", name: "_cf-custom-hostname.docs.dom-cf.example", value: "own-cf-1", purpose: "ownership" });
    expect((await onHost("docs.dom-cf.example", "/")).status).toBe(404);
    expect((await onHost("portico.test", "/p/dom-cf/")).status).not.toBe(301);

    // The scheduled poll asks Cloudflare; still pending, nothing changes.
    expect(await pollPendingDomains(db, cf, ORIGIN)).toBe(0);
    fake.activate("docs.dom-cf.example");
    expect(await pollPendingDomains(db, cf, ORIGIN)).toBe(1);
    const row = (await findDomain(db, id))!;
    expect(row.status).toBe("active");
    expect(JSON.parse(row.dnsRecords)).toHaveLength(2); // the CNAME and the ownership TXT kept for reference
    expect((await onHost("portico.test", "/p/dom-cf/x")).headers.get("location")).toBe("http://docs.dom-cf.example/x");
    // An active registration is not asked again (no API call per GET).
    const calls = fake.calls.length;
    expect((await refreshDomain(db, cf, ORIGIN, row)).status).toBe("active");
    expect(fake.calls.length).toBe(calls);

    // Another portal asking for the same name is refused before Cloudflare is called.
    const other = await portalId("dom-cf-other");
    await expect(registerDomain(db, cf, ORIGIN, other, "docs.dom-cf.example", "http")).rejects.toMatchObject({ status: 409, code: "hostname-taken" });
    expect(fake.calls.length).toBe(calls);

    expect(await releaseDomain(db, cf, id)).toBe("docs.dom-cf.example");
    expect(fake.calls.at(-1)).toMatchObject({ method: "DELETE", path: `/client/v4/zones/${FAKE_ZONE}/custom_hostnames/cf-1` });
    expect(fake.hostnames.size).toBe(0);
    expect((await onHost("docs.dom-cf.example", "/")).status).toBe(404);
  });

  it("a Cloudflare error on registration stores nothing and reaches the API caller as its status and message", async () => {
    const fake = new FakeCloudflare();
    fake.failWith = { status: 500, code: 1000, message: "Internal server error" };
    const db = getDb(env.DB);
    const id = await portalId("dom-cf-err");
    await expect(registerDomain(db, adapterFor(fake), ORIGIN, id, "docs.dom-cf-err.example", "http")).rejects.toMatchObject({ status: 502, code: "provider-error" });
    expect(await findDomain(db, id)).toBeUndefined();
  });

  it("is chosen when the zone id and token are set; production without them refuses rather than activating unchecked", async () => {
    expect(customHostnamesFor({ PORTICO_BASE_URL: ORIGIN, PORTICO_ENVIRONMENT: "production", CLOUDFLARE_ZONE_ID: FAKE_ZONE, CLOUDFLARE_API_TOKEN: FAKE_TOKEN, PORTICO_CNAME_TARGET: "customers.portico.example" }))
      .toBeInstanceOf(CloudflareCustomHostnames);
    expect(() => customHostnamesFor({ PORTICO_BASE_URL: ORIGIN, PORTICO_ENVIRONMENT: "production" })).toThrow(/not configured/);
    expect(customHostnamesFor({ PORTICO_BASE_URL: ORIGIN, PORTICO_ENVIRONMENT: "local" }).cnameTarget).toBe("portico.test");
    // The tests' own deployment is local: the embedded adapter answers the API.
    expect((await domainApi(await createPortal("dom-cf-local"), "PUT", { hostname: "docs.dom-cf-local.example" })).json.domain.status).toBe("active");
  });
});

describe("the domain API and the cron with the Cloudflare adapter configured (production settings, Cloudflare's API faked)", () => {
  const cfEnv = () => ({ ...env, PORTICO_ENVIRONMENT: "production", CLOUDFLARE_ZONE_ID: FAKE_ZONE, CLOUDFLARE_API_TOKEN: FAKE_TOKEN, PORTICO_CNAME_TARGET: "customers.portico.example" }) as unknown as Env;

  /** One request through the Worker's own fetch (Host routing included) with the production settings. */
  async function call(fake: FakeCloudflare, url: string, init: RequestInit = {}): Promise<Response> {
    vi.stubGlobal("fetch", (input: RequestInfo | URL, requestInit?: RequestInit) => {
      const target = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
      // The adapter's only outbound calls: Cloudflare's API, rebased onto the fake.
      if (target.origin !== "https://api.cloudflare.com") throw new Error(`unexpected fetch ${target.href}`);
      return fake.fetch(FAKE_API + target.pathname.slice("/client/v4".length) + target.search, requestInit);
    });
    try {
      const ctx = createExecutionContext();
      const res = await worker.fetch!(new Request(url, { redirect: "manual", ...init }) as Request<unknown, IncomingRequestCfProperties>, cfEnv(), ctx);
      await waitOnExecutionContext(ctx);
      return res;
    } finally {
      vi.unstubAllGlobals();
    }
  }

  it("PUT answers pending with the CNAME and TXT records; GET polls; the hostname routes once Cloudflare says active; DELETE releases it there", async () => {
    const fake = new FakeCloudflare();
    const token = await createPortal("dom-cf-http");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const put = await call(fake, `${ORIGIN}/v1/portal/domain`, { method: "PUT", headers: auth, body: JSON.stringify({ hostname: "docs.cf-http.example", validation: "txt" }) });
    expect(put.status).toBe(200);
    const domain = ((await put.json()) as any).domain;
    expect(domain).toMatchObject({ status: "pending", validation: "txt", hostnameStatus: "pending", certificateStatus: "pending_validation", errors: ["custom hostname does not CNAME to this zone."] });
    expect(domain.dnsRecords.map((r: any) => `${r.type} ${r.name} ${r.value} ${r.purpose}`)).toEqual([
      "CNAME docs.cf-http.example customers.portico.example routing",
      "TXT _cf-custom-hostname.docs.cf-http.example own-cf-1 ownership",
      "TXT _acme-challenge.docs.cf-http.example ca3-cf-1 certificate",
    ]);
    expect(fake.calls[0]).toMatchObject({ method: "POST", body: { hostname: "docs.cf-http.example", ssl: { method: "txt" } } });
    expect((await call(fake, "https://docs.cf-http.example/")).status).toBe(404);

    expect(((await (await call(fake, `${ORIGIN}/v1/portal/domain`, { headers: auth })).json()) as any).domain.status).toBe("pending");
    fake.activate("docs.cf-http.example");
    const polled = ((await (await call(fake, `${ORIGIN}/v1/portal/domain`, { headers: auth })).json()) as any).domain;
    expect(polled).toMatchObject({ status: "active", certificateStatus: "active", errors: [], url: "http://docs.cf-http.example/" });
    expect((await call(fake, "https://docs.cf-http.example/")).status).not.toBe(404);

    const del = await call(fake, `${ORIGIN}/v1/portal/domain`, { method: "DELETE", headers: auth });
    expect(await del.json()).toEqual({ released: "docs.cf-http.example" });
    expect(fake.calls.at(-1)).toMatchObject({ method: "DELETE", path: `/client/v4/zones/${FAKE_ZONE}/custom_hostnames/cf-1` });
    expect((await call(fake, "https://docs.cf-http.example/")).status).toBe(404);
  });

  it("a Cloudflare error reaches the API caller as JSON with Cloudflare's message, and nothing is stored", async () => {
    const fake = new FakeCloudflare();
    fake.failWith = { status: 403, code: 10000, message: "Authentication error" };
    const token = await createPortal("dom-cf-http-err");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const put = await call(fake, `${ORIGIN}/v1/portal/domain`, { method: "PUT", headers: auth, body: JSON.stringify({ hostname: "docs.cf-err.example" }) });
    expect(put.status).toBe(502);
    expect(await put.json()).toEqual({ error: { code: "provider-error", message: "Cloudflare's API failed: Authentication error (10000)" } });
    expect((await call(fake, `${ORIGIN}/v1/portal/domain`, { headers: auth })).status).toBe(404);
    fake.failWith = undefined;
    fake.hostnames.set("cf-x", { id: "cf-x", hostname: "docs.taken.example", method: "http", active: true });
    const dup = await call(fake, `${ORIGIN}/v1/portal/domain`, { method: "PUT", headers: auth, body: JSON.stringify({ hostname: "docs.taken.example" }) });
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as any).error.message).toContain("Duplicate custom hostname found.");
  });

  it("the scheduled poll turns a pending hostname active once Cloudflare does", async () => {
    const fake = new FakeCloudflare();
    const token = await createPortal("dom-cf-cron");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    expect((await call(fake, `${ORIGIN}/v1/portal/domain`, { method: "PUT", headers: auth, body: JSON.stringify({ hostname: "docs.cf-cron.example" }) })).status).toBe(200);
    fake.activate("docs.cf-cron.example");
    vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => fake.fetch(FAKE_API + new URL(String(input instanceof Request ? input.url : input)).pathname.slice("/client/v4".length), init));
    try {
      const ctx = createExecutionContext();
      await worker.scheduled!(createScheduledController({ cron: "*/5 * * * *" }), cfEnv(), ctx);
      await waitOnExecutionContext(ctx);
    } finally {
      vi.unstubAllGlobals();
    }
    expect((await env.DB.prepare("SELECT hostname FROM portals WHERE slug = 'dom-cf-cron'").first<{ hostname: string | null }>())?.hostname).toBe("docs.cf-cron.example");
  });
});
