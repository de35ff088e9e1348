import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { createBudget } from "../../work-budget";
import { lintDataCapped } from "../lint-document";
import { lintRule } from "../test-helpers";
import { deepEqual } from "../util/deep-equal";

describe("duplicated-entry-in-enum", () => {
  it("reports the last repeated value and its earlier copy", () => {
    expect(
      lintRule(
        "duplicated-entry-in-enum",
        `
        openapi: 3.0.3
        info: {title: T, version: "1"}
        paths: {}
        components:
          schemas:
            Size:
              type: string
              enum: [s, m, s, l, m]
            Fine:
              type: object
              properties:
                enum: {type: string}
        `,
      ),
    ).toEqual([{ line: 8, message: '"enum" property must not have duplicate items (items ## 1 and 4 are identical)', path: "/components/schemas/Size/enum" }]);
  });
});

/** The pairwise check the rule made before issue 38: the last value repeating an earlier one, its nearest copy. */
function pairwise(values: unknown[]): [number, number] | undefined {
  for (let i = values.length - 1; i > 0; i--) for (let j = i - 1; j >= 0; j--) if (deepEqual(values[i], values[j])) return [j, i];
  return undefined;
}

function reported(values: unknown[]): string[] {
  const doc = { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {}, components: { schemas: { S: { enum: values } } } };
  return lintDataCapped(doc, () => ({ line: 1, column: 1 }), Infinity, { rules: { "duplicated-entry-in-enum": "warning" } })
    .problems.filter((p) => p.rule === "duplicated-entry-in-enum")
    .map((p) => p.message);
}

describe("duplicated-entry-in-enum on large enums (issue 38)", () => {
  const value = fc.oneof(fc.constantFrom(0, -0, 1, "1", "a", true, false, null), fc.constantFrom({ a: 1, b: [1] }, { b: [1], a: 1 }, [1, "1"], ["1", 1], {}, []));

  it("names the same pair of items as the pairwise check", () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 12 }), (values) => {
        const pair = pairwise(values);
        expect(reported(values)).toEqual(pair ? [`"enum" property must not have duplicate items (items ## ${pair[0]} and ${pair[1]} are identical)`] : []);
      }),
    );
  });

  it("spends work linear in the enum's length: 100,000 values within 1,000,000 units", () => {
    // The only repeat is at the start: the pairwise check compared every later value with all before it.
    const values = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    values[1] = "v0";
    const work = createBudget({ units: 1_000_000 });
    const doc = { openapi: "3.0.3", info: { title: "T", version: "1" }, paths: {}, components: { schemas: { S: { enum: values } } } };
    const { problems } = lintDataCapped(doc, () => ({ line: 1, column: 1 }), Infinity, { work });
    expect(problems.find((p) => p.rule === "duplicated-entry-in-enum")?.message).toBe('"enum" property must not have duplicate items (items ## 0 and 1 are identical)');
  });
});
