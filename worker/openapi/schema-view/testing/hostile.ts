/** @module Test support: hostile definitions from issue 14, built in code (the dense graph is about 1 MB as JSON). */

/**
 * A dense schema graph: `schemas` components, each an object whose `fan` properties reference other components,
 * and `operations` POST operations whose body and response reference them. With the defaults (500 × 20, 2,000
 * operations) the number of paths through the graph is astronomically larger than the graph. `descriptionChars`
 * gives every schema a description that long (so that what one operation reaches can be made heavy).
 */
export function denseGraphDoc(schemas = 500, fan = 20, operations = 2000, descriptionChars = 0): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  for (let i = 0; i < schemas; i++) {
    const properties: Record<string, unknown> = {};
    for (let j = 1; j <= fan; j++) properties[`p${j}`] = { $ref: `#/components/schemas/S${(i * 7 + j * 13) % schemas}` };
    components[`S${i}`] = { type: "object", ...(descriptionChars ? { description: "d".repeat(descriptionChars) } : {}), properties };
  }
  const paths: Record<string, unknown> = {};
  for (let k = 0; k < operations; k++) {
    const body = { $ref: `#/components/schemas/S${k % schemas}` };
    const reply = { $ref: `#/components/schemas/S${(k + 1) % schemas}` };
    paths[`/r${k}`] = {
      post: {
        operationId: `op${k}`,
        requestBody: { content: { "application/json": { schema: body } } },
        responses: { 200: { description: "ok", content: { "application/json": { schema: reply } } } },
      },
    };
  }
  return { openapi: "3.0.3", info: { title: "Dense", version: "1" }, paths, components: { schemas: components } };
}

/** Bounds from issue 14 and their relatives: huge, infinite-ish, negative, fractional, not numbers. */
export const EXTREME_BOUNDS: unknown[] = [400000000, 1e9, 1e12, 1e308, Number.MAX_VALUE, -1, -1e308, 2.5, 0.0001, "400000000", null, true];
