import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { fromPointer } from "./pointer";
import { isSafePlain, scalarSource } from "./scalar-text";
import { buildVisualModel } from "./visual-model";
import { parseSource } from "./yaml-source";

const SOURCE = `# Petstore, hand written
openapi: 3.1.0
info:
  title: Petstore # the name readers see
  version: '1.0'
  description: |
    First line.
    Second line.

  summary:
paths:
  /pets:
    get: {summary: "List pets", operationId: listPets}
    post:
      tags:
      - pets
      - |
        block item
`;

/** Replaces the scalar at `pointer` in SOURCE with `value` the way the page does. */
function splice(pointer: string, value: string | number | boolean | null): string {
  const model = buildVisualModel(parseSource(SOURCE), 1, ["/info", "/paths"]);
  const slot = model.slots[pointer];
  if (!slot) throw new Error(`no slot for ${pointer}`);
  return SOURCE.slice(0, slot.from) + scalarSource(value, slot) + SOURCE.slice(slot.to);
}

function valueAt(text: string, pointer: string): unknown {
  return fromPointer(pointer).reduce<any>((o, k) => o?.[k], parse(text));
}

describe("scalarSource write-back", () => {
  it("replaces a plain scalar and keeps its trailing comment", () => {
    const out = splice("/info/title", "Pet Store");
    expect(out).toBe(SOURCE.replace("title: Petstore # the", "title: Pet Store # the"));
  });

  it("keeps single quotes where the source had them", () => {
    expect(splice("/info/version", "2.0")).toBe(SOURCE.replace("version: '1.0'", "version: '2.0'"));
  });

  it("quotes a value that would otherwise read as a number, boolean or mapping", () => {
    for (const value of ["1.5", "true", "a: b", "# not a comment", "- dash", "yes", "2026-01-01", ""]) {
      const out = splice("/info/title", value);
      expect(valueAt(out, "/info/title")).toBe(value);
      expect(out.startsWith("# Petstore, hand written\n")).toBe(true);
    }
  });

  it("writes multi-line text after a trailing comment as a double-quoted scalar (no block allowed there)", () => {
    const out = splice("/info/title", "two\nlines");
    expect(out).toContain(`title: "two\\nlines" # the name readers see`);
    expect(valueAt(out, "/info/title")).toBe("two\nlines");
  });

  it("rewrites a literal block in place, keeping its indentation and the blank line after it", () => {
    const out = splice("/info/description", "New first.\nNew second.\n");
    expect(out).toContain("  description: |\n    New first.\n    New second.\n\n  summary:");
    expect(valueAt(out, "/info/description")).toBe("New first.\nNew second.\n");
  });

  it("chooses the chomping indicator from the value's trailing line breaks", () => {
    expect(valueAt(splice("/info/description", "no break"), "/info/description")).toBe("no break");
    expect(valueAt(splice("/info/description", "kept\n\n"), "/info/description")).toBe("kept\n\n");
  });

  it("fills an empty value (`summary:`) with a space before it", () => {
    const out = splice("/info/summary", "A short one");
    expect(out).toContain("  summary: A short one\npaths:");
  });

  it("writes multi-line text into an empty value as a block indented under its key", () => {
    const out = splice("/info/summary", "one\ntwo");
    expect(out).toContain("  summary: |-\n    one\n    two\npaths:");
    expect(valueAt(out, "/info/summary")).toBe("one\ntwo");
  });

  it("stays inside flow collections: double quotes kept, commas quoted", () => {
    const out = splice("/paths/~1pets/get/summary", "List, then sort");
    expect(out).toContain(`get: {summary: "List, then sort", operationId: listPets}`);
    const plain = splice("/paths/~1pets/get/operationId", "list,Pets");
    expect(plain).toContain(`operationId: 'list,Pets'}`);
    expect(valueAt(plain, "/paths/~1pets/get/operationId")).toBe("list,Pets");
  });

  it("rewrites a block sequence item at the item's indentation", () => {
    const out = splice("/paths/~1pets/post/tags/1", "line a\nline b\n");
    expect(valueAt(out, "/paths/~1pets/post/tags")).toEqual(["pets", "line a\nline b\n"]);
    expect(out.endsWith("      - |\n        line a\n        line b\n")).toBe(true);
  });

  it("writes JSON values as JSON", () => {
    expect(scalarSource("a\"b", { style: "json", blockIndent: 0, flow: true, endsWithNewline: false, empty: false })).toBe('"a\\"b"');
    expect(scalarSource(12, { style: "json", blockIndent: 0, flow: true, endsWithNewline: false, empty: false })).toBe("12");
  });
});

describe("isSafePlain", () => {
  it("accepts ordinary words and refuses what YAML 1.1 or 1.2 would retype", () => {
    expect(isSafePlain("List pets", false)).toBe(true);
    expect(isSafePlain("/pets/{id}", false)).toBe(true);
    expect(["null", "~", "On", "0x1F", "1e3", ".inf", "12:30", " lead", "trail ", "x #y", "key:"].filter((v) => isSafePlain(v, false))).toEqual([]);
  });
});

describe("scalarSource write-back into JSON", () => {
  it("replaces a JSON string in place with a JSON string", () => {
    const src = '{\n  "info": { "title": "Pets", "version": "1" },\n  "x-n": 3\n}\n';
    const model = buildVisualModel(parseSource(src), 1, ["/info", "/x-n"]);
    const slot = model.slots["/info/title"];
    expect(slot.style).toBe("json");
    const out = src.slice(0, slot.from) + scalarSource('Pets "v2"\nbeta', slot) + src.slice(slot.to);
    expect(out).toBe('{\n  "info": { "title": "Pets \\"v2\\"\\nbeta", "version": "1" },\n  "x-n": 3\n}\n');
    const n = model.slots["/x-n"];
    expect(src.slice(0, n.from) + scalarSource(4, n) + src.slice(n.to)).toBe(src.replace('"x-n": 3', '"x-n": 4'));
  });
});
