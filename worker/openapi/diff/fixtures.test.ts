/// <reference types="node" />
/**
 * Runs every pair of test/fixtures/diff (one per rule, written by scripts/diff/make-fixtures.py with the verdicts
 * oasdiff documents) through build + diff, as OpenAPI 3.0 and converted to 3.1, in both directions, and checks the
 * exact ids and levels.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { buildReference } from "../build";
import { diff, sideFromBuild } from "./index";

const FIXTURES = resolve(import.meta.dirname, "../../../test/fixtures/diff");
const NOW = Date.parse("2026-01-01T00:00:00Z");

interface Case {
  description: string;
  base: Record<string, unknown>;
  revision: Record<string, unknown>;
  expect: string[];
  reverse: string[];
  versions?: string[];
}

/** 3.0 → 3.1: `nullable: true` becomes a "null" member of the type array. */
function to31(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(to31);
  if (!value || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = to31(v);
  if (out.nullable === true && typeof out.type === "string") {
    out.type = [out.type, "null"];
    delete out.nullable;
  }
  if (typeof out.openapi === "string") out.openapi = "3.1.0";
  return out;
}

function side(document: unknown) {
  const built = buildReference({ body: new TextEncoder().encode(JSON.stringify(document)) });
  if (!built.ok) throw new Error(`fixture does not build: ${built.message}`);
  return sideFromBuild(built);
}

function verdict(base: unknown, revision: unknown): string[] {
  return diff(side(base), side(revision), { now: NOW })
    .changes.map((c) => `${c.id} ${c.level}`)
    .sort();
}

const families = readdirSync(FIXTURES);
for (const family of families) {
  describe(`diff fixtures: ${family}`, () => {
    for (const file of readdirSync(join(FIXTURES, family)).filter((f) => f.endsWith(".json"))) {
      const c = JSON.parse(readFileSync(join(FIXTURES, family, file), "utf8")) as Case;
      const versions = c.versions ?? ["3.0", "3.1"];
      for (const version of versions) {
        const convert = version === "3.1" && !c.versions ? to31 : (x: unknown) => (version === "3.1" ? to31(x) : x);
        const base = convert(c.base);
        const revision = convert(c.revision);
        it(`${file} (${version}): ${c.description}`, () => {
          expect(verdict(base, revision)).toEqual(c.expect);
        });
        it(`${file} (${version}) reversed`, () => {
          expect(verdict(revision, base)).toEqual(c.reverse);
        });
      }
    }
  });
}

describe("diff", () => {
  it("is breaking exactly when an ERR change is found, and identical definitions have no changes", () => {
    const petstore = readFileSync(resolve(import.meta.dirname, "../../../test/fixtures/petstore-v3.yaml"));
    const a = buildReference({ body: petstore });
    if (!a.ok) throw new Error(a.message);
    const same = diff(sideFromBuild(a), sideFromBuild(a));
    expect(same).toEqual({ breaking: false, changes: [], counts: { ERR: 0, WARN: 0, INFO: 0 } });
  });

  it("gives changes pointers, operations and the lines of both sides", () => {
    const base = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n      operationId: list\n      parameters:\n        - name: limit\n          in: query\n          schema: {type: integer}\n      responses:\n        '200': {description: ok}\n";
    const revision = base.replace("schema: {type: integer}", "required: true\n          schema: {type: integer}");
    const build = (text: string) => {
      const b = buildReference({ body: new TextEncoder().encode(text) });
      if (!b.ok) throw new Error(b.message);
      return sideFromBuild(b);
    };
    const result = diff(build(base), build(revision));
    expect(result.breaking).toBe(true);
    expect(result.changes).toEqual([
      {
        id: "request-parameter-became-required",
        level: "ERR",
        operation: { method: "GET", path: "/pets", operationId: "list" },
        pointer: "/paths/~1pets/get/parameters/0",
        message: "query parameter limit became required",
        baseLine: 8,
        revisionLine: 8,
      },
    ]);
  });

  it("compares Swagger 2.0 with OpenAPI 3.1 (both normalised) and locates 2.0 lines", () => {
    const v2 = "swagger: '2.0'\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n      parameters:\n        - {name: limit, in: query, type: integer}\n      responses:\n        '200': {description: ok}\n";
    const v31 = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n      parameters:\n        - {name: limit, in: query, schema: {type: string}}\n      responses:\n        '200': {description: ok}\n";
    const b = buildReference({ body: new TextEncoder().encode(v2) });
    const r = buildReference({ body: new TextEncoder().encode(v31) });
    if (!b.ok || !r.ok) throw new Error("fixtures do not build");
    const result = diff(sideFromBuild(b), sideFromBuild(r));
    expect(result.changes.map((c) => [c.id, c.baseLine, c.revisionLine])).toEqual([["request-parameter-type-changed", 7, 7]]);
  });

  it("stops a hostile graph at its budget and says so instead of running on", () => {
    // 400 schemas each referencing 20 others through properties, under 50 operations: a dense graph.
    const schemas: Record<string, unknown> = {};
    const dense = (variant: string) => {
      for (let i = 0; i < 400; i++) {
        const properties: Record<string, unknown> = { [`v${variant}`]: { type: "string" } };
        for (let j = 1; j <= 20; j++) properties[`p${j}`] = { $ref: `#/components/schemas/S${(i * 7 + j * 13) % 400}` };
        schemas[`S${i}`] = { type: "object", properties };
      }
      const paths: Record<string, unknown> = {};
      for (let k = 0; k < 50; k++) paths[`/r${k}`] = { get: { responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: `#/components/schemas/S${k}` } } } } } } };
      return { openapi: "3.0.3", info: { title: "t", version: "1" }, paths, components: { schemas: structuredClone(schemas) } };
    };
    const started = Date.now();
    const result = diff({ document: dense("a") }, { document: dense("b") });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(result.changes.length).toBeGreaterThan(0);
    expect(result.changes.every((c) => c.id.startsWith("response-") || c.id === "diff-budget-reached")).toBe(true);
  });

  it("documents every rule id in docs/diff.md with its level", async () => {
    const { RULES } = await import("./rules");
    const doc = readFileSync(resolve(import.meta.dirname, "../../../docs/diff.md"), "utf8");
    for (const rule of RULES.values()) expect(doc).toContain(`| \`${rule.id}\` | ${rule.level} |`);
  });
});
