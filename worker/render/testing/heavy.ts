/**
 * @module Test support: a definition whose operation pages are far over the page weight budget
 * (render/components/defer.tsx): `getThings` by its schema rows, `publishThing` (shaped like GitHub's heaviest page,
 * `codespaces-publish-for-authenticated-user`) by its response examples as well.
 */

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
      "/things/{name}/publish": {
        post: {
          operationId: "publishThing",
          summary: "Publish a thing",
          parameters: [{ name: "name", in: "path", required: true, schema: { type: "string" } }],
          requestBody: { content: { "application/json": { schema: { type: "object", properties: { repository: { type: "string" }, private: { type: "boolean" } } }, example: { repository: "hello-world", private: false } } } },
          responses: {
            "200": { description: "already published", content: { "application/json": { schema: thingSchema(), example: bigExample("current") } } },
            "201": { description: "published", content: { "application/json": { schema: thingSchema(), example: bigExample("published") } } },
            "202": { description: "queued", content: { "application/json": { schema: thingSchema(), example: bigExample("queued") } } },
            // Carries a reader's value ({{api_key}}): never deferred, whatever its length.
            "203": { description: "with a placeholder", content: { "application/json": { schema: { type: "object" }, example: { token: "{{api_key}}", ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`placeholder_field_${i}`, `value ${i} `.padEnd(60, "p")])) } } } },
          },
        },
      },
    },
  });
}

/** A response schema like GitHub's codespace: 30 described fields, an owner of 20, a repository of 80. */
function thingSchema(): Record<string, unknown> {
  const fields = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}_${i}`, { type: "string", description: `The ${prefix} field ${i}, as the API returns it: `.padEnd(140, "d") }]));
  return { type: "object", properties: { ...fields("thing", 30), owner: { type: "object", properties: fields("owner", 20) }, repository: { type: "object", properties: fields("repo", 80) } } };
}

/**
 * A response example of about 15 KB pretty-printed (GitHub's largest, a codespace with its repository, is 16 KB; pages cut examples at 16,000 characters),
 * ending in `last_field_of_<label>` so a test can tell it was shown whole.
 */
export function bigExample(label: string): Record<string, unknown> {
  const urls = (prefix: string, n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}_${i}`, `https://api.example.com/things/${label}/${prefix}/${i}{/other}`]));
  return { id: 1, label, ...urls("thing", 30), owner: urls("owner", 20), repository: urls("repo", 150), [`last_field_of_${label}`]: true };
}
