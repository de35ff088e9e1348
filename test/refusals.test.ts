import { env, SELF } from "cloudflare:test";
import { app } from "../worker/app";
import { beforeEach, describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";

const BILLION_LAUGHS = `openapi: 3.0.0
info: {title: lol, version: "1"}
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
paths: {}
`;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

let token: string;
let liveHtml: string;
let portal = "";
let run = 0;

async function expectLiveUnchanged() {
  const now = await getPage(`/p/${portal}/reference/swagger-petstore/`);
  expect(now.status).toBe(200);
  expect(now.html).toBe(liveHtml);
  const list = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
  expect(list.apis.map((a: any) => [a.slug, a.liveVersion, a.publications])).toEqual([["swagger-petstore", "1.0.0", 1]]);
}

describe("refusals leave the live version untouched", () => {
  beforeEach(async () => {
    // Storage is per test file, not per test: each test gets its own portal.
    portal = `guarded-${++run}`;
    token = await createPortal(portal);
    expect((await upload(token, petstoreV3)).status).toBe(201);
    liveHtml = (await getPage(`/p/${portal}/reference/swagger-petstore/`)).html;
  });

  it("billion laughs YAML: 400 naming the alias limit", async () => {
    const { status, json } = await upload(token, BILLION_LAUGHS);
    expect(status).toBe(400);
    expect(json.error.message).toMatch(/alias/i);
    await expectLiveUnchanged();
  });

  it("10,000-deep nesting (JSON and YAML flow): 400 naming the depth, with a line", async () => {
    const json = await upload(token, `{"openapi":"3.0.0","x":${"[".repeat(10_000)}${"]".repeat(10_000)}}`, {}, "application/json");
    expect(json.status).toBe(400);
    expect(json.json.error.message).toMatch(/deep|depth|nest/i);
    expect(json.json.error.details.line).toBe(1);
    const yaml = await upload(token, `openapi: 3.0.0\nx: ${"{a: ".repeat(10_000)}1${"}".repeat(10_000)}\n`);
    expect(yaml.status).toBe(400);
    expect(yaml.json.error.message).toMatch(/deep|depth|nest/i);
    await expectLiveUnchanged();
  });

  it("a body over the limit: 413 stating the limit (a declared length is refused before the body is read)", async () => {
    // Issue 12 raised the limit from 25 MiB to 100 MB; test/upload-huge.test.ts streams bodies past it.
    let pulled = false;
    const request = new Request(`${ORIGIN}/v1/apis/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "content-length": "100000001" },
      body: new ReadableStream({ pull: (c) => ((pulled = true), c.close()) }, { highWaterMark: 0 }),
      duplex: "half",
    } as RequestInit);
    // Through the app itself: the request exactly as a worker receives it.
    const res = await app.fetch(request, env);
    expect(res.status).toBe(413);
    expect(pulled).toBe(false);
    const json = (await res.json()) as any;
    expect(json.error.message).toMatch(/100000000 byte limit/);
    await expectLiveUnchanged();
  });

  it("a PNG: 415, whether declared as image/png or as YAML", async () => {
    expect((await upload(token, PNG, {}, "image/png")).status).toBe(415);
    const sniffed = await upload(token, PNG, {}, "application/yaml");
    expect(sniffed.status).toBe(415);
    expect(sniffed.json.error.message).toMatch(/PNG|binary|image/i);
    await expectLiveUnchanged();
  });

  it("a form-encoded body: 415 asking for the raw file", async () => {
    const { status, json } = await upload(token, "spec=openapi%3A+3.0.0", {}, "application/x-www-form-urlencoded");
    expect(status).toBe(415);
    expect(json.error.message).toMatch(/raw definition/);
    await expectLiveUnchanged();
  });

  it("a JSON array and a non-OpenAPI object: 422", async () => {
    const array = await upload(token, "[1,2,3]", {}, "application/json");
    expect(array.status).toBe(422);
    expect(array.json.error.message).toMatch(/OpenAPI|Swagger/);
    const other = await upload(token, '{"name":"package.json","version":"1.0.0"}', {}, "application/json");
    expect(other.status).toBe(422);
    await expectLiveUnchanged();
  });

  it("unparsable YAML: 400 with line and column", async () => {
    const { status, json } = await upload(token, "openapi: 3.0.0\ninfo:\n  title: [unclosed\n  version: 1\npaths: {}\n");
    expect(status).toBe(400);
    expect(json.error.details.line).toBeGreaterThanOrEqual(3);
    expect(json.error.details.column).toBeGreaterThanOrEqual(1);
    await expectLiveUnchanged();
  });

  it("missing and unknown tokens: 401", async () => {
    const none = await SELF.fetch(`${ORIGIN}/v1/apis/upload`, { method: "POST", body: petstoreV3 });
    expect(none.status).toBe(401);
    const unknown = await upload("ptk_unknown", petstoreV3.replace("1.0.0", "9.9.9"));
    expect(unknown.status).toBe(401);
    expect(unknown.json.error.message).toMatch(/unknown token/);
    await expectLiveUnchanged();
  });

  it("a portal token on POST /v1/portals: 403", async () => {
    const res = await SELF.fetch(`${ORIGIN}/v1/portals`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ slug: "sneaky", name: "n" }),
    });
    expect(res.status).toBe(403);
    await expectLiveUnchanged();
  });
});
