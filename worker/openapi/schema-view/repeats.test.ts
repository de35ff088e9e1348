import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createRepeatRegistry, viewSchema } from "./build-view";
import { exampleFromView } from "./example";
import { bodyOf } from "./shape";
import { refsFor } from "./testing/doc-fixtures";
import type { SchemaView } from "./types";

const prop = (v: SchemaView, name: string) => v.properties!.find((p) => p.name === name)!.schema;

describe("repeats: GitHub's full-repository (nullable-repository is a twin of repository)", () => {
  const doc = JSON.parse(readFileSync(resolve(process.cwd(), "node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8"));
  const root = { $ref: "#/components/schemas/full-repository" };
  const refs = refsFor(doc, root);
  const repeats = createRepeatRegistry();
  const view = viewSchema(root, refs, { mode: "response", anchorPrefix: "s0", repeats });
  const template = prop(view, "template_repository");
  const parent = prop(view, "parent");
  const source = prop(view, "source");

  it("expands the first of the twins and links the other to it, keeping its own name and nullability", () => {
    expect(template.name).toBe("nullable-repository");
    expect(template.properties?.length).toBe(98);
    expect(template.repeatOf).toBeUndefined();
    expect(parent.name).toBe("repository");
    expect(parent.repeatOf).toBe(template);
    expect(parent.properties).toBeUndefined();
    expect(template.types).toEqual(["object", "null"]);
    expect(parent.types).toEqual(["object"]);
    expect(parent.description).toBe(doc.components.schemas.repository.description);
  });

  it("links the same named schema met again to the first expansion, not to the link before it", () => {
    expect(source.repeatOf).toBe(template);
    expect(source.name).toBe("repository");
  });

  it("gives anchors only to nodes something links to", () => {
    expect(template.anchor).toMatch(/^s0-r\d+$/);
    expect(prop(view, "owner").anchor).toMatch(/^s0-r\d+$/); // simple-user, shown again in the twins
    expect(prop(view, "code_of_conduct").anchor).toBeUndefined();
    expect(prop(view, "license").anchor).toBeUndefined();
    expect(parent.anchor).toBeUndefined();
    expect(view.anchor).toBeUndefined();
  });

  it("generates the same example through a link as through the expansion", () => {
    expect(exampleFromView(parent)).toEqual({ ...(exampleFromView(template) as object) });
    expect(Object.keys(exampleFromView(parent) as object).length).toBe(98);
  });
});

describe("repeats: inline objects", () => {
  const address = (description: string) => ({
    type: "object", description,
    properties: {
      street: { type: "string", description: "Street and house number, as printed on a letter to this address." },
      city: { type: "string", description: "City or town; for Paris, Lyon and Marseille without the arrondissement." },
      postcode: { type: "string", description: "Postal code in the country's own format, spaces kept as written." },
      country: { type: "string", enum: ["FR", "DE", "NL", "BE", "LU"], description: "ISO 3166-1 alpha-2 code." },
    },
  });

  it("links an identical inline object to the first, labelled by where it was shown, with its own description", () => {
    const repeats = createRepeatRegistry();
    const v = viewSchema({ type: "object", properties: { billing: address("Where invoices go."), shipping: address("Where parcels go.") } }, {}, { anchorPrefix: "b", repeats });
    const billing = prop(v, "billing");
    const shipping = prop(v, "shipping");
    expect(shipping.repeatOf).toBe(billing);
    expect(shipping.repeatLabel).toBe("billing");
    expect(shipping.description).toBe("Where parcels go.");
    expect(billing.anchor).toBe("b-r1");
    expect(bodyOf(shipping).properties?.map((p) => p.name)).toEqual(["street", "city", "postcode", "country"]);
  });

  it("links across trees of one page, and never across pages", () => {
    const repeats = createRepeatRegistry();
    const first = viewSchema(address("A"), {}, { anchorPrefix: "s1", repeats });
    const item = viewSchema({ type: "array", items: address("B") }, {}, { anchorPrefix: "s2", repeats }).items!;
    // The first tree's root has no label to link by; the second tree's node is the one recorded.
    expect(item.repeatOf).toBeUndefined();
    const third = viewSchema({ type: "object", properties: { again: address("C") } }, {}, { anchorPrefix: "s3", repeats });
    expect(prop(third, "again").repeatOf).toBe(item);
    expect(prop(third, "again").repeatLabel).toBe("items");
    expect(item.anchor).toBe("s2-r1");
    expect(first.anchor).toBeUndefined();
    const other = viewSchema({ type: "object", properties: { again: address("C") } }, {}, { repeats: createRepeatRegistry() });
    expect(prop(other, "again").repeatOf).toBeUndefined();
  });

  it("shows small bodies again rather than linking to them", () => {
    const small = { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } };
    const v = viewSchema({ type: "object", properties: { x: small, y: small } }, {}, { repeats: createRepeatRegistry() });
    expect(prop(v, "y").repeatOf).toBeUndefined();
    expect(prop(v, "y").properties?.length).toBe(2);
  });

  it("tells apart bodies that differ only in a nested description or a required flag", () => {
    const a = address("A");
    const b = { ...address("A"), properties: { ...address("A").properties, city: { type: "string", description: "Town." } } };
    const c = { ...address("A"), required: ["city"] };
    const v = viewSchema({ type: "object", properties: { a, b, c } }, {}, { repeats: createRepeatRegistry() });
    expect(prop(v, "b").repeatOf).toBeUndefined();
    expect(prop(v, "c").repeatOf).toBeUndefined();
  });
});
