/**
 * Per-portal storage (issue 37), through real publishes (miniflare D1, KV, R2 and Durable Objects): a publish into a
 * portal of 50 APIs writes only what belongs to the new API (its model's KV values, its one search shard, its raw
 * body in R2, its own catalog rows, its own shard row), leaving every other API's values, objects, rows and shard
 * as they were; two portals keep their operations in two catalogs that share nothing; rows of a portal published
 * before the catalog are moved there from D1 on first use.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";
import { CATALOG_PUT_ROWS, catalogFor, PAGE_COLUMNS, putOperations, type PortalCatalog } from "../worker/store/portal-catalog";
import { bundle, PETSTORE_OPS, uploadContent } from "./content/bundles";
import { publishDefinition } from "../worker/publish/publish-definition";
import { sha256Hex } from "../worker/store/tokens";

const definition = (word: string, ops = 3) =>
  `openapi: 3.0.3\ninfo: { title: ${word}, version: "1" }\npaths:\n` +
  Array.from({ length: ops }, (_, i) => `  /${word}/r${i}:\n    get:\n      operationId: get${word}${i}\n      summary: Fetch ${word} record ${i}\n      tags: [${word}]\n      responses: { '200': { description: ok } }\n`).join("");

/** Every KV key with its metadata (JSON), listed through the binding. */
async function kvState(): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await env.MODELS.list({ cursor });
    for (const k of page.keys) keys.set(k.name, JSON.stringify(k.metadata ?? null));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return keys;
}

/** Every R2 object with its etag and upload instant: a rewrite changes both. */
async function r2State(): Promise<Map<string, string>> {
  const objects = new Map<string, string>();
  let cursor: string | undefined;
  do {
    const page = await env.DEFINITIONS.list({ cursor });
    for (const o of page.objects) objects.set(o.key, `${o.etag} ${o.uploaded.toISOString()}`);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}

async function portalId(slug: string): Promise<number> {
  return (await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>())!.id;
}

/** D1 rows that describe the portal's APIs and shards, as text, by key. */
async function d1State(id: number): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  const apis = await env.DB.prepare("SELECT * FROM apis WHERE portal_id = ?").bind(id).all();
  for (const r of apis.results) rows.set(`api:${r.slug}`, JSON.stringify(r));
  const versions = await env.DB.prepare("SELECT v.* FROM versions v JOIN apis a ON a.id = v.api_id WHERE a.portal_id = ?").bind(id).all();
  for (const r of versions.results) rows.set(`version:${r.id}`, JSON.stringify(r));
  const shards = await env.DB.prepare("SELECT * FROM search_shards WHERE portal_id = ?").bind(id).all();
  for (const r of shards.results) rows.set(`shard:${r.source}`, JSON.stringify(r));
  return rows;
}

function added<T>(before: Map<string, T>, after: Map<string, T>): string[] {
  return [...after.keys()].filter((k) => !before.has(k));
}

function unchanged<T>(before: Map<string, T>, after: Map<string, T>): void {
  for (const [k, v] of before) expect(after.get(k), k).toEqual(v);
}

/**
 * `env` with its storage bindings counting what a publish asks of them, by kind: D1 statements (`d1:{first|all|run|
 * raw}` per statement, `d1:batch` per batch and `d1:batched` per statement in one), KV and R2 calls by method, and the
 * catalog's RPC methods (`catalog:{method}`). Counts, not timings: the same publish must cost the same calls whatever
 * the portal's size (issue 37).
 */
function countingEnv(base: Env): { env: Env; counts: Record<string, number> } {
  const counts: Record<string, number> = {};
  const count = (k: string, n = 1) => void (counts[k] = (counts[k] ?? 0) + n);
  const real = new WeakMap<object, unknown>();
  const statement = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const wrapped = new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => statement(Reflect.apply(value, target, args) as D1PreparedStatement);
        if (prop === "first" || prop === "all" || prop === "run" || prop === "raw") return (...args: unknown[]) => (count(`d1:${prop}`), Reflect.apply(value, target, args));
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    real.set(wrapped, stmt);
    return wrapped;
  };
  const DB = new Proxy(base.DB, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql));
      if (prop === "batch") return (stmts: D1PreparedStatement[]) => (count("d1:batch"), count("d1:batched", stmts.length), target.batch(stmts.map((s) => (real.get(s) as D1PreparedStatement) ?? s)));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const methods = <T extends object>(target: T, prefix: string): T =>
    new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t);
        if (typeof value !== "function" || typeof prop !== "string") return value;
        // Reflect.apply: an RPC stub would take `.apply` for a method of its own.
        return (...args: unknown[]) => (count(`${prefix}:${prop}`), Reflect.apply(value, t, args));
      },
    });
  const CATALOG = new Proxy(base.CATALOG, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "get") return (id: DurableObjectId) => methods(target.get(id), "catalog");
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { env: { ...base, DB, MODELS: methods(base.MODELS, "kv"), DEFINITIONS: methods(base.DEFINITIONS, "r2"), CATALOG } as Env, counts };
}

describe("per-portal storage", () => {
  it("a portal with 50 APIs: publishing the 51st writes only its own model, shard, body, catalog rows and shard row", async () => {
    const token = await createPortal("storage-fifty");
    for (let i = 0; i < 50; i++) expect((await upload(token, definition(`w${i}x`), { api: `a${String(i).padStart(2, "0")}` })).status).toBe(201);
    const id = await portalId("storage-fifty");
    const catalog = catalogFor(env, id);
    const [kv, r2, d1, rows] = [await kvState(), await r2State(), await d1State(id), await catalog.stub.counts(id)];
    expect(Object.keys(rows)).toHaveLength(50);

    const res = await upload(token, definition("omega", 4), { api: "a50" });
    expect(res.status).toBe(201);
    const version = (res.json as { publication: number }).publication;
    const [kv2, r22, d12, rows2] = [await kvState(), await r2State(), await d1State(id), await catalog.stub.counts(id)];

    // KV: the new model's values and one search shard (with its documents, a value of their own), nothing else
    // added; every earlier key and its metadata kept.
    const modelKey = (await env.DB.prepare("SELECT model_key AS k FROM versions WHERE id = ?").bind(version).first<{ k: string }>())!.k;
    const newKv = added(kv, kv2);
    const shardRow = (await env.DB.prepare("SELECT shard_key AS k FROM search_shards WHERE portal_id = ? AND source = 'api:a50'").bind(id).first<{ k: string }>())!.k;
    const { docsKey } = JSON.parse((await env.MODELS.get(shardRow))!) as { docsKey: string };
    expect(newKv.filter((k) => !k.startsWith(modelKey + "/")).sort()).toEqual([shardRow, docsKey].sort());
    expect(newKv.filter((k) => k.startsWith(modelKey + "/")).length).toBeGreaterThan(0);
    unchanged(kv, kv2);
    // R2: the new body alone, no earlier object rewritten.
    expect(added(r2, r22)).toEqual([`definitions/${(res.json as { sha256: string }).sha256}`]);
    unchanged(r2, r22);
    // Catalog: the new version's 4 rows; every other version's rows as they were.
    expect(rows2).toEqual({ ...rows, [version]: 4 });
    // D1: the new API, version and shard rows; the other APIs', versions' and shards' rows untouched.
    expect(added(d1, d12).sort()).toEqual(["api:a50", "shard:api:a50", `version:${version}`]);
    unchanged(d1, d12);
    // The shared database holds none of the portal's operations.
    expect((await env.DB.prepare("SELECT count(*) AS n FROM operations").first<{ n: number }>())!.n).toBe(0);
    // And the new API reads like the others.
    expect((await SELF.fetch(`${ORIGIN}/p/storage-fifty/reference/a50/1/getomega3`)).status).toBe(200);
    expect((await SELF.fetch(`${ORIGIN}/p/storage-fifty/reference/a00/1/getw0x0`)).status).toBe(200);
  });

  it("a publish reads and writes as much storage at 50 APIs as at 1: D1 statements, KV, R2 and catalog calls (new API and new label)", async () => {
    const token = await createPortal("storage-count");
    const id = await portalId("storage-count");
    expect((await upload(token, definition("base0x"), { api: "a00" })).status).toBe(201);
    const counted = async (word: string, api: string, version?: string) => {
      const body = new TextEncoder().encode(definition(word));
      const { env: counting, counts } = countingEnv(env);
      const answer = await publishDefinition(counting, { portalId: id, portalSlug: "storage-count", basePath: "/p/storage-count", sha256: await sha256Hex(body), body, contentType: "application/yaml", apiSlug: api, ...(version ? { versionLabel: version } : {}), origin: ORIGIN });
      expect(answer.status).toBe(201);
      return counts;
    };
    // At 1 API: a new API, then a new label of it.
    const newApi1 = await counted("fresh1x", "n01");
    const label1 = await counted("a00", "a00", "2");
    for (let i = 2; i < 50; i++) expect((await upload(token, definition(`base${i}x`), { api: `b${String(i).padStart(2, "0")}` })).status).toBe(201);
    // At 50 APIs (the 51st, and a new label of the first): the same operations, one by one.
    const newApi50 = await counted("fresh2x", "n02");
    const label50 = await counted("a00b", "a00", "3");
    expect(newApi50).toEqual(newApi1);
    expect(label50).toEqual(label1);
    // What they are, so that a change shows here: the body in R2; the model (one chunk, its header) and the shard
    // (documents, shard) in KV, after one look for the model; seven D1 statements and the flip's batch of four
    // (version, API pointer, shard row, statistics); the catalog's rows and lint report. No KV or R2 listing.
    expect(newApi1).toEqual({ "r2:put": 1, "kv:get": 1, "kv:put": 4, "d1:first": 3, "d1:raw": 4, "d1:batch": 1, "d1:batched": 4, "catalog:putOperations": 1, "catalog:putLintReport": 1 });
    // A new label also refreshes the API's title (the test's definitions name it after their word).
    expect(label1).toEqual({ ...newApi1, "d1:run": 1 });
  });

  it("re-labelling one API adds that API's rows and shard only; the other APIs' catalog rows and shards are untouched", async () => {
    const token = await createPortal("storage-relabel");
    for (const w of ["red", "green", "blue"]) expect((await upload(token, definition(w), { api: w })).status).toBe(201);
    const id = await portalId("storage-relabel");
    const catalog = catalogFor(env, id);
    const [kv, d1, rows] = [await kvState(), await d1State(id), await catalog.stub.counts(id)];
    const res = await upload(token, definition("green", 5), { api: "green", version: "2" });
    expect(res.status).toBe(201);
    const version = (res.json as { publication: number }).publication;
    const [kv2, d12, rows2] = [await kvState(), await d1State(id), await catalog.stub.counts(id)];
    // Earlier publications keep their rows (history); the new label adds its own.
    expect(rows2).toEqual({ ...rows, [version]: 5 });
    unchanged(kv, kv2);
    for (const k of ["api:red", "api:blue", "shard:api:red", "shard:api:blue"]) expect(d12.get(k), k).toBe(d1.get(k));
    expect(d12.get("shard:api:green")).not.toBe(d1.get("shard:api:green"));
    // The old label still serves from its own rows, the new one from its own.
    expect((await SELF.fetch(`${ORIGIN}/p/storage-relabel/reference/green/1/getgreen0`)).status).toBe(200);
    expect((await SELF.fetch(`${ORIGIN}/p/storage-relabel/reference/green/2/getgreen4`)).status).toBe(200);
    // An operation only the new label has sends a reader of the old one to its tag (found through the catalog).
    const moved = await SELF.fetch(`${ORIGIN}/p/storage-relabel/reference/green/1/getgreen4`, { redirect: "manual" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("/p/storage-relabel/reference/green/1/#tag-green");
  });

  it("two portals share no per-portal table or database: each portal's operations are in its own catalog object", async () => {
    const [tokenA, tokenB] = [await createPortal("storage-a"), await createPortal("storage-b")];
    // The same bytes into both: content-addressed KV and R2 values are shared, rows are not.
    expect((await upload(tokenA, definition("same"), { api: "same" })).status).toBe(201);
    expect((await upload(tokenB, definition("same"), { api: "same" })).status).toBe(201);
    expect((await upload(tokenB, definition("only", 2), { api: "only" })).status).toBe(201);
    const [a, b] = [await portalId("storage-a"), await portalId("storage-b")];
    const [catA, catB] = [catalogFor(env, a), catalogFor(env, b)];
    expect(catA.stub.id.toString()).not.toBe(catB.stub.id.toString());
    const versionsOf = async (id: number) =>
      (await env.DB.prepare("SELECT v.id FROM versions v JOIN apis a ON a.id = v.api_id WHERE a.portal_id = ? AND v.status = 'published'").bind(id).all<{ id: number }>()).results.map((r) => String(r.id)).sort();
    // Each catalog holds its own portal's versions and no other's.
    expect(Object.keys(await catA.stub.counts(a)).sort()).toEqual(await versionsOf(a));
    expect(Object.keys(await catB.stub.counts(b)).sort()).toEqual(await versionsOf(b));
    // A catalog answers for its own portal only.
    const refused = await runInDurableObject(catA.stub, (instance: PortalCatalog) => instance.counts(b).then(() => "answered", (e: Error) => e.message));
    expect(refused).toMatch(/catalog of portal/);
    // Nothing per portal in the shared database's operations table, and each catalog's tables are its own.
    expect((await env.DB.prepare("SELECT count(*) AS n FROM operations").first<{ n: number }>())!.n).toBe(0);
    const tables = (cat: typeof catA) => runInDurableObject(cat.stub, (_: PortalCatalog, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM operations").one().n);
    expect(await tables(catA)).toBe(3);
    expect(await tables(catB)).toBe(5);
  });

  it("a version's rows go in pieces of CATALOG_PUT_ROWS, in document order; a retried publish replaces them", async () => {
    await createPortal("storage-pieces");
    const id = await portalId("storage-pieces");
    const catalog = catalogFor(env, id);
    // Some summaries long (a piece then takes several bulk statements: portal-catalog.ts INSERT_JSON_CHARS), some
    // fields absent, text outside ASCII: every row comes back as it went in, at its position.
    const row = (i: number) => ({ slug: `op-${i}`, kind: "operation", method: "get", path: `/things/${i}`, operationId: i % 11 === 5 ? null : `op${i}`, summary: i % 5 === 3 ? null : `Get thing ${i} — ünïcödé "quoted" \\ ${"…".repeat(i % 3 ? 0 : 900)}`, tag: i % 2 ? "odd" : "", deprecated: i % 7 === 0, chunk: i >> 6, sliceOffset: i * 100, sliceLength: 100 });
    const rows = Array.from({ length: CATALOG_PUT_ROWS * 2 + 17 }, (_, i) => row(i));
    await putOperations(catalog, 9001, rows);
    const stored = await catalog.stub.operations(id, 9001);
    expect(stored.map(({ id: _id, versionId: _v, position: _p, ...r }) => r)).toEqual(rows);
    expect(stored.map((r) => r.position)).toEqual(rows.map((_, i) => i));
    expect((await catalog.stub.operationsOfTag(id, 9001, "odd")).length).toBe(CATALOG_PUT_ROWS + 8);
    await putOperations(catalog, 9001, rows.slice(0, 3));
    expect((await catalog.stub.operations(id, 9001)).map((r) => r.slug)).toEqual(["op-0", "op-1", "op-2"]);
  });

  it("rows a portal kept in D1 before the catalog existed move to its catalog on first use, and leave D1", async () => {
    const token = await createPortal("storage-legacy");
    expect((await upload(token, definition("old", 4), { api: "old" })).status).toBe(201);
    const id = await portalId("storage-legacy");
    const catalog = catalogFor(env, id);
    const version = (await env.DB.prepare("SELECT live_version_id AS v FROM apis WHERE portal_id = ?").bind(id).first<{ v: number }>())!.v;
    const rows = await catalog.stub.operations(id, version);
    // Put the portal back as it was before the catalog: its rows in D1's operations table, its catalog empty.
    for (const r of rows) {
      await env.DB.prepare("INSERT INTO operations (version_id, position, slug, kind, method, path, operation_id, summary, tag, deprecated, chunk, slice_offset, slice_length) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        .bind(version, r.position, r.slug, r.kind, r.method, r.path, r.operationId, r.summary, r.tag, r.deprecated ? 1 : 0, r.chunk, r.sliceOffset, r.sliceLength).run();
    }
    await runInDurableObject(catalog.stub, (instance: PortalCatalog, state) => {
      state.storage.sql.exec("DELETE FROM operations");
      state.storage.sql.exec("DELETE FROM catalog_meta WHERE key = 'imported'");
      // As a freshly started object would be: nothing remembered in memory.
      (instance as unknown as { readyFor?: number }).readyFor = undefined;
    });
    // Another portal's legacy rows stay where they are until that portal is used.
    const other = await createPortal("storage-legacy-other");
    expect((await upload(other, definition("kept", 2), { api: "kept" })).status).toBe(201);
    const otherId = await portalId("storage-legacy-other");
    const otherVersion = (await env.DB.prepare("SELECT live_version_id AS v FROM apis WHERE portal_id = ?").bind(otherId).first<{ v: number }>())!.v;
    await env.DB.prepare("INSERT INTO operations (version_id, position, slug, kind, method, path, tag, deprecated, chunk, slice_offset, slice_length) VALUES (?, 0, 'x', 'operation', 'get', '/x', '', 0, 0, 0, 1)").bind(otherVersion).run();

    // First use: a reader's page.
    const page = await SELF.fetch(`${ORIGIN}/p/storage-legacy/reference/old/1/getold3`);
    expect(page.status).toBe(200);
    const moved = await catalog.stub.operations(id, version);
    expect(moved.map(({ id: _id, ...r }) => r)).toEqual(rows.map(({ id: _id, ...r }) => r));
    const left = await env.DB.prepare("SELECT version_id AS v, count(*) AS n FROM operations GROUP BY version_id").all<{ v: number; n: number }>();
    expect(left.results).toEqual([{ v: otherVersion, n: 1 }]);
  });
  it("a version's lint report is kept in its portal's catalog (D1 keeps the counts); one kept in D1 before moves there on first use", async () => {
    const token = await createPortal("storage-lint");
    // No descriptions and an undeclared path parameter: lint has something to say.
    const flawed = `openapi: 3.0.3\ninfo: { title: flawed, version: "1" }\npaths:\n  /things/{id}:\n    get:\n      responses: { '200': { description: ok } }\n`;
    const up = await upload(token, flawed, { api: "flawed", version: "1" });
    expect(up.status).toBe(201);
    expect(up.json.lint.issues.length).toBeGreaterThan(0);
    const id = await portalId("storage-lint");
    const version = up.json.publication as number;
    const catalog = catalogFor(env, id);
    const lintRoute = async () => {
      const res = await SELF.fetch(`${ORIGIN}/v1/apis/flawed/versions/1/lint`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, json: (await res.json()) as any };
    };
    const d1Lint = async () => (await env.DB.prepare("SELECT lint, lint_errors AS errors FROM versions WHERE id = ?").bind(version).first<{ lint: string; errors: number }>())!;
    // The report is in the catalog; D1 holds its counts, not the report.
    const stored = await catalog.stub.lintReport(id, version);
    expect(JSON.parse(stored!).issues).toEqual(up.json.lint.issues);
    expect(await d1Lint()).toEqual({ lint: "{}", errors: up.json.lint.errors });
    const served = await lintRoute();
    expect(served.status).toBe(200);
    expect(served.json.issues).toEqual(up.json.lint.issues);
    // As before this change: the report in D1's versions.lint, the catalog without it and not yet moved.
    await env.DB.prepare("UPDATE versions SET lint = ? WHERE id = ?").bind(stored, version).run();
    await runInDurableObject(catalog.stub, (instance: PortalCatalog, state) => {
      state.storage.sql.exec("DELETE FROM lint_reports");
      state.storage.sql.exec("DELETE FROM catalog_meta WHERE key = 'lint-imported'");
      (instance as unknown as { readyFor?: number }).readyFor = undefined;
    });
    // First use moves it: the same report is served, now from the catalog, and D1 keeps only the counts.
    const moved = await lintRoute();
    expect(moved.json.issues).toEqual(up.json.lint.issues);
    expect(await catalog.stub.lintReport(id, version)).toBe(stored);
    expect((await d1Lint()).lint).toBe("{}");
  });

  it("a release's guide rows live in its portal's catalog, not D1; rows kept in D1 before move there on first use", async () => {
    const token = await createPortal("storage-guides");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    const other = await createPortal("storage-guides-other");
    expect((await upload(other, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("one"))).status).toBe(201);
    expect((await uploadContent(other, bundle("two"))).status).toBe(201);
    const id = await portalId("storage-guides");
    const otherId = await portalId("storage-guides-other");
    const release = (await env.DB.prepare("SELECT release_id AS r FROM content_live WHERE portal_id = ?").bind(id).first<{ r: number }>())!.r;
    const otherRelease = (await env.DB.prepare("SELECT release_id AS r FROM content_live WHERE portal_id = ?").bind(otherId).first<{ r: number }>())!.r;
    const catalog = catalogFor(env, id);
    const rows = await catalog.stub.releasePages(id, release);
    expect(rows.length).toBeGreaterThan(2);
    // D1 holds no page row of either portal; each catalog holds only its own portal's releases.
    expect((await env.DB.prepare("SELECT count(*) AS n FROM content_pages").first<{ n: number }>())!.n).toBe(0);
    expect(await catalog.stub.releasePages(id, otherRelease)).toEqual([]);
    expect((await catalogFor(env, otherId).stub.releasePages(otherId, otherRelease)).length).toBeGreaterThan(2);
    const guide = async () => {
      const res = await SELF.fetch(`${ORIGIN}/p/storage-guides/guides/intro`);
      return { status: res.status, html: await res.text() };
    };
    const before = await guide();
    expect(before.status).toBe(200);
    expect(before.html).toContain("Marker one.");

    // As before this change: the rows in D1's content_pages, the catalog without them and not yet moved.
    for (const r of rows) {
      await env.DB.prepare(`INSERT INTO content_pages (release_id, ${PAGE_COLUMNS.join(", ")}) VALUES (?, ${PAGE_COLUMNS.map(() => "?").join(", ")})`)
        .bind(release, ...PAGE_COLUMNS.map((c) => r[c] ?? null)).run();
    }
    await runInDurableObject(catalog.stub, (instance: PortalCatalog, state) => {
      state.storage.sql.exec("DELETE FROM content_pages");
      state.storage.sql.exec("DELETE FROM catalog_meta WHERE key = 'pages-imported'");
      (instance as unknown as { readyFor?: number }).readyFor = undefined;
    });
    // First use (a new isolate's reader page reads the catalog; here the release cache is keyed by release id, so
    // the move is driven through the catalog itself): the same rows, in the same order, and D1 empties.
    expect(await catalog.stub.releasePages(id, release)).toEqual(rows);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM content_pages").first<{ n: number }>())!.n).toBe(0);
    // A guide published afterwards replaces the live release; the old rows stay with their release.
    expect((await uploadContent(token, bundle("three"))).status).toBe(201);
    expect((await guide()).html).toContain("Marker three.");
    expect(await catalog.stub.releasePages(id, release)).toEqual(rows);
  });
});
