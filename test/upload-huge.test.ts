import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { app } from "../worker/app";
import { MAX_UPLOAD_BYTES } from "../worker/routes/apis";
import { definitionKey, getDefinition, locateDefinition } from "../worker/store/definitions";
import { BodyRefused, receiveBody } from "../worker/store/definition-upload";
import { corpusFile, corpusManifest, createPortal, ORIGIN } from "./harness/client";
import { catalogFor } from "../worker/store/portal-catalog";

const MiB = 1024 * 1024;

/** A body of `total` bytes sent in 1 MiB chunks made by `fill`, counting what the reader pulled and whether it cancelled. */
function countedBody(total: number, fill: (index: number, chunk: Uint8Array) => void = (_, c) => c.fill(0x20)) {
  const seen = { pulled: 0, cancelled: false };
  let index = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const size = Math.min(MiB, total - seen.pulled);
      if (size <= 0) return controller.close();
      const chunk = new Uint8Array(size);
      fill(index++, chunk);
      seen.pulled += size;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

/**
 * A byte stream (as workerd hands request bodies) of `total` bytes, byte i being i % 251, in odd 4,093-byte chunks
 * as a body arrives: readAtLeast has to gather them across chunk boundaries.
 */
function byteBody(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    type: "bytes",
    pull(controller) {
      const n = Math.min(4093, total - sent);
      if (n <= 0) return controller.close();
      const chunk = new Uint8Array(n);
      for (let i = 0; i < n; i++) chunk[i] = (sent + i) % 251;
      sent += n;
      controller.enqueue(chunk);
    },
  }) as ReadableStream<Uint8Array>;
}

/** The bytes {@link byteBody} sends. */
const byteBodyBytes = (total: number) => Uint8Array.from({ length: total }, (_, i) => i % 251);

async function sha256Of(parts: Uint8Array[]): Promise<string> {
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  const w = digest.getWriter();
  for (const p of parts) await w.write(p);
  await w.close();
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function post(token: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}): Promise<Response> {
  const request = new Request(`${ORIGIN}/v1/apis/upload?api=huge`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...headers },
    body,
    duplex: "half",
  } as RequestInit);
  return app.fetch(request, env);
}

describe("upload bodies up to 100 MB (issue 12)", () => {
  it("a declared Content-Length past 100 MB is refused with 413 before a byte is read", async () => {
    const token = await createPortal("huge-declared");
    const { stream, seen } = countedBody(MAX_UPLOAD_BYTES + MiB);
    const res = await post(token, stream, { "content-length": String(101_000_000) });
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error.message).toMatch(/100000000 byte limit/);
    expect(seen.pulled).toBeLessThanOrEqual(MiB); // at most the stream's own first pull
  });

  it("a 101 MB body without Content-Length is refused with 413 as soon as the count passes 100 MB, and leaves nothing in R2", async () => {
    const token = await createPortal("huge-chunked");
    const total = 101 * MiB;
    const { stream, seen } = countedBody(total);
    const res = await post(token, stream);
    expect(res.status).toBe(413);
    // Read up to the limit plus the chunk that crossed it (and what the stream queued ahead), never to the end.
    expect(seen.pulled).toBeLessThan(total);
    expect(seen.pulled).toBeLessThanOrEqual(MAX_UPLOAD_BYTES + 2 * MiB);
    expect(seen.cancelled).toBe(true);
    expect((await env.DEFINITIONS.list({ prefix: "definitions/" })).objects).toEqual([]);
  });

  it("receiveBody streams a body past the buffer to R2 once, in parts, found under its SHA-256 (an alias); the same bytes again store nothing new", async () => {
    const fill = (i: number, c: Uint8Array) => c.fill(0x61 + (i % 26));
    const total = 12 * MiB + 12345;
    const { stream } = countedBody(total, fill);
    // A small buffer and 5 MiB parts exercise the buffered-then-streamed switch and an uneven last part.
    const got = await receiveBody(env.DEFINITIONS, stream, { maxBytes: 20 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB });
    const expected: Uint8Array[] = [];
    for (let i = 0, left = total; left > 0; i++, left -= MiB) {
      const c = new Uint8Array(Math.min(MiB, left));
      fill(i, c);
      expected.push(c);
    }
    const sha = await sha256Of(expected);
    expect(got).toEqual({ kind: "stored", sha256: sha, size: total });
    const stored = await getDefinition(env.DEFINITIONS, sha);
    expect(stored?.body.byteLength).toBe(total);
    expect(await sha256Of([stored!.body])).toBe(sha);
    const at = await locateDefinition(env.DEFINITIONS, sha);
    expect(at).toEqual({ key: expect.stringMatching(/^definitions\/streamed\/[0-9a-f-]{36}$/), size: total });
    const keys = async () => (await env.DEFINITIONS.list({ prefix: "definitions/" })).objects.map((o) => o.key).sort();
    expect(await keys()).toEqual([definitionKey(sha), at!.key].sort());
    // Content-addressed: a second upload of the same bytes leaves the objects as they were.
    const again = await receiveBody(env.DEFINITIONS, countedBody(total, fill).stream, { maxBytes: 20 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB });
    expect(again).toEqual(got);
    expect(await keys()).toEqual([definitionKey(sha), at!.key].sort());
    expect(await locateDefinition(env.DEFINITIONS, sha)).toEqual(at);
  });

  it("receiveBody reads a byte stream (as workerd hands request bodies) in 1 MiB pieces through a BYOB reader: the same bytes, buffered or stored", async () => {
    const small = await receiveBody(env.DEFINITIONS, byteBody(2 * MiB + 5), { maxBytes: 20 * MiB, bufferBytes: 3 * MiB });
    expect(small.kind === "buffered" && (await sha256Of([small.bytes]))).toBe(await sha256Of([byteBodyBytes(2 * MiB + 5)]));
    const total = 11 * MiB + 77;
    const large = await receiveBody(env.DEFINITIONS, byteBody(total), { maxBytes: 20 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB });
    const sha = await sha256Of([byteBodyBytes(total)]);
    expect(large).toEqual({ kind: "stored", sha256: sha, size: total });
    expect(await sha256Of([(await getDefinition(env.DEFINITIONS, sha))!.body])).toBe(sha);
    const over = await receiveBody(env.DEFINITIONS, byteBody(30 * MiB), { maxBytes: 12 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB }).catch((e) => e);
    expect(over).toBeInstanceOf(BodyRefused);
  });

  it("receiveBody reads a body of declared length (Content-Length) into one buffer: the same bytes; shorter or longer is refused", async () => {
    const options = { maxBytes: 20 * MiB, bufferBytes: 3 * MiB };
    const total = 2 * MiB + 5;
    // A byte stream (BYOB reads into the one buffer) and a stream of chunks (copied into it).
    for (const stream of [byteBody(total), new Blob([byteBodyBytes(total)]).stream(), countedBody(total, (i, c) => c.set(byteBodyBytes(total).subarray(i * MiB, i * MiB + c.byteLength))).stream]) {
      const got = await receiveBody(env.DEFINITIONS, stream, { ...options, expectedBytes: total });
      expect(got.kind).toBe("buffered");
      expect(got.kind === "buffered" && got.bytes.byteLength).toBe(total);
      expect(got.kind === "buffered" && (await sha256Of([got.bytes]))).toBe(await sha256Of([byteBodyBytes(total)]));
    }
    // Shorter is cut off (issue 38; test/upload-short-body.test.ts): refused, naming both lengths.
    const shorter = await receiveBody(env.DEFINITIONS, byteBody(total - 9), { ...options, expectedBytes: total }).catch((e) => e);
    expect(shorter).toMatchObject({ reason: "short", received: total - 9, expected: total });
    for (const longer of [byteBody(total + 1), new Blob([byteBodyBytes(total + 1)]).stream()]) {
      const refused = await receiveBody(env.DEFINITIONS, longer, { ...options, expectedBytes: total }).catch((e) => e);
      expect(refused).toBeInstanceOf(BodyRefused);
      expect(refused.reason).toBe("aborted");
    }
    // A declared length past the buffer reads as before (pieces, then stored).
    const large = await receiveBody(env.DEFINITIONS, byteBody(4 * MiB), { ...options, partBytes: 5 * MiB, expectedBytes: 4 * MiB });
    expect(large.kind).toBe("stored");
  });

  it("receiveBody hands back a body within the buffer whole, writing nothing", async () => {
    const { stream } = countedBody(2 * MiB + 7);
    const got = await receiveBody(env.DEFINITIONS, stream, { maxBytes: 20 * MiB, bufferBytes: 3 * MiB });
    expect(got.kind).toBe("buffered");
    expect(got.kind === "buffered" && got.bytes.byteLength).toBe(2 * MiB + 7);
  });

  it("receiveBody refuses past maxBytes mid-stream and aborts its multipart upload", async () => {
    const keys = async () => (await env.DEFINITIONS.list({ prefix: "definitions/" })).objects.map((o) => o.key);
    const before = await keys();
    const { stream, seen } = countedBody(30 * MiB);
    const refused = await receiveBody(env.DEFINITIONS, stream, { maxBytes: 12 * MiB, bufferBytes: 3 * MiB, partBytes: 5 * MiB }).catch((e) => e);
    expect(refused).toBeInstanceOf(BodyRefused);
    expect(refused.reason).toBe("over-limit");
    expect(seen.cancelled).toBe(true);
    expect(seen.pulled).toBeLessThan(30 * MiB);
    expect(await keys()).toEqual(before);
  });
});

/**
 * A synthetic definition of about `total` bytes from a real one (UniCourt, 3 MB): its header and components, then its
 * path items `copies` times under prefixed paths, indented and padded with blank lines to reach the size. Slices
 * stay those of UniCourt (4.9 M characters a copy), so the model stays under the 64 M-character limit. Generated as
 * it is sent: the test never holds it. `cut` stops it after that many bytes (a truncated upload); `seen.line` and
 * `seen.column` then say where the text ended.
 */
function syntheticDefinition(source: Uint8Array, total: number, copies: number, cut = Infinity) {
  const doc = JSON.parse(new TextDecoder().decode(source));
  const { paths, ...rest } = doc;
  const entries = Object.entries(paths).map(([path, item]) => [path, JSON.stringify(item, null, 2).replace(/\n/g, "\n    ")] as const);
  const head = `${JSON.stringify(rest, null, 2).slice(0, -2)},\n  "paths": {\n`;
  const itemBytes = entries.reduce((n, [path, item]) => n + new TextEncoder().encode(`    ${JSON.stringify(`/c0${path}`)}: ${item},\n`).byteLength, 0);
  const padding = Math.max(0, Math.floor((total - head.length - copies * itemBytes - 8) / (copies * entries.length)));
  const pad = `\n${" ".repeat(99)}`.repeat(Math.floor(padding / 100)) + " ".repeat(padding % 100);
  const seen = { sent: 0, line: 1, column: 1, operations: 0 };
  const enc = new TextEncoder();
  let copy = 0;
  let i = 0;
  let started = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      let text: string;
      if (!started) {
        started = true;
        text = head;
      } else if (copy < copies) {
        const [path, item] = entries[i];
        const last = copy === copies - 1 && i === entries.length - 1;
        text = `    ${JSON.stringify(`/c${copy}${path}`)}: ${item}${last ? "" : ","}${pad}\n`;
        if (++i === entries.length) {
          i = 0;
          copy++;
        }
      } else if (copy === copies) {
        copy++;
        text = "\n  }\n}\n";
      } else return controller.close();
      let bytes = enc.encode(text);
      if (seen.sent + bytes.byteLength > cut) {
        bytes = bytes.subarray(0, cut - seen.sent);
        text = new TextDecoder().decode(bytes); // the cut falls inside ASCII padding or JSON text
        copy = copies + 1;
      }
      const lines = text.split("\n");
      seen.line += lines.length - 1;
      seen.column = lines.length > 1 ? lines.at(-1)!.length + 1 : seen.column + text.length;
      seen.sent += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
  return { stream, seen };
}

/**
 * The YAML counterpart of {@link syntheticDefinition}: the header and components written by the `yaml` library, then
 * `copies` copies of the path items under prefixed (every other one quoted) keys, each followed by comment lines to
 * reach about `total` bytes. Generated as it is sent.
 */
function syntheticYaml(source: Uint8Array, total: number, copies: number) {
  const doc = JSON.parse(new TextDecoder().decode(source));
  const { paths, ...rest } = doc;
  const options = { indent: 2, lineWidth: 0, aliasDuplicateObjects: false };
  const entries = Object.entries(paths).map(([path, item]) => [path, stringify(item, options).replace(/^(?=.)/gm, "    ")] as const);
  const head = `# synthetic\n${stringify(rest, options)}paths:\n`;
  const itemBytes = entries.reduce((n, [path, item]) => n + path.length + item.length + 8, 0);
  const padding = Math.max(0, Math.floor((total - head.length - copies * itemBytes) / (copies * entries.length)));
  const pad = `# ${"padding ".repeat(12)}\n`.repeat(Math.ceil(padding / 99));
  const seen = { sent: 0, operations: 0 };
  const enc = new TextEncoder();
  let next = -1;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next === copies * entries.length) return controller.close();
      let text = head;
      if (next >= 0) {
        const [path, item] = entries[next % entries.length];
        const key = `/c${Math.floor(next / entries.length)}${path}`;
        text = `  ${next % 2 ? JSON.stringify(key) : key}:\n${item}${pad}`;
      }
      next++;
      const bytes = enc.encode(text);
      seen.sent += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
  return { stream, seen };
}

describe("definitions up to 100 MB publish streamed (issue 12)", () => {
  it("a synthetic 99 MB JSON definition from a real one publishes without Content-Length, and its operation pages serve", async () => {
    const token = await createPortal("huge-publish");
    const { body } = await corpusFile("apis-guru-npm/api/unicourt.com.json");
    const { stream, seen } = syntheticDefinition(body, 99_000_000, 6);
    const res = await post(token, stream);
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json).slice(0, 500)).toBe(201);
    expect(seen.sent).toBeGreaterThan(98_000_000);
    expect(json.operations).toBe(6 * 158); // and 6 * 4 callbacks
    expect(json.lint.status).toBe("complete");
    expect(json.lint.note).toMatch(/lint did not run: definitions past 16777216 bytes are built streamed/);
    // Copies repeat operationIds: the build's own findings are listed, at their lines.
    expect(json.lint.issues.find((i: any) => i.rule === "duplicate-operation-id")?.line).toBeGreaterThan(1000);
    const list = (await (await app.fetch(new Request(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } }), env)).json()) as any;
    expect(list.apis[0].versions[0].callbacks).toBe(6 * 4);
    // Pages of the first and the last copy serve (the slice of each is in KV, located by its D1 row).
    const index = await app.fetch(new Request(`${ORIGIN}/p/huge-publish/reference/huge/`), env);
    expect(index.status).toBe(200);
    const html = await index.text();
    const links = [...html.matchAll(/href="(\/p\/huge-publish\/reference\/huge\/[^"/]+\/[^"#?]+)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(100);
    for (const link of [links[0], links[1], links.at(-2)!, links.at(-1)!]) {
      const page = await app.fetch(new Request(`${ORIGIN}${link}`), env);
      expect(page.status, link).toBe(200);
      expect(await page.text()).toContain("UniCourt");
    }
    // A later small version: the diff with the streamed one is refused without reading it, drafts skip the pair.
    const auth = { authorization: `Bearer ${token}` };
    const small = JSON.stringify({ openapi: "3.0.3", info: { title: "Small", version: "2" }, paths: {} });
    const next = await app.fetch(new Request(`${ORIGIN}/v1/apis/upload?api=huge`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: small }), env);
    expect(next.status).toBe(201);
    const changes = await app.fetch(new Request(`${ORIGIN}/v1/apis/huge/changes`, { headers: auth }), env);
    expect(changes.status).toBe(422);
    expect(((await changes.json()) as any).error.code).toBe("too-large-to-diff");
    const drafts = await app.fetch(new Request(`${ORIGIN}/v1/apis/huge/changelog/drafts`, { headers: auth }), env);
    expect(drafts.status).toBe(200);
    expect(((await drafts.json()) as any).drafts).toEqual([]);
  });

  // Rows go to the portal's catalog (issue 37) in pieces of CATALOG_PUT_ROWS, each one RPC well within its message limit.
  it("6,000 operations (over 2 MB of rows): stored in the portal's catalog in several pieces, pages serve", async () => {
    const token = await createPortal("many-ops");
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 6000; i++) paths[`/items/${i}`] = { get: { operationId: `getItem${i}`, summary: `Reads item ${i}: ${"a summary long enough to make each row weigh ".repeat(10)}`, responses: { "200": { description: "ok" } } } };
    const body = JSON.stringify({ openapi: "3.0.3", info: { title: "Many", version: "1" }, paths });
    // Through SELF: a body past 2 MiB is linted after the answer (waitUntil needs the request's execution context).
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/upload?api=many`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });
    expect(res.status).toBe(201);
    const portal = await env.DB.prepare("SELECT p.id, a.live_version_id AS version FROM portals p JOIN apis a ON a.portal_id = p.id WHERE p.slug = 'many-ops'").first<{ id: number; version: number }>();
    const rows = await catalogFor(env, portal!.id).stub.operations(portal!.id, portal!.version);
    expect(rows.length).toBe(6000);
    expect(rows.reduce((n, r) => n + (r.summary?.length ?? 0), 0)).toBeGreaterThan(2_100_000);
    expect(rows.map((r) => r.position)).toEqual(rows.map((_, i) => i));
    for (const slug of ["getitem0", "getitem2999", "getitem5999"]) {
      const page = await app.fetch(new Request(`${ORIGIN}/p/many-ops/reference/many/1/${slug}`), env);
      expect(page.status, slug).toBe(200);
    }
  });

  it("a streamed definition with one operation reaching more than 4 MB of $ref targets is refused with 422 too-dense, as a whole build is", async () => {
    const token = await createPortal("huge-dense");
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 50; i++) schemas[`S${i}`] = { description: "d".repeat(100_000), properties: { next: { $ref: `#/components/schemas/S${i + 1}` } } };
    schemas.S50 = { type: "string" };
    const response = (ref: string) => ({ responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: ref } } } } } });
    const doc = { openapi: "3.1.0", info: { title: "Dense", version: "1" }, paths: { "/light": { get: response("#/components/schemas/S49") }, "/heavy": { get: response("#/components/schemas/S0") } }, components: { schemas } };
    const head = new TextEncoder().encode(JSON.stringify(doc).slice(0, -1));
    // Padded with white space before the closing brace, past 25 MiB: built streamed.
    const total = 27 * MiB;
    const { stream } = countedBody(total, (i, c) => {
      c.fill(0x20);
      if (i * MiB < head.length) c.set(head.subarray(i * MiB, Math.min(head.length, (i + 1) * MiB)));
      if ((i + 1) * MiB >= total) c[c.length - 1] = 0x7d;
    });
    const res = await post(token, stream);
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json).slice(0, 300)).toBe(422);
    expect(json.error.code).toBe("too-dense");
    expect(json.error.message).toMatch(/one operation's page would need more than 4 MB of \$ref targets \(\d+ of them, after 2 of 2 operations\)/);
    const list = (await (await app.fetch(new Request(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } }), env)).json()) as any;
    expect(list.apis).toEqual([]);
  });

  it("a synthetic 28 MB YAML definition from a real one publishes streamed, and its operation pages serve", async () => {
    const token = await createPortal("huge-yaml");
    const { body } = await corpusFile("apis-guru-npm/api/unicourt.com.json");
    const { stream, seen } = syntheticYaml(body, 28_000_000, 2);
    const res = await post(token, stream, { "content-type": "application/yaml" });
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json).slice(0, 500)).toBe(201);
    expect(seen.sent).toBeGreaterThan(26 * MiB);
    expect(json.operations).toBe(2 * 158);
    expect(json.lint.note).toMatch(/lint did not run/);
    expect(json.lint.issues.find((i: any) => i.rule === "duplicate-operation-id")?.line).toBeGreaterThan(1000);
    const definition = await app.fetch(new Request(`${ORIGIN}/v1/apis/huge/definition`, { headers: { authorization: `Bearer ${token}` } }), env);
    expect(definition.headers.get("content-type")).toMatch(/yaml/);
    // Streamed on from R2 through the upload's alias: every byte sent.
    expect((await definition.arrayBuffer()).byteLength).toBe(seen.sent);
    const index = await app.fetch(new Request(`${ORIGIN}/p/huge-yaml/reference/huge/`), env);
    const links = [...(await index.text()).matchAll(/href="(\/p\/huge-yaml\/reference\/huge\/[^"/]+\/[^"#?]+)"/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(100);
    for (const link of [links[0], links.at(-1)!]) {
      const page = await app.fetch(new Request(`${ORIGIN}${link}`), env);
      expect(page.status, link).toBe(200);
      expect(await page.text()).toContain("UniCourt");
    }
  });

  it("a YAML definition past 25 MiB in a shape the line reader cannot split (flow style paths) is refused with 413 saying why, with its line", async () => {
    const token = await createPortal("huge-yaml-flow");
    const line = `# ${"padding ".repeat(12)}\n`;
    const head = "openapi: 3.0.3\ninfo: {title: Big, version: '1'}\npaths: {\"/a\": {}}\n";
    const { stream } = countedBody(26 * MiB, (i, c) => c.set(new TextEncoder().encode((i === 0 ? head : "") + line.repeat(Math.ceil(MiB / line.length))).subarray(0, c.byteLength)));
    const res = await post(token, stream, { "content-type": "application/yaml" });
    expect(res.status).toBe(413);
    const error = ((await res.json()) as any).error;
    expect(error.code).toBe("yaml-not-streamable");
    expect(error.message).toMatch(/flow style for `paths`.*line 3/);
  });

  /** `head` (text), then white space (the padding) up to `total` bytes, ending with `tail`. */
  const padded = (total: number, head: string, tail = "") => {
    const start = new TextEncoder().encode(head);
    const end = new TextEncoder().encode(tail);
    return countedBody(total, (i, c) => {
      c.fill(0x20);
      if (i * MiB < start.length) c.set(start.subarray(i * MiB, Math.min(start.length, (i + 1) * MiB)));
      if ((i + 1) * MiB >= total) c.set(end, c.length - end.length);
    });
  };
  const small = { info: { title: "Mid", version: "1" }, paths: { "/a": { get: { operationId: "getA", responses: { "200": { description: "ok" } } } } } };

  it("a 17 MiB JSON definition (buffered by the Worker, past STREAM_BUILD_MIN_BYTES) is built streamed, never parsed whole; its search shard follows the answer", async () => {
    const token = await createPortal("mid-json");
    const { stream } = padded(17 * MiB, JSON.stringify({ openapi: "3.0.3", ...small }).slice(0, -1), "}");
    const json = (await (await post(token, stream)).json()) as any;
    expect(json.operations, JSON.stringify(json).slice(0, 300)).toBe(1);
    expect(json.lint).toMatchObject({ status: "complete", errors: 0 });
    expect(json.lint.note).toMatch(/lint did not run: definitions past 16777216 bytes are built streamed/);
    // Live at the answer; its shard is built right after it in the publisher's queue (storage37c): poll the reader's
    // search until the operation is found (10 s at most).
    const found = async () => ((await (await SELF.fetch(`${ORIGIN}/p/mid-json/search.json?q=getA`)).json()) as any).results?.some((r: any) => r.api === "huge") === true;
    let seen = await found();
    for (const stop = Date.now() + 10_000; !seen && Date.now() < stop; seen = await found()) await new Promise((r) => setTimeout(r, 50));
    expect(seen).toBe(true);
    const shard = await env.DB.prepare("SELECT s.source FROM search_shards s JOIN portals p ON p.id = s.portal_id WHERE p.slug = 'mid-json'").all<{ source: string }>();
    expect(shard.results.map((r) => r.source)).toEqual(["api:huge"]);
  });

  it("a 17 MiB Swagger 2.0 or flow-style YAML definition, which only a whole build reads, is built whole (linted) rather than refused", async () => {
    const token = await createPortal("mid-whole");
    const swagger = padded(17 * MiB, JSON.stringify({ swagger: "2.0", ...small }).slice(0, -1), "}");
    // Through SELF: a body past 2 MiB is linted after the answer (waitUntil needs the request's execution context).
    const send = (body: ReadableStream<Uint8Array>, api: string, type: string) =>
      SELF.fetch(`${ORIGIN}/v1/apis/upload?api=${api}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body, duplex: "half" } as RequestInit);
    const res = await send(swagger.stream, "swagger", "application/json");
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json).slice(0, 300)).toBe(201);
    expect(json).toMatchObject({ sourceVersion: "2.0", operations: 1, lint: { status: "pending" } });
    // Told from its first bytes: no streamed attempt first (its time would be Server-Timing's `stream-refused`).
    expect(res.headers.get("server-timing")).toMatch(/\bbuild;dur=/);
    expect(res.headers.get("server-timing")).not.toMatch(/stream-refused/);
    const flow = padded(17 * MiB, "openapi: 3.0.3\ninfo: {title: Flow, version: '1'}\npaths: {\"/a\": {get: {responses: {'200': {description: ok}}}}}\n", "\n");
    const yaml = await send(flow.stream, "flow", "application/yaml");
    const answer = (await yaml.json()) as any;
    expect(yaml.status, JSON.stringify(answer).slice(0, 300)).toBe(201);
    expect(answer).toMatchObject({ operations: 1, lint: { status: "pending" } });
    // Only the streamed build's refusal tells this one (the line reader stops at `paths`): the fallback stays.
    expect(yaml.headers.get("server-timing")).toMatch(/\bstream-refused;dur=\d+/);
  });

  it("17 MiB Swagger 2.0 definitions from the corpus publish: built whole at once when their head declares swagger 2.0, after a refused streamed attempt when it does not (keys sorted)", async () => {
    const token = await createPortal("mid-swagger");
    const send = (body: ReadableStream<Uint8Array>, api: string, type: string) =>
      SELF.fetch(`${ORIGIN}/v1/apis/upload?api=${api}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body, duplex: "half" } as RequestInit);
    const cases = [
      // `swagger` first (JSON) and on line 12 after comments (YAML): within the head; Slack's keys are sorted, `swagger` near the end.
      { path: "go-swagger/testdata/canary/docker/swagger.json", type: "application/json", api: "docker-json", sniffed: true },
      { path: "go-swagger/testdata/canary/docker-v19.03.13/swagger.yaml", type: "application/yaml", api: "docker-yaml", sniffed: true },
      { path: "slack/web-api/slack_web_openapi_v2.json", type: "application/json", api: "slack", sniffed: false },
    ];
    const rows = new Map((await corpusManifest()).map((row) => [row.local_path, row]));
    for (const { path, type, api, sniffed } of cases) {
      expect(rows.get(path)?.declared_version, path).toBe("swagger 2.0");
      const text = new TextDecoder().decode((await corpusFile(path)).body);
      // Padded with white space past 16 MiB: before the root's closing brace (JSON), after the document (YAML).
      const json = type === "application/json";
      const body = padded(17 * MiB, json ? text.slice(0, text.lastIndexOf("}")) : text, json ? "}" : "\n");
      const res = await send(body.stream, api, type);
      const answer = (await res.json()) as any;
      expect(res.status, `${path}: ${JSON.stringify(answer).slice(0, 300)}`).toBe(201);
      expect(body.seen.pulled, path).toBe(17 * MiB);
      expect(answer.sourceVersion, path).toBe("2.0");
      expect(answer.operations, path).toBeGreaterThan(40);
      const timing = res.headers.get("server-timing") ?? "";
      expect(timing, path).toMatch(/\bbuild;dur=/);
      if (sniffed) expect(timing, path).not.toMatch(/stream-refused/);
      else expect(timing, path).toMatch(/\bstream-refused;dur=\d+/);
      const page = await app.fetch(new Request(`${ORIGIN}/p/mid-swagger/reference/${api}/`), env);
      expect(page.status, path).toBe(200);
    }
  });

  it("a truncated 60 MB JSON definition is refused with 400 and the line and column where it ends", async () => {
    const token = await createPortal("huge-truncated");
    const { body } = await corpusFile("apis-guru-npm/api/unicourt.com.json");
    const { stream, seen } = syntheticDefinition(body, 99_000_000, 6, 60_000_000);
    const res = await post(token, stream);
    const json = (await res.json()) as any;
    expect(res.status, JSON.stringify(json).slice(0, 500)).toBe(400);
    expect(seen.sent).toBe(60_000_000);
    expect(json.error.details).toMatchObject({ line: seen.line, column: seen.column });
    expect(json.error.message).toContain(`line ${seen.line}`);
  });
});
