/**
 * SSRF suite of the playground proxy: every address form it must never reach is refused with 403 `blocked-host`
 * and the upstream on 127.0.0.1 sees no request. The API's servers list each form, so the refusal comes from the
 * address rules, not from the server list. Names resolve through the DoH responder of global-setup.ts (a stand-in
 * for cloudflare-dns.com, which the tests cannot reach).
 */
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { DohResolver } from "../../worker/playground/resolve";
import { sendUpstream } from "../../worker/playground/send";
import { checkTarget, type TargetRules } from "../../worker/playground/target";
import { clearLog, definition, send, setUpPortal, upstream, upstreamLog, upstreamPort } from "./fixture";

const PORTAL = "pg-ssrf";
const LOCAL = "pg-ssrf-local";

/** [URL the reader sends, words the refusal must say]. */
function cases(p: string): [string, string][] {
  return [
    [`http://127.0.0.1:${p}/echo`, "loopback"],
    [`http://[::1]:${p}/echo`, "loopback"],
    [`http://0.0.0.0:${p}/echo`, "this network"],
    [`http://10.0.0.1/echo`, "private (10.0.0.0/8)"],
    [`http://172.16.5.4/echo`, "private (172.16.0.0/12)"],
    [`http://192.168.1.1/echo`, "private (192.168.0.0/16)"],
    [`http://100.64.0.1/echo`, "CGNAT"],
    [`http://169.254.169.254/latest/meta-data/`, "cloud metadata"],
    [`http://169.254.1.1/`, "link-local"],
    [`http://224.0.0.1/`, "multicast"],
    [`http://255.255.255.255/`, "broadcast"],
    [`http://[fe80::1]/`, "link-local"],
    [`http://[fc00::1]/`, "unique local"],
    [`http://[fd00:ec2::254]/`, "cloud metadata"],
    [`http://[ff02::1]/`, "multicast"],
    [`http://[::ffff:127.0.0.1]:${p}/echo`, "IPv4-mapped"],
    [`http://[::ffff:a00:1]/`, "IPv4-mapped"],
    [`http://2130706433:${p}/echo`, "loopback"], // decimal
    [`http://0177.0.0.1:${p}/echo`, "loopback"], // octal
    [`http://0x7f000001:${p}/echo`, "loopback"], // hex
    [`http://127.1:${p}/echo`, "loopback"], // short form
    [`http://localhost:${p}/echo`, "this machine"],
    [`http://api.localhost:${p}/echo`, "this machine"],
    [`http://loopback.test:${p}/echo`, "resolves to 127.0.0.1"],
    [`http://private.test:${p}/echo`, "resolves to 10.1.2.3"],
    [`http://mixed.test/`, "resolves to 192.168.1.20"], // one public and one private answer: refused
    [`http://metadata.test/`, "cloud metadata"],
    [`http://v6private.test/`, "resolves to fd00:ec2::254"],
    [`http://v6mapped.test/`, "IPv4-mapped"],
    [`http://cname.test:${p}/echo`, "resolves to 127.0.0.1"],
    [`http://shortttl.test/`, "TTL"],
    [`http://portico.test/p/${PORTAL}/`, "own host"], // PORTICO_BASE_URL
    [`http://portico.test:8443/`, "own host"],
    [`file:///etc/passwd`, "file:"],
    [`gopher://127.0.0.1:${p}/_GET%20/echo`, "gopher:"],
    [`ftp://127.0.0.1:${p}/`, "ftp:"],
    [`http://user:pw@127.0.0.1:${p}/echo`, "user name or password"],
    [`http://user@public.test/`, "user name or password"],
  ];
}

beforeAll(async () => {
  const p = upstreamPort();
  const servers = cases(p).filter(([u]) => /^https?:/.test(u)).map(([u]) => ({ url: new URL(u.replace(/\/\/[^@/]*@/, "//")).origin }));
  await setUpPortal(PORTAL, { demo: definition([...servers, { url: "http://nxdomain.test" }]) }, "name: SSRF\n");
  await setUpPortal(LOCAL, { demo: definition([{ url: upstream() }, { url: "http://metadata.test" }, { url: "http://169.254.169.254" }, { url: "http://portico.test" }], ["/redirect"]) }, "name: Local\nplayground: { allowPrivateHosts: true }\n");
});

beforeEach(clearLog);

describe("the playground proxy never reaches", () => {
  it.each(cases(upstreamPort()))("%s (%s)", async (url, why) => {
    const r = await send(PORTAL, { operationId: "get_echo", url });
    expect(r.status, JSON.stringify(r.json)).toBe(403);
    expect(r.json.error.code).toBe("blocked-host");
    expect(r.json.error.message).toContain(why);
    expect(await upstreamLog()).toHaveLength(0);
  });

  it("a name that does not resolve (502 unresolvable-host)", async () => {
    const r = await send(PORTAL, { operationId: "get_echo", url: "http://nxdomain.test/" });
    expect(r.status).toBe(502);
    expect(r.json.error.code).toBe("unresolvable-host");
  });

  it("a host that is not a server of the operation nor allow-listed", async () => {
    const r = await send(PORTAL, { operationId: "get_echo", url: "http://example.com/" });
    expect(r.status).toBe(403);
    expect(r.json.error.message).toContain("not one of this operation's servers");
  });
});

describe("redirects are checked hop by hop", () => {
  it.each([
    ["http://metadata.test/latest/", "cloud metadata"],
    ["http://169.254.169.254/latest/", "cloud metadata"],
    ["file:///etc/passwd", "file:"],
    ["http://portico.test/p/x/", "own host"],
    ["http://example.com/", "not one of this operation's servers"],
  ])("refuses a redirect to %s even with allowPrivateHosts (local portal)", async (to, why) => {
    const r = await send(LOCAL, { operationId: "get_redirect", url: `${upstream()}/redirect?to=${encodeURIComponent(to)}` });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "blocked-host" });
    expect(r.json.error.message).toContain(why);
    expect(await upstreamLog()).toHaveLength(1); // the first hop only
  });

  it.each([
    ["127.0.0.1", "loopback"],
    ["private.test", "resolves to 10.1.2.3"],
    ["[::ffff:127.0.0.1]", "IPv4-mapped"],
  ])("refuses a redirect from a public host to %s", async (host, why) => {
    // The first hop is a public name (public.test → 93.184.215.14 by the DoH responder); workerd cannot be made to
    // connect to it, so this test's fetch carries public.test's requests to the upstream. Every check is the real one.
    const p = upstreamPort();
    const rules: TargetRules = {
      allowed: [{ hostname: "public.test", port: p }, { hostname: "127.0.0.1", port: p }, { hostname: "private.test", port: p }, { hostname: "[::ffff:7f00:1]", port: p }],
      ownHosts: [], allowPrivate: false,
    };
    const resolver = new DohResolver(inject("dohEndpoint"));
    const fetcher: typeof fetch = (input, init) => {
      const u = new URL(String(input));
      if (u.hostname !== "public.test") throw new Error(`the test would have connected to ${u.host}`);
      u.hostname = "127.0.0.1";
      return fetch(u, init);
    };
    const to = `http://${host}:${p}/echo`;
    const error = await sendUpstream({ method: "GET", url: `http://public.test:${p}/redirect?to=${encodeURIComponent(to)}`, headers: {} }, "ua", (u) => checkTarget(u, rules, resolver), { fetcher })
      .then(() => undefined, (e) => e);
    expect(error).toMatchObject({ status: 403, code: "blocked-host" });
    expect(error.message).toContain(why);
    expect((await upstreamLog()).map((l) => l.url)).toEqual([`/redirect?to=${encodeURIComponent(to)}`]);
  });
});
