import { describe, expect, it } from "vitest";
import { collectOperations } from "./operations";
import type { BuildIssue } from "./types";

const run = (doc: Record<string, unknown>, version: "3.0" | "3.1" | "3.2" = "3.1") => {
  const issues: BuildIssue[] = [];
  const entries = collectOperations(doc, version, issues);
  return { summaries: entries.map((e) => e.summary), entries, issues };
};

describe("collectOperations", () => {
  it("lists path operations in document order with summaries", () => {
    const { summaries } = run({
      paths: {
        "/pets": { post: { operationId: "addPet", tags: ["pets", 3], deprecated: true }, get: { summary: "List" }, parameters: [], "x-internal": {} },
        "/pets/{petId}": { get: { operationId: "showPetById" } },
        "x-ext": { get: {} },
      },
    });
    expect(summaries).toEqual([
      { slug: "addpet", kind: "operation", method: "post", path: "/pets", operationId: "addPet", tags: ["pets"], deprecated: true },
      { slug: "get-pets", kind: "operation", method: "get", path: "/pets", summary: "List", tags: [], deprecated: false },
      { slug: "showpetbyid", kind: "operation", method: "get", path: "/pets/{petId}", operationId: "showPetById", tags: [], deprecated: false },
    ]);
  });

  it("includes 3.2 query and additionalOperations (method as written), only in 3.2", () => {
    const doc = { paths: { "/p/{id}": { get: {}, query: {}, additionalOperations: { COPY: {} } } } };
    expect(run(doc, "3.2").summaries.map((s) => [s.method, s.slug])).toEqual([["get", "get-p-id"], ["query", "query-p-id"], ["COPY", "copy-p-id"]]);
    expect(run(doc, "3.1").summaries.map((s) => s.method)).toEqual(["get"]);
  });

  it("follows path item $refs; fields beside the $ref win", () => {
    const doc = {
      paths: { "/a": { $ref: "#/components/pathItems/A", summary: "own" }, "/b": { $ref: "#/components/pathItems/Missing" } },
      components: { pathItems: { A: { summary: "shared", get: { operationId: "getA" }, parameters: [{ name: "x", in: "query" }] } } },
    };
    const { entries } = run(doc);
    expect(entries.map((e) => e.summary.slug)).toEqual(["geta"]);
    expect(entries[0].pathItem).toEqual({ summary: "own", get: { operationId: "getA" }, parameters: [{ name: "x", in: "query" }] });
  });

  it("lists webhooks (3.1+) and callbacks after path operations, with parent slugs", () => {
    const doc = {
      paths: {
        "/subscribe": {
          post: {
            operationId: "subscribe",
            callbacks: { onEvent: { "{$request.body#/url}": { post: {}, put: {} } }, ref: { $ref: "#/components/callbacks/C" } },
          },
        },
      },
      webhooks: { newPet: { post: { operationId: "newPetHook" } } },
      components: { callbacks: { C: { "{$url}": { get: {} } } } },
    };
    expect(run(doc).summaries.map((s) => [s.kind, s.slug, s.path, s.parentSlug ?? null])).toEqual([
      ["operation", "subscribe", "/subscribe", null],
      ["webhook", "webhook-newpet-post", "newPet", null],
      ["callback", "subscribe-callback-onevent-post", "{$request.body#/url}", "subscribe"],
      ["callback", "subscribe-callback-onevent-put", "{$request.body#/url}", "subscribe"],
      ["callback", "subscribe-callback-ref-get", "{$url}", "subscribe"],
    ]);
    expect(run(doc, "3.0").summaries.map((s) => s.kind)).toEqual(["operation", "callback", "callback", "callback"]);
  });

  it("skips malformed operations and path items with issues, and dedupes operationIds with a warning", () => {
    const { summaries, issues } = run({ paths: { "/a": { get: "nope", post: { operationId: "x" } }, "/b": "nope", "/c": { put: { operationId: "x" } } } });
    expect(summaries.map((s) => s.slug)).toEqual(["x", "x-2"]);
    expect(issues).toEqual([
      { severity: "error", rule: "invalid-operation", message: "GET /a is not an operation object; skipped", path: ["paths", "/a", "get"] },
      { severity: "error", rule: "invalid-path-item", message: 'Path item "/b" is not an object; skipped', path: ["paths", "/b"] },
      { severity: "warning", rule: "duplicate-operation-id", message: 'operationId "x" is also used by POST /a; this operation\'s page is "x-2"', path: ["paths", "/c", "put", "operationId"] },
    ]);
  });
});
