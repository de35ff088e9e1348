import { describe, expect, it } from "vitest";
import { EXAMPLE_BUDGET, MERGE_BUDGET, VIEW_BUDGET } from "../budgets";
import { createRepeatRegistry, createViewBudget, viewSchema } from "./build-view";
import { generateExample } from "./example";
import { mediaTypeExample } from "./media-example";
import { mergeAllOf } from "./merge-all-of";
import { refsFor } from "./testing/doc-fixtures";
import { denseGraphDoc, EXTREME_BOUNDS } from "./testing/hostile";
import type { SchemaView } from "./types";

/** Nodes of a view, following children but not "same as above" links (what a page renders). */
function countNodes(view: SchemaView): number {
  let n = 1;
  for (const p of view.properties ?? []) n += countNodes(p.schema);
  for (const p of view.patternProperties ?? []) n += countNodes(p.schema);
  if (view.additionalProperties) n += countNodes(view.additionalProperties);
  if (view.items) n += countNodes(view.items);
  for (const x of view.prefixItems ?? []) n += countNodes(x);
  for (const g of view.variants ?? []) for (const o of g.options) n += countNodes(o.schema);
  if (view.not) n += countNodes(view.not);
  return n;
}

describe("example budgets: bounds from the definition never size the example", () => {
  it.each(EXTREME_BOUNDS)("minLength %s gives a short string, marked truncated when the bound is out of reach", (bound) => {
    const { value, truncated } = generateExample(viewSchema({ type: "string", minLength: bound }, {}));
    expect(typeof value).toBe("string");
    expect((value as string).length).toBeLessThanOrEqual(EXAMPLE_BUDGET.maxStringLength);
    expect(truncated).toBe(typeof bound === "number" && bound > EXAMPLE_BUDGET.maxStringLength);
  });

  it.each(EXTREME_BOUNDS)("minItems %s gives at most a few items", (bound) => {
    const { value, truncated } = generateExample(viewSchema({ type: "array", minItems: bound, items: { type: "integer" } }, {}));
    expect(Array.isArray(value)).toBe(true);
    expect((value as unknown[]).length).toBeGreaterThanOrEqual(1);
    expect((value as unknown[]).length).toBeLessThanOrEqual(EXAMPLE_BUDGET.maxItems);
    expect(truncated).toBe(typeof bound === "number" && bound > EXAMPLE_BUDGET.maxItems);
  });

  it("meets small bounds exactly and honours maxLength / maxItems", () => {
    expect(generateExample(viewSchema({ type: "string", minLength: 10 }, {}))).toEqual({ value: "stringxxxx", truncated: false });
    expect(generateExample(viewSchema({ type: "array", minItems: 2, items: { type: "boolean" } }, {})).value).toEqual([true, true]);
    expect(generateExample(viewSchema({ type: "array", maxItems: 0, items: { type: "boolean" } }, {})).value).toEqual([]);
    expect(generateExample(viewSchema({ type: "string", minLength: 1e9, maxLength: 4 }, {})).value).toBe("stri");
  });

  it("keeps numbers finite whatever minimum and multipleOf say", () => {
    for (const schema of [{ minimum: 1e308, multipleOf: 1e-308 }, { minimum: -1e308, multipleOf: 1e-300 }, { exclusiveMinimum: 1.7976931348623157e308 }]) {
      const { value } = generateExample(viewSchema({ type: "number", ...schema }, {}));
      expect(Number.isFinite(value)).toBe(true);
    }
  });

  it("says so in the media example of a request body with minLength 400000000", () => {
    const media = { schema: { type: "object", properties: { name: { type: "string", minLength: 400000000 }, tags: { type: "array", minItems: 1e12, items: { type: "string" } } } } };
    const [ex] = mediaTypeExample(media, viewSchema(media.schema, {}), {});
    expect(ex.truncated).toBe(true);
    expect(JSON.stringify(ex.value).length).toBeLessThan(4 * EXAMPLE_BUDGET.maxStringLength + 100);
  });
});

describe("the dense graph of issue 14 (500 schemas × 20 references, 2,000 operations)", () => {
  const doc = denseGraphDoc();
  const paths = doc.paths as Record<string, { post: { requestBody: { content: Record<string, { schema: unknown }> } } }>;
  const schema = paths["/r0"].post.requestBody.content["application/json"].schema;
  const refs = refsFor(doc, schema);

  it("builds one tree within the per-tree node budget, with the cut visible", () => {
    const view = viewSchema(schema, refs, { mode: "request", repeats: createRepeatRegistry() });
    expect(countNodes(view)).toBeLessThanOrEqual(VIEW_BUDGET.maxNodesPerTree + 20);
    const text = JSON.stringify(view, (k, v) => (k === "repeatOf" ? undefined : v));
    expect(text).toMatch(/not shown|not expanded|shown to depth/);
  });

  it("shares one page budget between trees: the second tree of a spent page is cut at once", () => {
    const budget = createViewBudget(500);
    const repeats = createRepeatRegistry();
    const first = viewSchema(schema, refs, { mode: "request", repeats, budget });
    const second = viewSchema({ $ref: "#/components/schemas/S7" }, refs, { mode: "response", repeats, budget });
    expect(countNodes(first)).toBeLessThanOrEqual(520);
    expect(second.truncated).toBe(true);
    expect(budget.used).toBeLessThanOrEqual(510);
  });

  it("generates an example within the example budget, marked truncated", () => {
    const view = viewSchema(schema, refs, { mode: "request", repeats: createRepeatRegistry() });
    const { value, truncated } = generateExample(view);
    expect(truncated).toBe(true);
    expect(JSON.stringify(value).length).toBeLessThanOrEqual(EXAMPLE_BUDGET.maxChars + 1000);
  });
});

describe("allOf merging budget", () => {
  it("merges a part reached by many paths once (a ladder of diamonds is not exponential)", () => {
    // L0 allOf [A1, B1]; A1 and B1 both allOf [L1]; ... 40 levels: 2^40 paths, 121 schemas.
    const refs: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) {
      refs[`#/components/schemas/L${i}`] = { allOf: [{ $ref: `#/components/schemas/A${i}` }, { $ref: `#/components/schemas/B${i}` }] };
      refs[`#/components/schemas/A${i}`] = { allOf: [{ $ref: `#/components/schemas/L${i + 1}` }], properties: { [`a${i}`]: { type: "string" } } };
      refs[`#/components/schemas/B${i}`] = { allOf: [{ $ref: `#/components/schemas/L${i + 1}` }], properties: { [`b${i}`]: { type: "string" } } };
    }
    refs["#/components/schemas/L40"] = { type: "object", properties: { end: { type: "boolean" } } };
    const merged = mergeAllOf(refs["#/components/schemas/L0"] as Record<string, unknown>, refs, new Set());
    expect(merged.parts.length).toBeLessThanOrEqual(MERGE_BUDGET.maxParts);
    expect(Object.keys(merged.schema.properties as object)).toContain("end");
  });

  it("stops at the parts budget with a note", () => {
    const allOf = Array.from({ length: MERGE_BUDGET.maxParts + 50 }, (_, i) => ({ properties: { [`p${i}`]: { type: "string" } } }));
    const merged = mergeAllOf({ allOf }, {}, new Set());
    expect(merged.parts.length).toBe(MERGE_BUDGET.maxParts);
    expect(merged.budgetNote).toBe(`only the first ${MERGE_BUDGET.maxParts} allOf parts are merged`);
  });
});

describe("text and values count against the page budget", () => {
  it("spends the budget on a huge description repeated on many properties instead of building them all", () => {
    const big = "word ".repeat(500_000);
    const properties = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, { $ref: "#/components/schemas/Big" }]));
    const refs = { "#/components/schemas/Big": { type: "string", description: big, enum: Array.from({ length: 50_000 }, (_, i) => `v${i}`) } };
    const budget = createViewBudget();
    const view = viewSchema({ type: "object", properties }, refs, { budget, repeats: createRepeatRegistry() });
    expect(view.properties!.length).toBeLessThan(10);
    expect(view.omitted).toBe(3000 - view.properties!.length);
  });
});
