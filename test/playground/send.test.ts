/**
 * The playground proxy's contract against a real upstream on 127.0.0.1 (test/playground/global-setup.ts), reached
 * through a portal whose portico.yaml sets `playground.allowPrivateHosts` (honoured: the test environment is
 * local). Bodies both ways, headers cleaned, size caps, redirects, rate limit, refusals of malformed calls.
 */
import { beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { DohResolver } from "../../worker/playground/resolve";
import { PLAYGROUND_LIMITS, sendUpstream } from "../../worker/playground/send";
import { checkTarget } from "../../worker/playground/target";
import { createPortal, upload } from "../harness/client";
import { uploadContent } from "../content/bundles";
import { clearLog, definition, freshWindow, send, setUpPortal, upstream, upstreamLog, upstreamPort } from "./fixture";

const PORTAL = "pg-send";

beforeAll(async () => {
  const paths = ["/echo", "/binary", "/big", "/redirect", "/cookie"];
  await setUpPortal(PORTAL, {
    demo: definition([{ url: upstream() }, { url: "http://169.254.169.254" }], paths),
    vars: definition([{ url: "http://{host}:{port}", variables: { host: { default: "127.0.0.1", enum: ["127.0.0.1", "localhost"] }, port: { default: upstreamPort() } } }]),
    relative: definition([{ url: "/v1" }]),
    listed: definition([{ url: "https://api.example.invalid" }]),
    secret: definition([{ url: upstream() }]),
  }, `name: Playground\naudiences: [partners]\naccess:\n  sections: [{ prefix: /reference/secret, audiences: [partners] }]\nplayground:\n  allowPrivateHosts: true\n  allowHosts: ["127.0.0.1:${upstreamPort()}"]\n`);
});

beforeEach(clearLog);

describe("POST /p/{portal}/playground/send", () => {
  it("sends a GET with query and headers and answers status, headers, body, size and timing", async () => {
    const r = await send(PORTAL, { operationId: "get_echo", url: `${upstream()}/echo?limit=2&q=a%20b`, headers: { accept: "application/json", "x-trace": "t1" } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 201, statusText: "Created", bodyEncoding: "utf8", truncated: false, redirects: 0 });
    expect(r.json.headers["x-upstream"]).toBe("yes");
    const echoed = JSON.parse(r.json.body);
    expect(echoed.url).toBe("/echo?limit=2&q=a%20b");
    expect(echoed.headers["x-trace"]).toBe("t1");
    expect(echoed.headers["user-agent"]).toBe(`Portico-Playground/1 (+http://portico.test/p/${PORTAL}/)`);
    expect(r.json.size).toBe(new TextEncoder().encode(r.json.body).byteLength);
    expect(typeof r.json.timing.totalMs).toBe("number");
    expect(typeof r.json.timing.upstreamMs).toBe("number");
    expect(r.json.timing.totalMs).toBeGreaterThanOrEqual(r.json.timing.upstreamMs);
    expect(r.headers.get("cache-control")).toBe("private, no-store");
    expect(await upstreamLog()).toHaveLength(1);
  });

  it("never forwards the portal's cookies or the reader's own request headers; keeps what the reader wrote", async () => {
    const r = await send(PORTAL, {
      operationId: "get_echo", url: `${upstream()}/echo`,
      headers: { cookie: "portico_session=SEALED; theirs=1; portico_api_key=KEY", authorization: "Bearer mine", "x-forwarded-for": "1.2.3.4", host: "evil.test", "cf-connecting-ip": "1.2.3.4", "user-agent": "me" },
    }, { headers: { cookie: "portico_session=OUTER", authorization: "Bearer OUTER", "x-outer": "1" } });
    expect(r.status).toBe(200);
    const [seen] = await upstreamLog();
    expect(seen.headers.cookie).toBe("theirs=1");
    expect(seen.headers.authorization).toBe("Bearer mine");
    expect(seen.headers["x-forwarded-for"]).toBeUndefined();
    expect(seen.headers["cf-connecting-ip"]).toBeUndefined();
    expect(seen.headers["x-outer"]).toBeUndefined();
    expect(seen.headers.host).toBe(`127.0.0.1:${upstreamPort()}`);
    expect(seen.headers["user-agent"]).toMatch(/^Portico-Playground\/1 /);
    expect(JSON.stringify(seen)).not.toContain("OUTER");
  });

  it("sends no cookie or authorization the reader did not write", async () => {
    await send(PORTAL, { operationId: "get_echo", url: `${upstream()}/echo` }, { headers: { cookie: "portico_session=OUTER; portico_api_key=K" } });
    const [seen] = await upstreamLog();
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.authorization).toBeUndefined();
  });

  it("sends utf8 and base64 request bodies byte for byte", async () => {
    const text = '{"name":"Grüße ☃"}';
    const a = await send(PORTAL, { operationId: "post_echo", method: "POST", url: `${upstream()}/echo`, headers: { "content-type": "application/json" }, body: text });
    expect(a.status).toBe(200);
    const bytes = new Uint8Array([0, 1, 2, 254, 255, 10, 13]);
    const b = await send(PORTAL, { operationId: "post_echo", method: "POST", url: `${upstream()}/echo`, headers: { "content-type": "application/octet-stream" }, body: btoa(String.fromCharCode(...bytes)), bodyEncoding: "base64" });
    expect(b.status).toBe(200);
    const log = await upstreamLog();
    expect(atob(log[0].body)).toBe(String.fromCharCode(...new TextEncoder().encode(text)));
    expect(log[0].headers["content-type"]).toBe("application/json");
    expect(Array.from(atob(log[1].body), (ch) => ch.charCodeAt(0))).toEqual(Array.from(bytes));
  });

  it("answers binary bodies in base64 and text in utf8", async () => {
    const bin = await send(PORTAL, { operationId: "get_binary", url: `${upstream()}/binary` });
    expect(bin.json.bodyEncoding).toBe("base64");
    expect(Array.from(atob(bin.json.body), (ch) => ch.charCodeAt(0))).toEqual(Array.from({ length: 256 }, (_, i) => i));
    expect(bin.json.size).toBe(256);
    const text = await send(PORTAL, { operationId: "get_cookie", url: `${upstream()}/cookie` });
    expect(text.json).toMatchObject({ bodyEncoding: "utf8", body: "héllo" });
    expect(text.json.headers["set-cookie"]).toBe("upstream=1; Path=/");
    expect(text.headers.get("set-cookie")).toBeNull(); // an upstream cookie is reported, never set on the portal
  });

  it("cuts a response over 5 MiB and says so", async () => {
    const r = await send(PORTAL, { operationId: "get_big", url: `${upstream()}/big?mib=6` });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ truncated: true, size: PLAYGROUND_LIMITS.maxResponseBytes, bodyEncoding: "utf8" });
    expect(r.json.body.length).toBe(PLAYGROUND_LIMITS.maxResponseBytes);
  });

  it("refuses a request body over 1 MiB (413) without connecting", async () => {
    const r = await send(PORTAL, { operationId: "post_echo", method: "POST", url: `${upstream()}/echo`, body: "a".repeat(PLAYGROUND_LIMITS.maxRequestBytes + 1) });
    expect(r.status).toBe(413);
    expect(r.json.error.code).toBe("body-too-large");
    expect(await upstreamLog()).toHaveLength(0);
  });

  it("follows redirects (303 becomes GET) and refuses the sixth", async () => {
    const to = encodeURIComponent(`${upstream()}/echo?after=1`);
    const one = await send(PORTAL, { operationId: "post_redirect", method: "POST", url: `${upstream()}/redirect?status=303&to=${to}`, body: "x" });
    expect(one.json).toMatchObject({ status: 201, redirects: 1, url: `${upstream()}/echo?after=1` });
    expect((await upstreamLog()).map((l) => l.method)).toEqual(["POST", "GET"]);
    let url = `${upstream()}/echo`;
    for (let i = 0; i < 5; i++) url = `${upstream()}/redirect?to=${encodeURIComponent(url)}`;
    await clearLog();
    const five = await send(PORTAL, { operationId: "get_redirect", url });
    expect(five.json).toMatchObject({ status: 201, redirects: 5 });
    url = `${upstream()}/redirect?to=${encodeURIComponent(url)}`;
    await clearLog();
    const six = await send(PORTAL, { operationId: "get_redirect", url });
    expect(six.status).toBe(502);
    expect(six.json.error.code).toBe("too-many-redirects");
    expect(await upstreamLog()).toHaveLength(6); // the seventh URL is never fetched
  });

  it("drops authorization and cookies on a redirect to another origin", async () => {
    const other = `http://localhost:${upstreamPort()}/echo`; // same server, another origin (allowed by the vars API's enum)
    const r = await send(PORTAL, { api: "vars", operationId: "get_echo", url: `${upstream()}/redirect?to=${encodeURIComponent(other)}`, headers: { authorization: "Bearer secret", cookie: "a=1", "x-keep": "1" } });
    expect(r.json).toMatchObject({ status: 201, redirects: 1 });
    const log = await upstreamLog();
    expect(log[0].headers.authorization).toBe("Bearer secret");
    expect(log[1].headers.authorization).toBeUndefined();
    expect(log[1].headers.cookie).toBeUndefined();
    expect(log[1].headers["x-keep"]).toBe("1");
  });

  it("substitutes server variables: default and enum values are servers, other values are not", async () => {
    const ok = await send(PORTAL, { api: "vars", operationId: "get_echo", url: `http://localhost:${upstreamPort()}/echo` });
    expect(ok.json.status).toBe(201);
    const off = await send(PORTAL, { api: "vars", operationId: "get_echo", url: `http://127.0.0.2:${upstreamPort()}/echo` });
    expect(off.status).toBe(403);
    expect(off.json.error.code).toBe("blocked-host");
    const port = await send(PORTAL, { api: "vars", operationId: "get_echo", url: `http://127.0.0.1:1/echo` });
    expect(port.status).toBe(403);
  });

  it("refuses relative servers (they resolve against nothing) unless the portal allow-lists the host", async () => {
    const r = await send(PORTAL, { api: "relative", operationId: "get_echo", url: `http://portico.test/v1/echo` });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe("blocked-host");
    // playground.allowHosts lists 127.0.0.1:<port>: any API of the portal may call it.
    const listed = await send(PORTAL, { api: "listed", operationId: "get_echo", url: `${upstream()}/echo` });
    expect(listed.json.status).toBe(201);
    const notListed = await send(PORTAL, { api: "listed", operationId: "get_echo", url: `http://127.0.0.1:1/echo` });
    expect(notListed.json.error.code).toBe("blocked-host");
  });

  it("ignores allowPrivateHosts outside the local environment", async () => {
    const r = await send(PORTAL, { operationId: "get_echo", url: `${upstream()}/echo` }, { env: { PORTICO_ENVIRONMENT: "production" } });
    expect(r.status).toBe(403);
    expect(r.json.error).toMatchObject({ code: "blocked-host" });
    expect(r.json.error.message).toContain("loopback");
    expect(await upstreamLog()).toHaveLength(0);
  });

  it("ignores allowPrivateHosts when the request did not come to a loopback host (a deploy without --env production)", async () => {
    const r = await send(PORTAL, { operationId: "get_echo", url: `${upstream()}/echo` }, { origin: "http://portico.test" });
    expect(r.status).toBe(403);
    expect(r.json.error.message).toContain("loopback");
    expect(await upstreamLog()).toHaveLength(0);
  });

  it("keeps cloud metadata closed even with allowPrivateHosts", async () => {
    const r = await send(PORTAL, { operationId: "get_echo", url: "http://169.254.169.254/latest/meta-data/" });
    expect(r.status).toBe(403);
    expect(r.json.error.message).toContain("cloud metadata");
  });

  it("answers a gated API with the 404 of a missing one to readers who may not read it, without connecting", async () => {
    const r = await send(PORTAL, { api: "secret", operationId: "get_echo", url: `${upstream()}/echo` });
    expect(r.status).toBe(404);
    expect(r.json.error.message).toBe('no API reference "secret" in this portal');
    expect(await upstreamLog()).toHaveLength(0);
  });

  it("follows a new content release and a new version at once (the per-isolate cache is keyed by release id)", async () => {
    const slug = "pg-send-releases";
    const token = await createPortal(slug);
    expect((await upload(token, definition([{ url: upstream() }]), { api: "demo" }, "application/json")).status).toBe(201);
    const yaml = (extra: string) => ({ "portico.yaml": `name: Releases\n${extra}`, "guides/intro.md": "---\ntitle: Intro\n---\nHello.\n" });
    expect((await uploadContent(token, yaml("playground: { allowPrivateHosts: true }\n"))).status).toBe(201);
    expect((await send(slug, { operationId: "get_echo", url: `${upstream()}/echo` })).status).toBe(200);
    // The next release drops allowPrivateHosts: the upstream on 127.0.0.1 is refused from the next call on.
    expect((await uploadContent(token, yaml(""))).status).toBe(201);
    const refused = await send(slug, { operationId: "get_echo", url: `${upstream()}/echo` });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("blocked-host");
    // And the next one gates the API: the same 404 as a missing API.
    expect((await uploadContent(token, yaml("audiences: [partners]\naccess:\n  sections: [{ prefix: /reference/demo, audiences: [partners] }]\nplayground: { allowPrivateHosts: true }\n"))).status).toBe(201);
    expect((await send(slug, { operationId: "get_echo", url: `${upstream()}/echo` })).status).toBe(404);
    // A version re-posted under the same label without the operation: the newest row answers.
    expect((await uploadContent(token, yaml("playground: { allowPrivateHosts: true }\n"))).status).toBe(201);
    expect((await upload(token, definition([{ url: upstream() }], ["/other"]), { api: "demo" }, "application/json")).status).toBe(201);
    expect((await send(slug, { operationId: "get_echo", url: `${upstream()}/echo` })).status).toBe(404);
    expect((await send(slug, { operationId: "get_other", url: `${upstream()}/other` })).status).toBe(200);
    expect((await upstreamLog()).map((r: { url: string }) => r.url)).toEqual(["/echo", "/other"]);
  });

  it("refuses malformed calls with the field named", async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ operationId: "get_echo", url: `${upstream()}/echo`, method: "BREW" }, 400, "method"],
      [{ operationId: "get_echo", url: `${upstream()}/echo`, headers: { "bad name": "x" } }, 400, "bad name"],
      [{ operationId: "get_echo", url: `${upstream()}/echo`, headers: { "x-a": "1\r\nx-b: 2" } }, 400, "line break"],
      [{ operationId: "get_echo", url: `${upstream()}/echo`, headers: { "x-snowman": "☃ secret-value" } }, 400, "x-snowman"],
      [{ operationId: "get_echo", url: `${upstream()}/echo`, body: "x" }, 400, "GET"],
      [{ operationId: "post_echo", method: "POST", url: `${upstream()}/echo`, body: "***", bodyEncoding: "base64" }, 400, "base64"],
      [{ operationId: "get_echo", url: "not a url" }, 400, "absolute URL"],
      [{ operationId: "nope", url: `${upstream()}/echo` }, 404, "nope"],
      [{ operationId: "post_echo", url: `${upstream()}/echo` }, 400, "POST"],
      [{ api: "missing", operationId: "get_echo", url: `${upstream()}/echo` }, 404, "missing"],
      [{ version: "9.9.9", operationId: "get_echo", url: `${upstream()}/echo` }, 404, "9.9.9"],
    ];
    for (const [body, status, text] of cases) {
      const r = await send(PORTAL, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.json.error.message, JSON.stringify(body)).toContain(text);
      expect(r.json.error.message).not.toContain("secret-value");
    }
    expect((await send(PORTAL, {}, { raw: "[1]" })).status).toBe(400);
    expect((await send(PORTAL, {}, { headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await send(PORTAL, { operationId: "get_echo", url: `${upstream()}/echo` }, { headers: { "sec-fetch-site": "cross-site" } })).status).toBe(403);
    expect(await upstreamLog()).toHaveLength(0);
  });

  it("rate-limits each reader (429 after 30 calls a minute) without touching other readers", async () => {
    const call = (ip: string) => send(PORTAL, { operationId: "get_echo", url: `${upstream()}/echo` }, { headers: { "cf-connecting-ip": ip } });
    await freshWindow();
    for (let i = 0; i < 30; i++) expect((await call("203.0.113.7")).status).toBe(200);
    const over = await call("203.0.113.7");
    expect(over.status).toBe(429);
    expect(over.json.error.code).toBe("rate-limited");
    expect(over.headers.get("retry-after")).toBe("60");
    expect((await call("203.0.113.8")).status).toBe(200);
    expect(await upstreamLog()).toHaveLength(31);
  });
});

describe("sendUpstream", () => {
  it("gives up after its timeout (504)", async () => {
    const rules = { allowed: [{ hostname: "127.0.0.1", port: upstreamPort() }], ownHosts: [], allowPrivate: true };
    const resolver = new DohResolver(inject("dohEndpoint"));
    const error = await sendUpstream({ method: "GET", url: `${upstream()}/slow?ms=3000`, headers: {} }, "ua", (u) => checkTarget(u, rules, resolver), { timeoutMs: 300 })
      .then(() => undefined, (e) => e);
    expect(error).toMatchObject({ status: 504, code: "upstream-timeout" });
  });

  it("answers 502 when nothing listens", async () => {
    const rules = { allowed: [{ hostname: "127.0.0.1", port: "1" }], ownHosts: [], allowPrivate: true };
    const error = await sendUpstream({ method: "GET", url: "http://127.0.0.1:1/", headers: {} }, "ua", (u) => checkTarget(u, rules, new DohResolver(inject("dohEndpoint"))))
      .then(() => undefined, (e) => e);
    expect(error).toMatchObject({ status: 502, code: "upstream-unreachable" });
  });
});
