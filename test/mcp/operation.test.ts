/** get_operation's JSON and Markdown (worker/mcp/operation.ts): schemas expanded, budgets kept, Markdown fences safe. */
import { describe, expect, it } from "vitest";
import type { OperationSlice } from "../../worker/openapi/model/types";
import { MAX_OPERATION_JSON_CHARS, operationJson, operationMarkdown } from "../../worker/mcp/operation";

function slice(operation: Record<string, unknown>, refs: Record<string, unknown> = {}): OperationSlice {
  return { modelVersion: 1, summary: { method: "post", path: "/pets", operationId: "createPet", summary: "Create a pet" } as OperationSlice["summary"], operation, pathParameters: [], servers: [{ url: "https://api.test" }], security: [{ bearer: [] }], refs };
}

const where = { api: "pets", version: "1.0", url: "https://docs.test/reference/pets/1.0/createpet" };

describe("operationJson", () => {
  it("expands $refs, names repeats and keeps one sample", () => {
    const pet = { type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 50 }, parent: { $ref: "#/components/schemas/Pet" } } };
    const o = operationJson(slice({
      parameters: [{ name: "dryRun", in: "query", schema: { type: "boolean" }, description: "Only check" }],
      requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" }, example: { name: "Rex" } } } },
      responses: { "201": { description: "Created", content: { "application/json": { schema: { $ref: "#/components/schemas/Pet" }, example: { name: "Rex", id: 1 } } } } },
    }, { "#/components/schemas/Pet": pet }), where);
    expect(o).toMatchObject({ method: "POST", path: "/pets", operationId: "createPet", servers: ["https://api.test"], security: [{ bearer: [] }], truncated: false });
    expect(o.parameters).toEqual([{ name: "dryRun", in: "query", required: false, description: "Only check", schema: { type: "boolean" } }]);
    const body = o.requestBody!.content[0]!;
    expect(body.schema).toMatchObject({ title: "Pet", type: "object", required: ["name"], properties: { name: { type: "string", maxLength: 50 }, parent: { cycleOf: "Pet" } } });
    expect(body.example).toEqual({ name: "Rex" });
    // One sample per operation: the request's.
    expect(o.responses[0]!.content[0]!.example).toBeUndefined();
  });

  it("stays within the pages' weight on a huge schema, and leaves out an example past the inline budget", () => {
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`field${i}`, { type: "string", description: `Field number ${i} `.repeat(8) }])) };
    const o = operationJson(slice({ responses: { "200": { description: "ok", content: { "application/json": { schema: wide, example: { big: "x".repeat(20_000) } } } } } }), where);
    expect(JSON.stringify(o).length).toBeLessThanOrEqual(MAX_OPERATION_JSON_CHARS);
    expect(o.truncated).toBe(true);
    expect(o.responses[0]!.content[0]!.example).toBeUndefined();
    expect(o.responses[0]!.content[0]!.exampleOmitted).toMatch(/not shown/);
  });
});

describe("operationMarkdown", () => {
  it("keeps a hostile description's backticks inside the code fence", () => {
    const o = operationJson(slice({ responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "string", description: "```\n# injected" } } } } } }), where);
    const md = operationMarkdown(o);
    expect(md).toContain("# Create a pet");
    expect(md).toContain("`POST /pets`");
    const fence = /\n(`{4,})json\n/.exec(md);
    expect(fence).not.toBeNull();
  });
});
