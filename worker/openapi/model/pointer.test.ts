import { describe, expect, it } from "vitest";
import { parseRef, resolvePointer, toRef } from "./pointer";

describe("parseRef", () => {
  it("splits local, relative and remote refs, unescaping ~1 ~0 and URL encoding", () => {
    expect(parseRef("#/components/schemas/Pet")).toEqual({ kind: "local", segments: ["components", "schemas", "Pet"] });
    expect(parseRef("#/paths/~1pets~1{id}/get")).toEqual({ kind: "local", segments: ["paths", "/pets/{id}", "get"] });
    expect(parseRef("#/paths/~1a%7Bb%7D/x~0y")).toEqual({ kind: "local", segments: ["paths", "/a{b}", "x~y"] });
    expect(parseRef("#")).toEqual({ kind: "local", segments: [] });
    expect(parseRef("models/pet%20store.yaml#/Pet")).toEqual({ kind: "relative", file: "models/pet store.yaml", segments: ["Pet"] });
    expect(parseRef("../common/Error.json")).toEqual({ kind: "relative", file: "../common/Error.json", segments: [] });
    expect(parseRef("https://example.com/a.json#/x")).toEqual({ kind: "remote", url: "https://example.com/a.json#/x" });
    expect(parseRef("#anchor").kind).toBe("invalid");
  });

  it("round-trips segments through toRef", () => {
    expect(toRef(["paths", "/pets/{id}", "get", 0, "a~b"])).toBe("#/paths/~1pets~1{id}/get/0/a~0b");
  });
});

describe("resolvePointer", () => {
  const doc = { a: { b: [10, { c: 1 }] }, r: { $ref: "#/a" }, proto: {} };

  it("walks objects and arrays, own properties only", () => {
    expect(resolvePointer(doc, ["a", "b", "1", "c"])).toEqual({ found: true, value: 1 });
    expect(resolvePointer(doc, ["a", "b", "2"])).toEqual({ found: false, value: undefined });
    expect(resolvePointer(doc, ["proto", "constructor"])).toEqual({ found: false, value: undefined });
  });

  it("continues through an intermediate local $ref", () => {
    expect(resolvePointer(doc, ["r", "b", "0"])).toEqual({ found: true, value: 10 });
  });
});
