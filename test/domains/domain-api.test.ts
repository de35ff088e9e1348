import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN } from "../harness/client";
import { checkCustomHostname } from "../../worker/domains/hostname";
import { domainApi } from "./helpers";

describe("PUT/GET/DELETE /v1/portal/domain", () => {
  it("registers a hostname (active at once with the embedded adapter), shows it, releases it", async () => {
    const token = await createPortal("dom-api");
    const put = await domainApi(token, "PUT", { hostname: "Docs.Dom-Api.Example." });
    expect(put.status).toBe(200);
    expect(put.json.domain).toMatchObject({
      hostname: "docs.dom-api.example", status: "active", validation: "http", hostnameStatus: "active", certificateStatus: "active", errors: [],
      url: "http://docs.dom-api.example/",
    });
    // The routing record first: a CNAME to the service's host (PORTICO_CNAME_TARGET in production).
    expect(put.json.domain.dnsRecords).toEqual([{ type: "CNAME", name: "docs.dom-api.example", value: "portico.test", purpose: "routing" }]);
    const get = await domainApi(token, "GET");
    expect(get.status).toBe(200);
    expect(get.json.domain.hostname).toBe("docs.dom-api.example");
    const row = await env.DB.prepare("SELECT hostname FROM portals WHERE slug = 'dom-api'").first<{ hostname: string }>();
    expect(row?.hostname).toBe("docs.dom-api.example");

    const del = await domainApi(token, "DELETE");
    expect(del).toEqual({ status: 200, json: { released: "docs.dom-api.example" } });
    expect((await domainApi(token, "GET")).status).toBe(404);
    expect((await domainApi(token, "DELETE")).status).toBe(404);
    expect((await env.DB.prepare("SELECT hostname FROM portals WHERE slug = 'dom-api'").first<{ hostname: string | null }>())?.hostname).toBeNull();
  });

  it("answers 409 for a hostname another portal holds, in any spelling; free again once released", async () => {
    const a = await createPortal("dom-409-a");
    const b = await createPortal("dom-409-b");
    expect((await domainApi(a, "PUT", { hostname: "docs.shared.example" })).status).toBe(200);
    for (const hostname of ["docs.shared.example", "DOCS.shared.example", "docs.shared.example."]) {
      const taken = await domainApi(b, "PUT", { hostname });
      expect(taken.status, hostname).toBe(409);
      expect(taken.json.error.code).toBe("hostname-taken");
    }
    // Registering the same name again is a refresh for its holder, not a conflict.
    expect((await domainApi(a, "PUT", { hostname: "docs.shared.example" })).status).toBe(200);
    expect((await domainApi(a, "DELETE")).status).toBe(200);
    expect((await domainApi(b, "PUT", { hostname: "docs.shared.example" })).json.domain.hostname).toBe("docs.shared.example");
  });

  it("moving to another hostname releases the first one", async () => {
    const token = await createPortal("dom-move");
    expect((await domainApi(token, "PUT", { hostname: "old.dom-move.example" })).status).toBe(200);
    expect((await domainApi(token, "PUT", { hostname: "new.dom-move.example", validation: "txt" })).json.domain).toMatchObject({ hostname: "new.dom-move.example", validation: "txt" });
    const other = await createPortal("dom-move-2");
    expect((await domainApi(other, "PUT", { hostname: "old.dom-move.example" })).status).toBe(200);
  });

  it("refuses what is not a custom hostname of the customer's, with 400 and nothing stored", async () => {
    const token = await createPortal("dom-bad");
    const refusals: [unknown, string][] = [
      ["192.168.1.10", "invalid-hostname"], ["[::1]", "invalid-hostname"], ["::1", "invalid-hostname"], ["2130706433", "invalid-hostname"],
      ["10.0.0.1.", "invalid-hostname"], ["intranet", "invalid-hostname"], ["https://docs.example.com", "invalid-hostname"],
      ["docs.example.com/guides", "invalid-hostname"], ["docs.example.com:8443", "invalid-hostname"], ["*.example.com", "invalid-hostname"],
      ["-docs.example.com", "invalid-hostname"], ["docs..example.com", "invalid-hostname"], ["docs example.com", "invalid-hostname"],
      [`${"a".repeat(64)}.example.com`, "invalid-hostname"], [42, "invalid-hostname"], [null, "invalid-hostname"],
      ["portico.test", "reserved-hostname"], ["PORTICO.test", "reserved-hostname"], ["tenant.portico.test", "reserved-hostname"],
    ];
    for (const [hostname, code] of refusals) {
      const res = await domainApi(token, "PUT", { hostname });
      expect(res.status, String(hostname)).toBe(400);
      expect(res.json.error.code, String(hostname)).toBe(code);
    }
    expect((await domainApi(token, "PUT", { hostname: "docs.example.com", validation: "email" })).json.error.code).toBe("invalid-validation");
    expect((await domainApi(token, "PUT", { hostname: "docs.example.com", extra: 1 })).json.error.code).toBe("invalid-domain");
    expect((await domainApi(token, "GET")).status).toBe(404);
  });

  it("takes localhost names locally (npm start's demo.localhost) and IDN names in their punycode form", async () => {
    const token = await createPortal("dom-local");
    expect((await domainApi(token, "PUT", { hostname: "dom-local.localhost" })).json.domain.hostname).toBe("dom-local.localhost");
    const idn = await createPortal("dom-idn");
    expect((await domainApi(idn, "PUT", { hostname: "dokumentation.bücher.example" })).json.domain.hostname).toBe("dokumentation.xn--bcher-kva.example");
  });

  it("outside local development refuses localhost names, which only this machine could ever reach", () => {
    for (const name of ["demo.localhost", "a.b.localhost", "DEMO.LOCALHOST."]) {
      expect(checkCustomHostname(name, "portico.example", false), name).toMatchObject({ ok: false, code: "reserved-hostname" });
      expect(checkCustomHostname(name, "portico.example", true), name).toMatchObject({ ok: true });
    }
    expect(checkCustomHostname("docs.example.com", "portico.example", false)).toEqual({ ok: true, hostname: "docs.example.com" });
    expect(checkCustomHostname("api.portico.example", "portico.example", false)).toMatchObject({ ok: false, code: "reserved-hostname" });
  });

  it("needs the portal token", async () => {
    expect((await SELF.fetch(`${ORIGIN}/v1/portal/domain`, { method: "PUT", body: "{}" })).status).toBe(401);
    expect((await SELF.fetch(`${ORIGIN}/v1/portal/domain`, { headers: { authorization: "Bearer nope" } })).status).toBe(401);
  });
});
