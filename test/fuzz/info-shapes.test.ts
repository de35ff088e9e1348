/**
 * @module Odd `info` shapes crossed with odd `openapi`/`swagger` fields (issue 14): every upload answers 201/200
 * or a 4xx with a message, never a 5xx, and an accepted one serves its index and operation page.
 */
import { describe, expect, it } from "vitest";
import { createPortal, getPage, upload } from "../harness/client";
import { operationLinks } from "./pages";

const INFOS: unknown[] = [
  undefined, null, [], ["a"], "a string", 42, true, {},
  { title: { a: 1 }, version: "1" }, { title: "t", version: { a: 1 } }, { title: "t", version: 1e308 }, { title: "t", version: -0 },
  { title: "t", version: "" }, { title: "t", version: "   " }, { title: { toString: 1 }, version: "1" }, { title: "t", version: { toString: {}, valueOf: {} } },
  { title: [1, 2], version: [3] }, { title: null, version: null }, { title: "t", version: "x".repeat(70) }, { title: "t".repeat(100_000), version: "1" },
  { title: "t", version: true }, { title: "t", version: "1", description: { a: 1 }, contact: "x", license: 5, termsOfService: [], summary: {} },
  { title: "t", version: "1", contact: { name: [], url: {}, email: 3 }, license: { name: {}, url: 1, identifier: [] } },
  { title: "", version: "1" }, { title: "---", version: "1" }, { title: "t", version: "a/b" }, { title: "t", version: ".." }, { title: "t", version: "%zz" },
];
const VERSIONS: [string, unknown][] = [
  ["openapi", "3.0.0"], ["openapi", 3], ["openapi", 3.1], ["openapi", [3]], ["openapi", {}], ["openapi", "3.1.99"], ["openapi", null],
  ["openapi", "3.9"], ["openapi", 1e308], ["openapi", "3.0.0-rc"], ["openapi", true], ["openapi", ""], ["openapi", "3"], ["openapi", "4.0.0"],
  ["swagger", 2], ["swagger", "2.0"], ["swagger", [2]], ["swagger", "2.0.1"], ["swagger", {}], ["swagger", "1.2"],
];
const PATHS = { "/a": { get: { operationId: "getA", responses: { 200: { description: "ok" } } } } };

function cases(): { name: string; body: string }[] {
  const out: { name: string; body: string }[] = [];
  // Every info with a few version fields, every version field with a few infos: the crossings that matter without 560 uploads.
  for (const [i, info] of INFOS.entries()) {
    for (const [field, value] of [VERSIONS[0], VERSIONS[1], VERSIONS[5], VERSIONS[15]]) out.push({ name: `info#${i} ${field}=${JSON.stringify(value)}`, body: JSON.stringify({ [field]: value, ...(info === undefined ? {} : { info }), paths: PATHS }) });
  }
  for (const [field, value] of VERSIONS) {
    for (const i of [0, 5, 9, 20]) out.push({ name: `${field}=${JSON.stringify(value)} info#${i}`, body: JSON.stringify({ [field]: value, info: INFOS[i], paths: PATHS }) });
  }
  return out;
}

const YAML_CASES = [
  "openapi: 3.0.0\ninfo:\n  title: t\n  version: .nan\npaths: {}\n",
  "openapi: 3.0.0\ninfo:\n  title: .inf\n  version: -.inf\npaths: {}\n",
  "openapi: .nan\ninfo: {title: t, version: '1'}\npaths: {}\n",
  "openapi: 3.0.0\ninfo:\n  title: t\n  version: 0x1F\npaths: {}\n",
  "openapi: 3.0.0\ninfo:\n  title: !!binary aGVsbG8=\n  version: 2024-01-01\npaths: {}\n",
  "openapi: 3.0.0\ninfo:\n  title: ~\n  version: ~\npaths: {}\n",
  "openapi: 3.0.0\ninfo: !!set {a, b}\npaths: {}\n",
  "openapi: 3.0.0\ninfo: &i {title: t, version: '1', self: *i}\npaths: {}\n",
  "openapi: [3.0.0]\ninfo: {title: t, version: '1'}\npaths: {}\n",
  "openapi: 3.0.0\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses: {'200': {description: ok}}\n  __proto__:\n    get:\n      responses: {'200': {description: ok}}\n",
];

describe("odd info shapes × odd version fields", () => {
  it("an object or array as info.version reads as missing: published under the fallback label with a warning, or ?version=", async () => {
    const token = await createPortal("shapes-object");
    for (const version of [{ a: 1 }, [1, 2]]) {
      const body = JSON.stringify({ openapi: "3.0.0", info: { title: { a: 1 }, version }, paths: PATHS });
      const fallback = await upload(token, body, { api: "obj" }, "application/json");
      expect(fallback.status).toBe(201);
      expect(fallback.json.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(fallback.json.lint.issues).toContainEqual(expect.objectContaining({ rule: "version-fallback", message: expect.stringMatching(/^info\.version is not text/) }));
      const published = await upload(token, body, { api: "obj", version: `v-${Array.isArray(version)}` }, "application/json");
      expect(published.status).toBe(201);
    }
  });

  it("answer 201/200 or a 4xx with a message; accepted ones serve their pages", async () => {
    const token = await createPortal("shapes");
    const all = [...cases().map((c) => ({ ...c, type: "application/json" })), ...YAML_CASES.map((body, i) => ({ name: `yaml#${i}`, body, type: "application/yaml" }))];
    for (const [n, c] of all.entries()) {
      const res = await upload(token, c.body, { api: `s${n}` }, c.type);
      expect(res.status, `${c.name}: ${JSON.stringify(res.json).slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400) {
        expect(res.json.error?.message, c.name).toBeTruthy();
        continue;
      }
      const versionPath = new URL(res.json.url).pathname;
      const index = await getPage(versionPath);
      expect(index.status, `${c.name} index`).toBe(200);
      for (const href of operationLinks(index.html, versionPath).slice(0, 1)) {
        expect((await getPage(href)).status, `${c.name} ${href}`).toBe(200);
      }
    }
  }, 300_000);
});
