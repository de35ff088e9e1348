/** Units of the playground's address, server and allow-list rules, and portico.yaml's `playground` block. */
import { env } from "cloudflare:test";
import { describe, expect, inject, it } from "vitest";
import { readConfig } from "../../worker/content/config";
import { blockedAddress, parseIPv6 } from "../../worker/playground/address";
import { allowListHosts, serverHosts } from "../../worker/playground/target";
import { MAX_PLAYGROUND_CALLS_PER_PORTAL as PORTAL_MAX, MAX_PLAYGROUND_CALLS_PER_READER as READER_MAX } from "../../worker/access/rate-limit";
import { spendPlaygroundCall } from "../../worker/store/playground";
import { CachingResolver, DohResolver, type HostResolver } from "../../worker/playground/resolve";
import { freshWindow } from "./fixture";

describe("blockedAddress", () => {
  it.each([
    "0.1.2.3", "10.255.0.1", "100.64.0.1", "100.127.255.255", "127.0.0.1", "169.254.0.1", "169.254.169.254", "172.16.0.1", "172.31.255.255",
    "192.168.0.1", "224.0.0.251", "239.1.1.1", "240.0.0.1", "255.255.255.255", "::", "::1", "::ffff:127.0.0.1", "::ffff:8.8.8.8", "::127.0.0.1",
    "64:ff9b::a00:1", "2002:a00:1::", "2001::1", "fc00::1", "fd12:3456::1", "fd00:ec2::254", "fe80::1", "febf::1", "ff02::1", "[::1]", "nonsense", "1.2.3",
  ])("refuses %s", (ip) => expect(blockedAddress(ip)).toBeDefined());

  it.each(["8.8.8.8", "1.1.1.1", "93.184.215.14", "100.63.255.255", "100.128.0.1", "172.15.255.255", "172.32.0.1", "2606:4700:4700::1111", "2a00:1450::1"])(
    "lets %s through", (ip) => expect(blockedAddress(ip)).toBeUndefined(),
  );

  it("parses IPv6 text forms", () => {
    expect(parseIPv6("::ffff:10.0.0.1")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0a00, 1]);
    expect(parseIPv6("1:2:3:4:5:6:7:8")).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6("1::2::3")).toBeUndefined();
    expect(parseIPv6("fe80::1%eth0")).toBeUndefined();
  });
});

describe("serverHosts", () => {
  it("substitutes default and enum values, skips relative and templated leftovers", () => {
    const hosts = serverHosts([
      { url: "https://{region}.api.example.com/v1", variables: { region: { default: "eu", enum: ["eu", "us"] } } },
      { url: "https://{tenant}.example.net", variables: { tenant: { default: "demo" } } },
      { url: "/v1" },
      { url: "https://{missing}.example.org" },
      { url: "ftp://files.example.com" },
      { url: "http://2130706433:8080" },
    ]);
    expect(hosts).toEqual([
      { hostname: "eu.api.example.com", port: "" }, { hostname: "us.api.example.com", port: "" },
      { hostname: "demo.example.net", port: "" }, { hostname: "127.0.0.1", port: "8080" },
    ]);
  });

  it("bounds the expansion of many enum variables", () => {
    const variables = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`v${i}`, { default: "a", enum: ["a", "b", "c", "d"] }]));
    const url = `https://${Object.keys(variables).map((k) => `{${k}}`).join("-")}.example.com`;
    expect(serverHosts([{ url, variables }]).length).toBeLessThanOrEqual(64);
  });
});

describe("allowListHosts and portico.yaml", () => {
  it("reads host, host:port and *.host", () => {
    expect(allowListHosts(["api.example.com", "api.example.com:8443", "*.example.org", "user@x.com", "x.com/path", 3])).toEqual([
      { hostname: "api.example.com", port: "" }, { hostname: "api.example.com", port: "8443" }, { hostname: "example.org", port: "", subdomains: true },
    ]);
  });

  it("keeps a valid playground block and reports a bad one with its line", () => {
    expect(readConfig("playground:\n  allowHosts: [API.example.com, '*.example.org:8443']\n  allowPrivateHosts: true\n").config.playground)
      .toEqual({ allowHosts: ["api.example.com", "*.example.org:8443"], allowPrivateHosts: true });
    const bad = readConfig("name: x\nplayground:\n  allowHosts: ['http://x.com/']\n");
    expect(bad.config.playground).toBeUndefined();
    expect(bad.problems).toEqual([{ file: "portico.yaml", line: 2, message: expect.stringContaining("allowHosts") }]);
    expect(readConfig("playground: { allowPrivateHosts: yes please }\n").problems[0].message).toContain("allowPrivateHosts");
  });
});

describe("spendPlaygroundCall (the Rate Limiting bindings, as miniflare emulates them)", () => {
  it("stops a reader at 30 and a portal at 600 calls a minute; a refused reader spends one portal call at most", async () => {
    await freshWindow();
    const portal = { id: 990_001, slug: `rl-${crypto.randomUUID()}` };
    // The constants are the documented limits; the calls below show wrangler.toml's bindings count to them.
    expect([READER_MAX, PORTAL_MAX]).toEqual([30, 600]);
    for (let i = 0; i < READER_MAX; i++) expect(await spendPlaygroundCall(env, portal, "ip:203.0.113.9")).toBe(true);
    for (let i = 0; i < 5; i++) expect(await spendPlaygroundCall(env, portal, "ip:203.0.113.9")).toBe(false);
    // 569 more readers bring the portal to 600: of the 5 refused calls above only the first reached the portal's
    // limiter (the isolate remembers the refusal until the minute ends).
    const others = await Promise.all(Array.from({ length: PORTAL_MAX - READER_MAX - 1 }, (_, i) => spendPlaygroundCall(env, portal, `reader:r${i}`)));
    expect(others.every(Boolean)).toBe(true);
    expect(await spendPlaygroundCall(env, portal, "reader:one-more")).toBe(false);
    // Another portal, and the same reader on it, are counted apart.
    expect(await spendPlaygroundCall(env, { id: 990_002, slug: `rl-${crypto.randomUUID()}` }, "ip:203.0.113.9")).toBe(true);
  });
});

describe("DohResolver and CachingResolver (against the DoH responder on 127.0.0.1)", () => {
  it("reads A and AAAA answers with their smallest TTL, and NXDOMAIN as no address", async () => {
    const doh = new DohResolver(inject("dohEndpoint"));
    expect(await doh.resolve("mixed.test")).toEqual({ addresses: ["93.184.215.14", "192.168.1.20"], minTtl: 300 });
    expect(await doh.resolve("v6private.test")).toEqual({ addresses: ["fd00:ec2::254"], minTtl: 300 });
    expect((await doh.resolve("nowhere.test")).addresses).toEqual([]);
    await expect(new DohResolver("http://127.0.0.1:1/dns-query").resolve("public.test")).rejects.toThrow(/did not answer/);
  });

  it("keeps answers for their TTL (at most a minute), never short-TTL ones", async () => {
    let asked = 0;
    const doh = new DohResolver(inject("dohEndpoint"));
    const counting: HostResolver = { resolve: (name) => (asked++, doh.resolve(name)) };
    let now = 0;
    const cache = new CachingResolver(counting, 60, 256, () => now);
    await cache.resolve("public.test");
    await cache.resolve("public.test");
    expect(asked).toBe(1);
    now = 61_000;
    await cache.resolve("public.test");
    expect(asked).toBe(2);
    await cache.resolve("shortttl.test");
    await cache.resolve("shortttl.test");
    expect(asked).toBe(4);
  });
});
