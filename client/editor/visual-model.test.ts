import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildVisualModel } from "./visual-model";
import { parseSource } from "./yaml-source";

const DEMO = readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8");
const SWAGGER = `swagger: "2.0"
info: {title: Old, version: "1"}
host: api.example.com
paths:
  /a:
    get:
      responses: {"200": {description: ok}}
definitions:
  A: {type: object}
`;

describe("buildVisualModel", () => {
  it("outlines the demo definition: sections, 24 operations, 2 webhooks, every schema", () => {
    const model = buildVisualModel(parseSource(DEMO), 7, []);
    expect(model.version).toBe(7);
    expect(model.specVersion).toBe("3.1");
    expect(model.format).toBe("yaml");
    const kinds = model.outline.map((e) => e.kind);
    expect(kinds.slice(0, 4)).toEqual(["general", "servers", "tags", "security"]);
    expect(kinds.filter((k) => k === "operation")).toHaveLength(24);
    expect(kinds.filter((k) => k === "webhook")).toHaveLength(2);
    // Callback operations, after the webhooks, named by their callback and expression.
    expect(model.outline.filter((e) => e.kind === "callback").map((e) => `${e.label} ${e.path} ${e.method}`)).toContain("statusChanged {$request.body#/callbackUrl} post");
    expect(kinds.indexOf("callback")).toBeGreaterThan(kinds.lastIndexOf("webhook"));
    expect(model.outline.find((e) => e.pointer === "/paths/~1shipments/get")).toMatchObject({ label: "List shipments", method: "get", path: "/shipments", tags: ["Shipments"], deprecated: false });
    expect(model.outline.find((e) => e.pointer === "/paths/~1shipments~1{shipmentId}~1label/get")?.deprecated).toBe(true);
    const schemas = model.outline.filter((e) => e.kind === "schema").map((e) => e.label);
    expect(schemas).toContain("Location");
    expect(schemas).toHaveLength((DEMO.split("\n  schemas:\n")[1].match(/^    [A-Za-z]+:$/gm) ?? []).length);
  });

  it("returns values, slots and lines for the requested pointers only", () => {
    const model = buildVisualModel(parseSource(DEMO), 1, ["/info"]);
    expect(Object.keys(model.values)).toEqual(["/info"]);
    expect((model.values["/info"] as any).title).toBe("Parcel Logistics API");
    const lines = DEMO.split("\n");
    const titleLine = lines.findIndex((l) => l.startsWith("  title: Parcel Logistics API")) + 1;
    expect(model.lines["/info/title"]).toBe(titleLine);
    const slot = model.slots["/info/title"];
    expect(DEMO.slice(slot.from, slot.to)).toBe("Parcel Logistics API");
    expect(slot).toMatchObject({ style: "plain", flow: false, endsWithNewline: false, empty: false, blockIndent: 4 });
    expect(model.slots["/info/description"]).toMatchObject({ style: "literal", blockIndent: 4, endsWithNewline: true });
    expect(Object.keys(model.slots).every((p) => p.startsWith("/info/"))).toBe(true);
  });

  it("uses definitions and host for Swagger 2.0", () => {
    const model = buildVisualModel(parseSource(SWAGGER), 1, ["/host"]);
    expect(model.specVersion).toBe("2.0");
    expect(model.outline.map((e) => `${e.kind} ${e.pointer}`)).toEqual(["general /info", "servers /host", "tags /tags", "security /securityDefinitions", "operation /paths/~1a/get", "schema /definitions/A"]);
    expect(model.values["/host"]).toBe("api.example.com");
    expect(model.slots["/info/title"]).toBeUndefined();
  });

  it("reports a syntax error with its line and still answers", () => {
    const model = buildVisualModel(parseSource("openapi: 3.1.0\ninfo:\n  title: a: b\n"), 2, ["/info"]);
    expect(model.parseError?.line).toBe(3);
  });
});

describe("buildVisualModel on OpenAPI 3.2", () => {
  it("lists query operations among the operations", () => {
    const text = readFileSync(new URL("../../test/fixtures/v32-query.yaml", import.meta.url), "utf8");
    const model = buildVisualModel(parseSource(text), 1, []);
    expect(model.specVersion).toBe("3.2");
    expect(model.outline.filter((e) => e.kind === "operation").map((e) => e.method)).toContain("query");
  });
});
