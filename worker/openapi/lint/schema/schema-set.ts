/**
 * @module A set of JSON Schema documents indexed for reference resolution: `$id` resources, `$anchor` and
 * `$dynamicAnchor` names, JSON-pointer fragments. Built once per OpenAPI version and shared by every lint.
 * @see https://json-schema.org/draft/2020-12/json-schema-core#section-8.2 (identifiers, anchors)
 */

export type Schema = boolean | SchemaObject;
export interface SchemaObject {
  [keyword: string]: unknown;
}

/** A schema resource: a document or a subschema with its own `$id`. */
export interface Resource {
  uri: string;
  root: SchemaObject;
  anchors: Map<string, Schema>;
  /** Names declared with `$dynamicAnchor` in this resource. */
  dynamicAnchors: Map<string, Schema>;
}

// Keywords whose values are data, not schemas: never indexed.
const DATA_KEYWORDS = new Set(["enum", "const", "default", "examples", "example"]);
// Keywords whose values map names to schemas: a name is never a keyword, so a property called `examples`
// (the Media Type, Parameter and Header Objects have one) is indexed like any other.
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

export class SchemaSet {
  private readonly resources = new Map<string, Resource>();
  private readonly owner = new WeakMap<object, Resource>();
  private readonly refs = new Map<Resource, Map<string, Schema | null>>();

  constructor(documents: readonly SchemaObject[]) {
    for (const doc of documents) this.index(doc, undefined);
  }

  /** The document registered under `uri` (fragment ignored). */
  get(uri: string): SchemaObject | undefined {
    return this.resources.get(stripFragment(uri))?.root;
  }

  /** The resource a schema object belongs to. */
  resourceOf(schema: SchemaObject): Resource | undefined {
    return this.owner.get(schema);
  }

  /** Resolves a `$ref` / `$dynamicRef` value written in `from`'s resource; undefined when unknown. */
  resolve(ref: string, from: Resource): Schema | undefined {
    let byRef = this.refs.get(from);
    if (!byRef) this.refs.set(from, (byRef = new Map()));
    let hit = byRef.get(ref);
    if (hit === undefined) {
      hit = this.lookup(ref, from) ?? null;
      byRef.set(ref, hit);
    }
    return hit ?? undefined;
  }

  private lookup(ref: string, from: Resource): Schema | undefined {
    const hash = ref.indexOf("#");
    const base = hash === 0 ? from : this.resources.get(stripFragment(absolute(hash === -1 ? ref : ref.slice(0, hash), from.uri)));
    if (!base) return undefined;
    const fragment = hash === -1 ? "" : ref.slice(hash + 1);
    if (fragment === "") return base.root;
    if (!fragment.startsWith("/")) return base.anchors.get(decodeURIComponent(fragment));
    let node: unknown = base.root;
    for (const raw of fragment.slice(1).split("/")) {
      const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
      if (node === null || typeof node !== "object" || !(key in node)) return undefined;
      node = (node as Record<string, unknown>)[key];
    }
    return typeof node === "boolean" || (typeof node === "object" && node !== null && !Array.isArray(node)) ? (node as Schema) : undefined;
  }

  private index(node: unknown, current: Resource | undefined): void {
    if (Array.isArray(node)) {
      for (const item of node) this.index(item, current);
      return;
    }
    if (node === null || typeof node !== "object") return;
    const schema = node as SchemaObject;
    let resource = current;
    if (typeof schema.$id === "string") {
      const uri = stripFragment(absolute(schema.$id, current?.uri ?? "urn:portico:schema"));
      resource = { uri, root: schema, anchors: new Map(), dynamicAnchors: new Map() };
      this.resources.set(uri, resource);
    }
    if (!resource) return;
    this.owner.set(schema, resource);
    if (typeof schema.$anchor === "string") resource.anchors.set(schema.$anchor, schema);
    if (typeof schema.$dynamicAnchor === "string") {
      resource.anchors.set(schema.$dynamicAnchor, schema);
      // As ajv: only an anchor at a resource's root takes part in dynamic scoping.
      if (resource.root === schema) resource.dynamicAnchors.set(schema.$dynamicAnchor, schema);
    }
    for (const key of Object.keys(schema)) {
      if (DATA_KEYWORDS.has(key)) continue;
      const value = schema[key];
      if (SCHEMA_MAPS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const member of Object.values(value)) this.index(member, resource);
      } else this.index(value, resource);
    }
  }
}

function absolute(ref: string, base: string): string {
  try {
    return new URL(ref, base).href;
  } catch {
    return ref;
  }
}

function stripFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}
