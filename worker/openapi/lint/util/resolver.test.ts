import { describe, expect, it } from "vitest";
import { RefResolver } from "./resolver";

describe("RefResolver.carry", () => {
  const b = { properties: { b: { type: "string" } } };
  const c = { properties: { b: { type: "integer" } } };
  const other = { x: 1 };
  const root1 = { components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: b, C: c } }, other };

  it("keeps targets away from the changed path and looks up again those at, above or below it", () => {
    const r1 = new RefResolver(root1);
    expect(r1.target("#/other")?.value).toBe(other);
    expect(r1.target("#/components/schemas/B/properties")?.value).toBe(b.properties);
    const b2 = { properties: { b: { type: "boolean" } } };
    const root2 = { ...root1, components: { schemas: { ...root1.components.schemas, B: b2 } } };
    const r2 = r1.carry(root2, ["components", "schemas", "B"]);
    expect(r2.target("#/other")?.value).toBe(other);
    expect(r2.target("#/components/schemas/B/properties")?.value).toBe(b2.properties);
    expect(r2.target("#/components")?.value).toBe(root2.components);
  });

  it("looks up again a pointer that ran through a reference the edit changed", () => {
    const r1 = new RefResolver(root1);
    // Through A (a $ref to B): the target sits under B, away from A, but depends on A.
    expect(r1.target("#/components/schemas/A/properties/b")?.value).toBe(b.properties.b);
    const root2 = { ...root1, components: { schemas: { ...root1.components.schemas, A: { $ref: "#/components/schemas/C" } } } };
    const r2 = r1.carry(root2, ["components", "schemas", "A"]);
    expect(r2.target("#/components/schemas/A/properties/b")?.value).toBe(c.properties.b);
  });
});

describe("RefResolver.depsHold", () => {
  const b = { type: "string" };
  const root1 = { components: { schemas: { A: { $ref: "#/components/schemas/B" }, B: b, C: { type: "integer" } } } };

  it("after a carry, revalidates by the references the carry dropped, without looking the others up", () => {
    const r1 = new RefResolver(root1);
    const deps = new Map<string, unknown>([
      ["#/components/schemas/B", r1.target("#/components/schemas/B")?.value],
      ["#/components/schemas/C", r1.target("#/components/schemas/C")?.value],
    ]);
    expect(r1.depsHold(deps, r1)).toBe(true);
    // C changes: B was carried, C dropped, so deps on C are looked up again and fail.
    const root2 = { components: { schemas: { ...root1.components.schemas, C: { type: "boolean" } } } };
    const r2 = r1.carry(root2, ["components", "schemas", "C"]);
    expect(r2.depsHold(deps, r1)).toBe(false);
    expect(r2.depsHold(new Map([["#/components/schemas/B", b]]), r1)).toBe(true);
    // Checked under an older resolver (not the one carried from): every reference is looked up.
    const r3 = r2.carry(root2, ["components", "schemas", "C"]);
    expect(r3.depsHold(new Map([["#/components/schemas/B", { other: true }]]), r1)).toBe(false);
    expect(r3.depsHold(new Map([["#/components/schemas/B", b]]), r1)).toBe(true);
  });
});
