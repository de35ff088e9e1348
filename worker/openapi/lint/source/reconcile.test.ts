import { describe, expect, it } from "vitest";
import { reconcile } from "./reconcile";

describe("reconcile", () => {
  it("keeps unchanged subtrees and renews the changed path", () => {
    const previous = { a: { x: 1 }, b: { y: [1, { z: 2 }] }, c: "s" };
    const next = { a: { x: 1 }, b: { y: [1, { z: 3 }] }, c: "s" };
    const merged = reconcile(previous, next);
    expect(merged).toEqual(next);
    expect(merged).not.toBe(previous);
    expect(merged.a).toBe(previous.a);
    expect(merged.b).not.toBe(previous.b);
    expect(merged.b.y[1]).not.toBe(previous.b.y[1]);
  });

  it("returns the previous object when nothing changed, key order included", () => {
    const previous = { a: [1, 2], b: { c: null } };
    expect(reconcile(previous, { a: [1, 2], b: { c: null } })).toBe(previous);
    expect(reconcile(previous, { b: { c: null }, a: [1, 2] })).not.toBe(previous);
  });

  it("never turns a __proto__ member into a prototype", () => {
    const previous = JSON.parse('{"__proto__": {"x": 1}, "y": 1}');
    const next = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
    const merged = reconcile(previous, next);
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(["__proto__", "y"]);
  });
});
