import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { applyStructuralEdit } from "./structural-edit";
import { applyChanges } from "./text-changes";

const YAML_SRC = `openapi: 3.0.3
info:
  title: Demo
  version: "1"
paths:
  # Pets first
  /pets:
    get:
      operationId: listPets # keep me
      parameters:
      - name: limit
        in: query
      responses:
        default:
          description: error
        "200":
          description: ok
  /stores:
    get:
      responses: {"200": {description: ok}}
`;

function edit(text: string, op: Parameters<typeof applyStructuralEdit>[1]): string {
  const r = applyStructuralEdit(text, op);
  if (!r.ok) throw new Error(r.message);
  expect(applyChanges(text, [r.change])).toBe(r.text);
  return r.text;
}

describe("applyStructuralEdit (YAML)", () => {
  it("adds an entry to a block collection without re-printing its siblings (mixed flow styles stay as written)", () => {
    const src = "examples:\n  a:\n    value: { x: 1, y: [p, q] }  # padded here\n  b:\n    value: {x: 2}\nlist:\n  - { name: one }\n  - {name: two}\n";
    expect(edit(src, { op: "set", path: ["examples", "c"], value: { summary: "S", value: { x: 3 } } })).toBe(src.replace("list:\n", "  c:\n    summary: S\n    value:\n      x: 3\nlist:\n"));
    expect(edit(src, { op: "append", path: ["list"], value: { name: "three" } })).toBe(src + "  - name: three\n");
  });

  it("leaves sibling flow collections as written and keeps a replaced flow collection inline", () => {
    const src = "components:\n  schemas:\n    Code:\n      type: string\n      examples: [NL, US]\nsecurity:\n  - oauth2: [read]\n  - key: []\n";
    expect(edit(src, { op: "set", path: ["components", "schemas", "Code", "maxLength"], value: 2 })).toBe(src.replace("      examples: [NL, US]\n", "      examples: [NL, US]\n      maxLength: 2\n"));
    expect(edit(src, { op: "set", path: ["security", 0, "oauth2"], value: ["read", "write"] })).toBe(src.replace("  - oauth2: [read]\n", "  - oauth2: [read, write]\n"));
    // A file that pads its flow collections keeps them padded.
    const padded = src.replace("[NL, US]", "[ NL, US ]").replace("[read]", "[ read ]");
    expect(edit(padded, { op: "set", path: ["components", "schemas", "Code", "maxLength"], value: 2 })).toBe(padded.replace("      examples: [ NL, US ]\n", "      examples: [ NL, US ]\n      maxLength: 2\n"));
  });

  it("appends a parameter inside the sequence only, in the file's sequence style", () => {
    const out = edit(YAML_SRC, { op: "append", path: ["paths", "/pets", "get", "parameters"], value: { name: "offset", in: "query" } });
    expect(out).toBe(YAML_SRC.replace("        in: query\n", "        in: query\n      - name: offset\n        in: query\n"));
  });

  it("deletes an operationId (and its own trailing comment), keeping other comments, key order and formatting", () => {
    const out = edit(YAML_SRC, { op: "delete", path: ["paths", "/pets", "get", "operationId"] });
    expect(out).toContain("  # Pets first\n  /pets:\n    get:\n      parameters:");
    expect(out).toContain("responses: {\"200\": {description: ok}}");
    expect(out).not.toContain("# keep me");
    expect(out).toContain("      responses:\n        default:\n          description: error\n        \"200\":\n");
  });

  it("renames a path in place, keeping its position among the paths", () => {
    const out = edit(YAML_SRC, { op: "rename", path: ["paths", "/pets"], key: "/animals" });
    expect(Object.keys(parse(out).paths)).toEqual(["/animals", "/stores"]);
    expect(out).toContain("  # Pets first\n  /animals:\n");
  });

  it("refuses a rename onto an existing key", () => {
    expect(applyStructuralEdit(YAML_SRC, { op: "rename", path: ["paths", "/pets"], key: "/stores" })).toEqual({ ok: false, message: '"/stores" already exists' });
  });

  it("creates missing parents when setting a value", () => {
    const out = edit(YAML_SRC, { op: "set", path: ["info", "contact", "email"], value: "api@example.com" });
    expect(parse(out).info.contact).toEqual({ email: "api@example.com" });
    expect(out.startsWith("openapi: 3.0.3\ninfo:\n  title: Demo\n  version: \"1\"\n  contact:\n    email: api@example.com\npaths:\n  # Pets first")).toBe(true);
  });

  it("edits inside a flow collection without reflowing it", () => {
    const out = edit(YAML_SRC, { op: "set", path: ["paths", "/stores", "get", "responses", "404"], value: { description: "none" } });
    // In the file's own flow style: no padding inside the brackets, as written.
    expect(out).toContain('responses: {"200": {description: ok}, "404": {description: none}}');
  });

  it("refuses to edit a text that does not parse", () => {
    const r = applyStructuralEdit("a: [\n", { op: "set", path: ["b"], value: 1 });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.message.startsWith("Fix the syntax error on line")).toBe(true);
  });

  it("keeps 4-space indentation when the file uses it", () => {
    const src = "info:\n    title: A\n    version: '1'\npaths: {}\n";
    const out = edit(src, { op: "set", path: ["info", "description"], value: "Hello" });
    expect(out).toBe("info:\n    title: A\n    version: '1'\n    description: Hello\npaths: {}\n");
  });
});

describe("applyStructuralEdit (JSON)", () => {
  const JSON_SRC = `{
  "openapi": "3.1.0",
  "info": { "title": "Demo", "version": "1" },
  "paths": {
    "/pets": {
      "get": {
        "operationId": "listPets",
        "responses": { "default": { "description": "error" }, "200": { "description": "ok" } }
      }
    }
  }
}
`;

  it("writes JSON, keeping integer-like keys where they were", () => {
    const out = edit(JSON_SRC, { op: "set", path: ["paths", "/pets", "get", "summary"], value: "List pets" });
    const data = JSON.parse(out);
    expect(data.paths["/pets"].get.summary).toBe("List pets");
    expect(out.indexOf('"default"')).toBeLessThan(out.indexOf('"200"'));
    expect(out.startsWith('{\n  "openapi": "3.1.0",\n  "info": { "title": "Demo", "version": "1" },\n')).toBe(true);
  });

  it("deletes a member", () => {
    const out = edit(JSON_SRC, { op: "delete", path: ["paths", "/pets", "get", "operationId"] });
    expect(JSON.parse(out).paths["/pets"].get).toEqual({ responses: { default: { description: "error" }, "200": { description: "ok" } } });
  });
});
