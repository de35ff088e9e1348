// Issue 12: a body built whole (≤ 16 MiB) is handed to the PortalPublisher with the request, which stores it in R2
// while it builds. Nothing published may name a body not yet stored, and a failed R2 write must fail the publish
// with nothing half-replaced. Likewise the search index is built while the model's last KV writes (and its header)
// are on the wire: a failure there must fail the publish before any D1 write.
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import { STREAM_BUILD_MIN_BYTES } from "../worker/openapi/stream/build";
import { publisherFor, type PortalPublisher } from "../worker/publish/portal-publisher";
import { publishDefinition } from "../worker/publish/publish-definition";
import { HANDED_BODY_MAX_BYTES, isPublishMessage } from "../worker/publish/types";
import { definitionKey, getDefinition, locateDefinition } from "../worker/store/definitions";
import { EARLY_STORE_MIN_BYTES, storeWhileArriving } from "../worker/store/early-store";
import { decodeUtf8 } from "../worker/openapi/pipeline/sniff";
import { UTF8_CASES } from "../worker/openapi/pipeline/utf8-cases";
import { sha256Hex } from "../worker/store/tokens";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";

const bytes = (text: string) => new TextEncoder().encode(text);

async function uploadTimed(token: string, body: BodyInit, query: Record<string, string>, contentType = "application/yaml") {
  const res = await SELF.fetch(`${ORIGIN}/v1/apis/upload?${new URLSearchParams(query)}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": contentType }, body });
  const phases = (res.headers.get("server-timing") ?? "").split(",").map((p) => p.trim().split(";")[0]);
  return { status: res.status, json: (await res.json()) as any, phases };
}

async function listed(token: string): Promise<any> {
  return (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json();
}

describe("a body built whole is handed to the publisher", () => {
  it("is stored in R2 under its SHA-256 by the publisher (r2-store), not by the route before it (r2-write)", async () => {
    const token = await createPortal("handoff-a");
    const answer = await uploadTimed(token, petstoreV3, { api: "pets" });
    expect(answer.status).toBe(201);
    expect(answer.phases).toEqual(expect.arrayContaining(["receive", "build", "r2-store", "d1-write"]));
    expect(answer.phases).not.toContain("r2-write");
    const sha = await sha256Hex(bytes(petstoreV3));
    expect(answer.json.sha256).toBe(sha);
    const stored = await env.DEFINITIONS.get(definitionKey(sha));
    expect(stored && (await stored.text())).toBe(petstoreV3);
    const served = await SELF.fetch(`${ORIGIN}/v1/apis/pets/definition`, { headers: { authorization: `Bearer ${token}` } });
    expect(await served.text()).toBe(petstoreV3);
  });

  it("up to the bound itself: a 16 MiB body crosses RPC and publishes (its lint after the answer)", async () => {
    const token = await createPortal("handoff-b");
    // The JSON petstore padded with white space to exactly HANDED_BODY_MAX_BYTES: built whole, never streamed.
    const json = JSON.stringify({ openapi: "3.0.3", info: { title: "Padded", version: "1.0.0" }, paths: { "/pets": { get: { operationId: "listPets", responses: { "200": { description: "ok" } } } } } });
    const body = new Uint8Array(HANDED_BODY_MAX_BYTES).fill(0x20);
    body.set(bytes(json));
    const answer = await uploadTimed(token, body, { api: "padded" }, "application/json");
    expect(answer.status).toBe(201);
    // Past EARLY_STORE_MIN_BYTES: stored by the route while it arrived, not by the publisher.
    expect(answer.phases).toContain("r2-tail");
    expect(answer.phases).not.toContain("r2-store");
    expect(answer.json.operations).toBe(1);
    const stored = await locateDefinition(env.DEFINITIONS, answer.json.sha256);
    expect(stored?.size).toBe(HANDED_BODY_MAX_BYTES);
    expect((await getPage("/p/handoff-b/reference/padded/1.0.0/listpets")).status).toBe(200);
  });

  it("a body of at least EARLY_STORE_MIN_BYTES is stored while it arrives: named by its SHA-256 before the publish, served back, stored once", async () => {
    const token = await createPortal("handoff-g");
    const json = JSON.stringify({ openapi: "3.0.3", info: { title: "Early", version: "1.0.0" }, paths: { "/pets": { get: { operationId: "listPets", responses: { "200": { description: "ok" } } } } } });
    const body = new Uint8Array(EARLY_STORE_MIN_BYTES).fill(0x0a);
    body.set(bytes(json));
    const streamed = async () => (await env.DEFINITIONS.list({ prefix: "definitions/streamed/" })).objects.length;
    const before = await streamed();
    const answer = await uploadTimed(token, body, { api: "early" }, "application/json");
    expect(answer.status).toBe(201);
    expect(answer.phases).toEqual(expect.arrayContaining(["receive", "r2-tail", "handoff", "build", "d1-write"]));
    expect(answer.phases).not.toContain("r2-store");
    const sha = await sha256Hex(body);
    expect(answer.json.sha256).toBe(sha);
    expect(await streamed()).toBe(before + 1);
    const got = await getDefinition(env.DEFINITIONS, sha);
    expect(got && (await sha256Hex(got.body))).toBe(sha);
    const served = await SELF.fetch(`${ORIGIN}/v1/apis/early/definition`, { headers: { authorization: `Bearer ${token}` } });
    expect(await sha256Hex(new Uint8Array(await served.arrayBuffer()))).toBe(sha);
    expect((await getPage("/p/handoff-g/reference/early/1.0.0/listpets")).status).toBe(200);
    // The same bytes again (another API): the new object is deleted, the content address unchanged.
    expect((await uploadTimed(token, body, { api: "early-again" }, "application/json")).status).toBe(201);
    expect(await streamed()).toBe(before + 1);
    // One byte less: the publisher stores it beside its build, as before.
    const small = await uploadTimed(token, body.subarray(0, EARLY_STORE_MIN_BYTES - 1), { api: "early-small" }, "application/json");
    expect(small.status).toBe(201);
    expect(small.phases).toContain("r2-store");
    expect(small.phases).not.toContain("r2-tail");
  });

  it("a failed early put, or a body of another length than declared, fails before anything is named by the hash", async () => {
    const body = new Uint8Array(EARLY_STORE_MIN_BYTES).fill(0x20);
    body.set(bytes("{}"));
    const sha = await sha256Hex(body);
    const failing = new Proxy(env.DEFINITIONS, {
      get: (t, k) => (k === "put" ? (key: string, value: ReadableStream) => (value.cancel().catch(() => undefined), Promise.reject(new Error(`R2 unavailable for ${key}`))) : (t as any)[k]?.bind?.(t) ?? (t as any)[k]),
    });
    const feed = (early: ReturnType<typeof storeWhileArriving>, b: Uint8Array) => {
      for (let at = 0; at < b.byteLength; at += 65536) early.write(b.subarray(at, at + 65536));
    };
    const early = storeWhileArriving(failing, body.byteLength);
    feed(early, body);
    await expect(early.finish(sha, body.byteLength)).rejects.toThrow(/R2 unavailable/);
    expect(await env.DEFINITIONS.head(definitionKey(sha))).toBeNull();
    // A body shorter than its declared length: refused, the partial object never named.
    const short = storeWhileArriving(env.DEFINITIONS, body.byteLength);
    feed(short, body.subarray(1));
    await expect(short.finish(sha, body.byteLength - 1)).rejects.toThrow(/not the \d+ its Content-Length declared/);
    expect(await env.DEFINITIONS.head(definitionKey(sha))).toBeNull();
  });

  it("a body one byte past the bound is stored by the route first, as before", async () => {
    const token = await createPortal("handoff-c");
    const json = JSON.stringify({ openapi: "3.0.3", info: { title: "Padded", version: "1.0.0" }, paths: {} });
    const body = new Uint8Array(HANDED_BODY_MAX_BYTES + 1).fill(0x20);
    body.set(bytes(json));
    const answer = await uploadTimed(token, body, { api: "padded" }, "application/json");
    expect(answer.status).toBe(201);
    expect(answer.phases).toContain("r2-write");
    expect(answer.phases).not.toContain("r2-store");
  });

  it("a failed R2 write fails the publish before any D1 write: the live version stays, no publication is added, a retry publishes", async () => {
    const token = await createPortal("handoff-d");
    expect((await upload(token, petstoreV3, { api: "pets", version: "v1" })).status).toBe(201);
    const second = petstoreV3.replace("summary: Info for a specific pet", "summary: Fetch one pet");
    const secondSha = await sha256Hex(bytes(second));
    await runInDurableObject(publisherFor(env.PUBLISHER, "handoff-d"), (instance: PortalPublisher) => {
      const real = instance.work;
      instance.work = (e, req, attempt, options) => {
        instance.work = real;
        const bucket = new Proxy(e.DEFINITIONS, {
          get: (t, k) => (k === "put" ? () => Promise.reject(new Error("R2 unavailable")) : (t as any)[k]?.bind?.(t) ?? (t as any)[k]),
        });
        return publishDefinition({ ...e, DEFINITIONS: bucket }, req, attempt, options);
      };
    });
    const failed = await SELF.fetch(`${ORIGIN}/v1/apis/upload?api=pets&version=v2`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: second });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await failed.arrayBuffer();
    expect(await env.DEFINITIONS.head(definitionKey(secondSha))).toBeNull();
    const after = await listed(token);
    expect(after.apis[0]).toMatchObject({ liveVersion: "v1", publications: 1 });
    expect(after.apis[0].versions.map((v: any) => v.label)).toEqual(["v1"]);
    expect((await getPage("/p/handoff-d/reference/pets/v2/showpetbyid")).status).toBe(404);
    const live = (await getPage("/p/handoff-d/reference/pets/")).html;
    expect(live).toContain("Info for a specific pet");
    expect(live).not.toContain("Fetch one pet");

    const retry = await upload(token, second, { api: "pets", version: "v2" });
    expect(retry.status).toBe(201);
    expect((await getPage("/p/handoff-d/reference/pets/")).html).toContain("Fetch one pet");
    const served = await SELF.fetch(`${ORIGIN}/v1/apis/pets/definition`, { headers: { authorization: `Bearer ${token}` } });
    expect(await served.text()).toBe(second);
  });

  it("the bound is the largest body built whole, and the publisher refuses a larger handed body", () => {
    expect(HANDED_BODY_MAX_BYTES).toBe(STREAM_BUILD_MIN_BYTES);
    const request = { portalId: 1, portalSlug: "p", basePath: "/p/p", sha256: "0".repeat(64), contentType: "application/json", origin: ORIGIN };
    const stream = () => new Blob([new Uint8Array(1)]).stream();
    expect(isPublishMessage({ ...request, body: stream(), bodyBytes: HANDED_BODY_MAX_BYTES })).toBe(true);
    expect(isPublishMessage({ ...request, body: stream(), bodyBytes: HANDED_BODY_MAX_BYTES + 1 })).toBe(false);
    expect(isPublishMessage({ ...request, body: stream(), bodyBytes: 0 })).toBe(false);
    expect(isPublishMessage({ ...request, body: stream() })).toBe(false);
    expect(isPublishMessage({ ...request, bodyBytes: 10 })).toBe(false);
    // The body crosses RPC as a stream, never inside the message.
    expect(isPublishMessage({ ...request, body: new Uint8Array(10), bodyBytes: 10 })).toBe(false);
    expect(isPublishMessage({ ...request, body: "not bytes", bodyBytes: 9 })).toBe(false);
  });

  it("a handed stream shorter or longer than it says is refused 400 by the publisher, nothing stored or published", async () => {
    const token = await createPortal("handoff-f");
    expect((await upload(token, petstoreV3, { api: "pets", version: "v1" })).status).toBe(201);
    const second = bytes(petstoreV3.replace("summary: Info for a specific pet", "summary: Fetch one pet (length)"));
    const sha256 = await sha256Hex(second);
    const publisher = publisherFor(env.PUBLISHER, "handoff-f");
    const portal = (await listed(token)).apis[0];
    expect(portal.slug).toBe("pets");
    const portalId = ((await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind("handoff-f").first()) as { id: number }).id;
    const message = { portalId, portalSlug: "handoff-f", basePath: "/p/handoff-f", sha256, contentType: "application/yaml", apiSlug: "pets", versionLabel: "v2", origin: ORIGIN };
    for (const bodyBytes of [second.byteLength + 1, second.byteLength - 1]) {
      const answer = await publisher.publish({ ...message, body: new Blob([second]).stream(), bodyBytes });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.json).error.message).toMatch(bodyBytes > second.byteLength ? /ended after \d+ of \d+ bytes/ : /more than \d+ bytes/);
    }
    expect(await env.DEFINITIONS.head(definitionKey(sha256))).toBeNull();
    const after = await listed(token);
    expect(after.apis[0]).toMatchObject({ liveVersion: "v1", publications: 1 });
    // The same message with the right length publishes (the stream read whole, stored under its hash).
    const right = await publisher.publish({ ...message, body: new Blob([second]).stream(), bodyBytes: second.byteLength });
    expect(right.status).toBe(201);
    expect(right.timings).toHaveProperty("handoff");
    expect(await (await env.DEFINITIONS.get(definitionKey(sha256)))?.text()).toBe(new TextDecoder().decode(second));
    expect((await getPage("/p/handoff-f/reference/pets/")).html).toContain("Fetch one pet (length)");
  });
});

describe("the search index is built while the model's last writes are on the wire", () => {
  it("a failed model header write (the last KV write) fails the publish before any D1 write; a retry publishes", async () => {
    const token = await createPortal("handoff-e");
    expect((await upload(token, petstoreV3, { api: "pets", version: "v1" })).status).toBe(201);
    // Bytes no other test stores: the model must be new, so that its header is written.
    const second = petstoreV3.replace("summary: Info for a specific pet", "summary: Fetch one pet (header)");
    let refused = 0;
    await runInDurableObject(publisherFor(env.PUBLISHER, "handoff-e"), (instance: PortalPublisher) => {
      const real = instance.work;
      instance.work = (e, req, attempt, options) => {
        instance.work = real;
        const kv = new Proxy(e.MODELS, {
          get: (t, k) =>
            k === "put"
              ? (key: string, ...rest: unknown[]) => (key.endsWith("/header") ? (refused++, Promise.reject(new Error("KV unavailable"))) : (t.put as any)(key, ...rest))
              : (t as any)[k]?.bind?.(t) ?? (t as any)[k],
        });
        return publishDefinition({ ...e, MODELS: kv }, req, attempt, options);
      };
    });
    const failed = await SELF.fetch(`${ORIGIN}/v1/apis/upload?api=pets&version=v2`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: second });
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await failed.arrayBuffer();
    expect(refused).toBe(1);
    const after = await listed(token);
    expect(after.apis[0]).toMatchObject({ liveVersion: "v1", publications: 1 });
    expect(after.apis[0].versions.map((v: any) => v.label)).toEqual(["v1"]);
    expect((await getPage("/p/handoff-e/reference/pets/")).html).not.toContain("Fetch one pet");
    // The search index did not flip either.
    const hits = (await (await SELF.fetch(`${ORIGIN}/p/handoff-e/search.json?q=fetch%20one%20pet`)).json()) as any;
    expect(hits.results.map((r: any) => r.version)).not.toContain("v2");

    expect((await upload(token, second, { api: "pets", version: "v2" })).status).toBe(201);
    expect((await getPage("/p/handoff-e/reference/pets/")).html).toContain("Fetch one pet");
    expect((await getPage("/p/handoff-e/reference/pets/v2/showpetbyid")).status).toBe(200);
  });
});

describe("decodeUtf8 in workerd (its Buffer, through nodejs_compat)", () => {
  it("answers as a fatal TextDecoder on every case", () => {
    for (const { name, bytes, text } of UTF8_CASES) {
      let got: string | undefined;
      try {
        got = decodeUtf8(new Uint8Array(bytes));
      } catch {
        got = undefined;
      }
      expect(got, name).toBe(text);
    }
  });
});
