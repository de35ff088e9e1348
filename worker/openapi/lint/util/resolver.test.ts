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
