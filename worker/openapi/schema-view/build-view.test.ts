import { describe, expect, it } from "vitest";
import { viewSchema } from "./build-view";
import { loadCorpus } from "./testing/corpus";
import { refsFor } from "./testing/doc-fixtures";
import type { SchemaView } from "./types";

const prop = (v: SchemaView, name: string) => v.properties?.find((p) => p.name === name);

describe("viewSchema: cycles", () => {
  const doc = loadCorpus("readme-oas-examples/3.0/yaml/circular.yaml");
  const refs = refsFor(doc, doc.paths);
  const root = { $ref: "#/components/schemas/ErrorMessage" };

  it("expands the schema once and turns the self reference into a link to its first appearance", () => {
    const v = viewSchema(root, refs, { anchorPrefix: "r404" });
    expect(v.name).toBe("ErrorMessage");
    expect(v.anchor).toBe("r404-1");
    expect(v.properties?.map((p) => p.name)).toEqual(["statusCode", "error", "inner", "canBeRetried", "detailedErrorCode"]);
    expect(prop(v, "inner")?.schema.cycle).toEqual({ ref: "#/components/schemas/ErrorMessage", name: "ErrorMessage", anchor: "r404-1" });
    expect(prop(v, "inner")?.schema.properties).toBeUndefined();
    expect(v.additionalProperties).toBe(false);
  });

  it("reads 3.0 nullable into the type list and keeps format and enum", () => {
    const v = viewSchema(root, refs);
    expect(prop(v, "error")?.schema.types).toEqual(["string", "null"]);
    expect(prop(v, "statusCode")?.schema).toMatchObject({ types: ["integer"], format: "int32" });
    expect(prop(v, "canBeRetried")?.schema.enum?.map((e) => e.value)).toEqual(["Unknown", "Yes", "No"]);
  });

  it("cuts mutual recursion through arrays too (schema-circular.yaml)", () => {
    const d = loadCorpus("readme-oas-examples/3.0/yaml/schema-circular.yaml");
    const r = refsFor(d, d.paths);
    let cycles = 0;
    const walk = (n: SchemaView, depth: number): void => {
      expect(depth).toBeLessThan(30);
      if (n.cycle) cycles++;
      for (const p of n.properties ?? []) walk(p.schema, depth + 1);
      if (n.items) walk(n.items, depth + 1);
      for (const g of n.variants ?? []) for (const o of g.options) walk(o.schema, depth + 1);
    };
    for (const key of Object.keys(r).filter((k) => k.startsWith("#/components/schemas/"))) walk(viewSchema({ $ref: key }, r), 0);
    expect(cycles).toBeGreaterThan(0);
  });
});

describe("viewSchema: discriminators and variants", () => {
  const doc = loadCorpus("readme-oas-examples/3.0/yaml/discriminators.yaml");
  const refs = refsFor(doc, doc.paths, doc.components);
  const paths = doc.paths as Record<string, Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>>;
  const body = (path: string) => paths[path].patch.requestBody.content["application/json"].schema;

  it("names oneOf options by title and shows the explicit mapping", () => {
    const v = viewSchema(body("/discriminator-with-mapping"), refs);
    const g = v.variants?.[0];
    expect(g?.kind).toBe("oneOf");
    expect(g?.options.map((o) => o.name)).toEqual(["Schema title option one", "Schema title option two"]);
    expect(g?.options.map((o) => o.discriminatorValue)).toEqual(["Option One", "Option Two"]);
    expect(g?.discriminator).toEqual({
      propertyName: "discrim",
      mapping: [
        { value: "Option One", target: "#/components/schemas/OptionOneNoDisc", explicit: true },
        { value: "Option Two", target: "#/components/schemas/OptionTwoNoDisc", explicit: true },
      ],
    });
  });

  it("implies the mapping from component names when none is written", () => {
    const g = viewSchema(body("/discriminator-with-no-mapping"), refs).variants?.[0];
    expect(g?.discriminator?.mapping).toEqual([
      { value: "OptionOneNoDisc", target: "#/components/schemas/OptionOneNoDisc", explicit: false },
      { value: "OptionTwoNoDisc", target: "#/components/schemas/OptionTwoNoDisc", explicit: false },
    ]);
  });

  it("accepts bare schema names as mapping targets", () => {
    const g = viewSchema(body("/mapping-of-schema-names"), refs).variants?.[0];
    expect(g?.options.map((o) => o.discriminatorValue)).toEqual(["Option One", "Option Two"]);
  });

  it("merges allOf with the base (Dog allOf Pet) without looping through the base's discriminator", () => {
    const v = viewSchema(body("/embedded-discriminator"), refs);
    const dog = v.variants?.[0].options[1];
    expect(dog?.name).toBe("Woof");
    expect(dog?.schema.composedOf).toEqual(["Pet", "inline"]);
    expect(dog?.schema.properties?.map((p) => p.name)).toEqual(["pet_type", "bark", "breed"]);
    expect(prop(dog!.schema, "pet_type")?.required).toBe(true);
    expect(dog?.schema.conflicts).toBeUndefined();
  });

  it("names a schema mapped under several values by its component name", () => {
    const g = viewSchema(body("/mapping-with-duplicate-schemas"), refs).variants?.[0];
    expect(g?.options.map((o) => o.name)).toEqual(["Schema title option one", "Schema title option two", "Schema title option three"]);
    expect(g?.options.map((o) => o.discriminatorValue)).toEqual(["oneA", "twoA", "three"]);
  });

  it("turns a mapping without oneOf (Redocly style) into variants", () => {
    const v = viewSchema(body("/redocly-flavored-discriminator"), refs);
    const vehicle = prop(v, "vehicle")!.schema;
    expect(vehicle.variants?.[0].kind).toBe("mapping");
    expect(vehicle.variants?.[0].options.length).toBeGreaterThan(1);
    for (const o of vehicle.variants![0].options) expect(o.schema.cycle).toBeUndefined();
  });
});

describe("viewSchema: allOf conflicts, modes, annotations", () => {
  const refs = {
    "#/components/schemas/Base": { type: "object", required: ["id"], properties: { id: { type: "integer", readOnly: true }, size: { type: "integer", maximum: 10, format: "int32" } } },
    "#/components/schemas/Secret": { type: "string", writeOnly: true },
  };

  it("reports conflicting keywords and keeps the stricter bound", () => {
    const v = viewSchema({ allOf: [{ $ref: "#/components/schemas/Base" }, { properties: { size: { type: "integer", maximum: 5, format: "int64" } } }] }, refs);
    const size = prop(v, "size")!.schema;
    expect(size.constraints).toEqual([{ keyword: "maximum", value: 5 }]);
    expect(size.conflicts).toEqual([
      { keyword: "maximum", values: [10, 5], effective: 5 },
      { keyword: "format", values: ["int32", "int64"] },
    ]);
    expect(size.format).toBe("int32");
  });

  it("reports a type clash with no common type", () => {
    const v = viewSchema({ allOf: [{ type: "string" }, { type: "object" }] }, refs);
    expect(v.conflicts).toEqual([{ keyword: "type", values: ["string", "object"] }]);
  });

  it("drops readOnly properties from request views and writeOnly ones from response views", () => {
    const schema = { allOf: [{ $ref: "#/components/schemas/Base" }], properties: { password: { $ref: "#/components/schemas/Secret" } } };
    expect(viewSchema(schema, refs, { mode: "request" }).properties?.map((p) => p.name)).toEqual(["size", "password"]);
    expect(viewSchema(schema, refs, { mode: "response" }).properties?.map((p) => p.name)).toEqual(["id", "size"]);
    expect(viewSchema(schema, refs).properties?.map((p) => p.name)).toEqual(["id", "size", "password"]);
  });

  it("reads 3.1 type arrays, const, examples and enum extensions", () => {
    const v = viewSchema({
      type: ["integer", "null"], enum: [1, 2], "x-enumNames": ["One", "Two"], "x-enum-descriptions": { 2: "The second" },
      examples: [2], exclusiveMinimum: 0, multipleOf: 1, deprecated: true,
    }, {});
    expect(v.types).toEqual(["integer", "null"]);
    expect(v.enum).toEqual([{ value: 1, label: "One" }, { value: 2, label: "Two", description: "The second" }]);
    expect(v.examples).toEqual([2]);
    expect(v.constraints).toEqual([{ keyword: "exclusiveMinimum", value: 0 }, { keyword: "multipleOf", value: 1 }]);
    expect(v.deprecated).toBe(true);
  });

  it("marks missing refs and respects the node budget", () => {
    expect(viewSchema({ $ref: "#/components/schemas/Nope" }, {}).unresolved).toBe("#/components/schemas/Nope");
    const wide = { type: "object", properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { type: "string" }])) };
    const v = viewSchema(wide, {}, { maxNodes: 10 });
    // Past the budget the remaining properties are counted, not built ("41 more fields not shown").
    expect(v.properties?.length).toBe(9);
    expect(v.omitted).toBe(41);
  });

  it("treats allOf of one ref plus annotations as that ref", () => {
    const v = viewSchema({ allOf: [{ $ref: "#/components/schemas/Base" }], description: "Wrapped", nullable: true }, refs);
    expect(v.name).toBe("Base");
    expect(v.description).toBe("Wrapped");
    expect(v.types).toEqual(["object", "null"]);
  });
});
