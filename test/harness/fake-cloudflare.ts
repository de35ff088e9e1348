/**
 * @module A fake of Cloudflare's custom hostnames API (the only thing the production `CustomHostnames` adapter
 * talks to), as a fetch function: create, get, delete on `/client/v4/zones/{zone}/custom_hostnames`, Cloudflare's
 * `{success, errors, result}` envelope, a hostname pending until the test says its validation passed.
 * @see https://developers.cloudflare.com/api/resources/custom_hostnames/
 */

export const FAKE_ZONE = "0123456789abcdef0123456789abcdef";
export const FAKE_TOKEN = "cf-test-token";
export const FAKE_API = "https://api.cloudflare.test/client/v4";

interface FakeHostname {
  id: string;
  hostname: string;
  method: string;
  active: boolean;
}

/** The fake's state and the calls it received (method, path, body). */
export class FakeCloudflare {
  readonly hostnames = new Map<string, FakeHostname>();
  readonly calls: { method: string; path: string; auth: string | null; body: unknown }[] = [];
  /** When set, every call answers this status and error instead (an outage, a revoked token). */
  failWith?: { status: number; code: number; message: string };
  private next = 1;

  /** Validation passed: the hostname and its certificate turn active. */
  activate(hostname: string): void {
    for (const h of this.hostnames.values()) if (h.hostname === hostname) h.active = true;
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? "GET").toUpperCase();
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const auth = new Headers(init?.headers).get("authorization");
    this.calls.push({ method, path: url.pathname, auth, body });
    const fail = (status: number, code: number, message: string) => Response.json({ success: false, errors: [{ code, message }], messages: [], result: null }, { status });
    if (this.failWith) return fail(this.failWith.status, this.failWith.code, this.failWith.message);
    if (auth !== `Bearer ${FAKE_TOKEN}`) return fail(403, 10000, "Authentication error");
    const base = `/client/v4/zones/${FAKE_ZONE}/custom_hostnames`;
    if (url.origin !== new URL(FAKE_API).origin || !url.pathname.startsWith(base)) return fail(404, 7003, "Could not route to " + url.pathname);
    const id = url.pathname.slice(base.length + 1);
    if (method === "POST" && id === "") {
      if ([...this.hostnames.values()].some((h) => h.hostname === body.hostname)) return fail(409, 1406, "Duplicate custom hostname found.");
      if (!/^[a-z0-9.-]+$/.test(body.hostname ?? "")) return fail(400, 1411, "Custom hostname is invalid.");
      const h: FakeHostname = { id: `cf-${this.next++}`, hostname: body.hostname, method: body.ssl?.method, active: false };
      this.hostnames.set(h.id, h);
      return Response.json({ success: true, errors: [], messages: [], result: this.object(h) });
    }
    const h = this.hostnames.get(id);
    if (!h) return fail(404, 1436, "The custom hostname was not found.");
    if (method === "GET") return Response.json({ success: true, errors: [], messages: [], result: this.object(h) });
    if (method === "DELETE") {
      this.hostnames.delete(id);
      return Response.json({ success: true, errors: [], messages: [], result: { id } });
    }
    return fail(405, 10405, "Method not allowed");
  };

  /** Cloudflare's custom hostname object as the API answers it (the fields Portico reads, and some it does not). */
  private object(h: FakeHostname) {
    const txt = h.method === "txt";
    return {
      id: h.id,
      hostname: h.hostname,
      status: h.active ? "active" : "pending",
      created_at: "2026-11-27T12:00:00Z",
      ssl: {
        id: `ssl-${h.id}`, type: "dv", method: h.method, status: h.active ? "active" : "pending_validation",
        validation_records: h.active ? [] : txt ? [{ txt_name: `_acme-challenge.${h.hostname}`, txt_value: `ca3-${h.id}` }] : [{ http_url: `http://${h.hostname}/.well-known/pki-validation/ca3-${h.id}.txt`, http_body: `ca3-${h.id}` }],
        validation_errors: [],
        settings: { min_tls_version: "1.2" },
      },
      ownership_verification: { type: "txt", name: `_cf-custom-hostname.${h.hostname}`, value: `own-${h.id}` },
      ownership_verification_http: { http_url: `http://${h.hostname}/.well-known/cf-custom-hostname-challenge/${h.id}`, http_body: `own-${h.id}` },
      verification_errors: h.active ? [] : ["custom hostname does not CNAME to this zone."],
    };
  }
}
