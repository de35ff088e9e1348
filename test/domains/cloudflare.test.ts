import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
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
