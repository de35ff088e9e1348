/** @module Test support: a definition whose operation page is far over the inline schema budget (render/components/defer.tsx). */

/** One operation whose 200 response is a 40-property object of 8-property objects, plus a oneOf of two big variants. */
export function heavyDefinition(): string {
  const leaf = (g: number) => Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`leaf_${g}_${i}`, { type: "string", description: `Leaf ${i} of group ${g}: `.padEnd(90, "x") }]));
  const groups = Object.fromEntries(Array.from({ length: 40 }, (_, g) => [`group_${g}`, { type: "object", description: `Group ${g}`, properties: leaf(g) }]));
  const variant = (v: string) => ({ type: "object", title: v, properties: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`${v}_field_${i}`, { type: "object", properties: { [`${v}_inner_${i}`]: { type: "integer" } } }])) });
  return JSON.stringify({
    openapi: "3.1.0",
    info: { title: "Heavy", version: "1.0" },
    paths: {
      "/things": {
        get: {
          operationId: "getThings",
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: groups } } } },
            "202": { description: "one of", content: { "application/json": { schema: { oneOf: [variant("alpha"), variant("beta")] } } } },
          },
        },
      },
    },
  });
}
