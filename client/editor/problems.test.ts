import { describe, expect, it } from "vitest";
import { Text } from "@codemirror/state";
import { fieldForPointer, normalizeProblem, problemFieldPointer, problemRange, sameOutline, sameProblems, sectionFinder, sectionForPointer, sortProblems, worstSeverity } from "./problems";
import type { OutlineEntry } from "./protocol";

const OUTLINE: OutlineEntry[] = [
  { kind: "general", pointer: "/info", label: "General", line: 2 },
  { kind: "servers", pointer: "/servers", label: "Servers", line: 5 },
  { kind: "tags", pointer: "/tags", label: "Tags", line: 9 },
  { kind: "operation", pointer: "/paths/~1pets/get", label: "List pets", method: "get", path: "/pets", line: 12 },
  { kind: "schema", pointer: "/components/schemas/Pet", label: "Pet", line: 30 },
];

describe("normalizeProblem", () => {
  it("maps Spectral-style severities and segment paths", () => {
    expect(normalizeProblem({ severity: 1, code: "operation-tags", message: "m", line: 3, column: 5, path: ["paths", "/pets", "get"] })).toEqual({
      severity: "warn",
      rule: "operation-tags",
      message: "m",
      line: 3,
      column: 5,
      path: "/paths/~1pets/get",
    });
    expect(normalizeProblem({ severity: "warning", rule: "x", message: "", line: 0, path: "#/info" })).toMatchObject({ severity: "warn", line: 1, column: 1, path: "/info" });
  });
});

describe("problemRange", () => {
  const doc = Text.of(["openapi: 3.1.0", "info:", "  title: A"]);
  it("runs from the column to the end of the line's text", () => {
    expect(problemRange(doc, { line: 3, column: 3 })).toEqual({ from: 23, to: 31 });
  });
  it("clamps lines and columns past the end", () => {
    expect(problemRange(doc, { line: 99, column: 99 })).toEqual({ from: 31, to: 31 });
  });
});

describe("mapping problems to the Visual view", () => {
  it("puts a missing-member problem on the member's field", () => {
    expect(problemFieldPointer({ rule: "operation-operationId", path: "/paths/~1pets/get" })).toBe("/paths/~1pets/get/operationId");
    expect(problemFieldPointer({ rule: "operation-operationId", path: "/paths/~1pets/get/operationId" })).toBe("/paths/~1pets/get/operationId");
    expect(problemFieldPointer({ rule: "oas3-schema", path: "/info/title" })).toBe("/info/title");
  });

  it("finds the deepest section, and General for the root", () => {
    expect(sectionForPointer(OUTLINE, "/paths/~1pets/get/responses/200")?.label).toBe("List pets");
    expect(sectionForPointer(OUTLINE, "/components/schemas/Pet/properties/id")?.label).toBe("Pet");
    expect(sectionForPointer(OUTLINE, "")?.label).toBe("General");
    expect(sectionForPointer(OUTLINE, "/paths/~1petsX")?.label).toBe("General");
  });

  it("finds the same sections through the outline index (sectionFinder) as by scanning the outline", () => {
    const outline = [
      ...OUTLINE,
      { kind: "servers" as const, pointer: "/host", label: "Host and schemes", line: 1 },
      { kind: "callback" as const, pointer: "/paths/~1pets/get/callbacks/cb/{$url}/post", label: "cb", line: 9 },
    ];
    const find = sectionFinder(outline);
    const pointers = ["", "/info/title", "/paths/~1pets/get/responses/200", "/paths/~1pets/get/callbacks/cb/{$url}/post/responses", "/paths/~1pets/get/callbacks", "/components/schemas/Pet/properties/id", "/components/schemas/Pets", "/paths/~1petsX", "/basePath", "/schemes/0", "/hostname"];
    for (const p of pointers) expect(find(p), p).toBe(sectionForPointer(outline, p));
    expect(find("/schemes/0")?.label).toBe("Host and schemes");
  });

  it("focuses the exact field, else its deepest ancestor on screen", () => {
    const fields = ["/paths/~1pets/get/summary", "/paths/~1pets/get/responses/200", "/paths/~1pets/get/responses/200/description"];
    expect(fieldForPointer(fields, "/paths/~1pets/get/summary")).toBe("/paths/~1pets/get/summary");
    expect(fieldForPointer(fields, "/paths/~1pets/get/responses/200/content/x")).toBe("/paths/~1pets/get/responses/200");
    expect(fieldForPointer(fields, "/paths/~1pets/get/tags")).toBeUndefined();
  });

  it("sorts by position and picks the worst severity", () => {
    const ps = [
      { severity: "warn" as const, rule: "a", message: "", line: 4, column: 1, path: "" },
      { severity: "error" as const, rule: "b", message: "", line: 4, column: 1, path: "" },
      { severity: "hint" as const, rule: "c", message: "", line: 2, column: 9, path: "" },
    ];
    expect(sortProblems(ps).map((p) => p.rule)).toEqual(["c", "b", "a"]);
    expect(worstSeverity(ps)).toBe("error");
    expect(worstSeverity([])).toBeUndefined();
  });
});

describe("sameProblems", () => {
  const a = { severity: "warn" as const, rule: "r", message: "m", line: 3, column: 5, path: "/info" };
  it("is true for equal lists that are different arrays and objects, false for any field that differs", () => {
    expect(sameProblems([a], [{ ...a }])).toBe(true);
    expect(sameProblems([a], [])).toBe(false);
    for (const patch of [{ line: 4 }, { column: 6 }, { severity: "error" as const }, { rule: "s" }, { message: "n" }, { path: "/x" }]) {
      expect(sameProblems([a], [{ ...a, ...patch }])).toBe(false);
    }
  });
});

describe("sameOutline", () => {
  it("is true for equal entries in other arrays and false when any field, tag or the order differs", () => {
    const copy = () => OUTLINE.map((e) => ({ ...e, ...(e.tags ? { tags: [...e.tags] } : {}) }));
    expect(sameOutline(OUTLINE, copy())).toBe(true);
    const changes: ((o: OutlineEntry[]) => void)[] = [
      (o) => (o[3].label = "List all pets"),
      (o) => (o[3].line += 1),
      (o) => (o[3].pointer = "/paths/~1pet/get"),
      (o) => (o[3].summary = "x"),
      (o) => (o[3].deprecated = true),
      (o) => (o[3].method = "put"),
      (o) => (o[3].path = "/pet"),
      (o) => (o[3].tags = [...(o[3].tags ?? []), "extra"]),
      (o) => (o[0].kind = "tags"),
      (o) => o.reverse(),
      (o) => o.pop(),
    ];
    for (const change of changes) {
      const other = copy();
      change(other);
      expect(sameOutline(OUTLINE, other), String(change)).toBe(false);
    }
  });
});
