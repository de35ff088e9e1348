/** @module The schema view: one resolved, render-ready tree per schema, shared by the viewer, examples and samples. */

/**
 * Which side of the wire a schema describes. In `request` views readOnly properties are dropped, in
 * `response` views writeOnly ones (OpenAPI 3.0 §4.7.24 / JSON Schema validation §9.4).
 */
export type ViewMode = "request" | "response" | "any";

/** One enum value with the label and description a vendor extension gave it, if any. */
export interface EnumValue {
  value: unknown;
  /** From `x-enumNames` (NSwag, Redoc). */
  label?: string;
  /** From `x-enum-descriptions` / `x-enumDescriptions` (Redoc, Speakeasy). */
  description?: string;
}

/** A validation keyword as written (`minimum: 1`, `exclusiveMaximum: true`, `pattern: ^a`). */
export interface Constraint {
  keyword: string;
  value: unknown;
}

/** An allOf disagreement: the keyword and every distinct value the parts gave it. */
export interface Conflict {
  keyword: string;
  values: unknown[];
  /** The value the merged schema uses (stricter bound, type intersection), when one exists. */
  effective?: unknown;
}

/** One object property. */
export interface PropertyView {
  name: string;
  required: boolean;
  schema: SchemaView;
}

/** One named alternative of a oneOf/anyOf (or of a discriminator mapping without oneOf). */
export interface VariantOption {
  /** From `title`, else the discriminator mapping key, else the component name, else the type. */
  name: string;
  /** The discriminator value that selects this option, when a discriminator is declared. */
  discriminatorValue?: string;
  schema: SchemaView;
}

/** A oneOf/anyOf group. `mapping` kind: variants implied by a discriminator mapping alone. */
export interface VariantGroup {
  kind: "oneOf" | "anyOf" | "mapping";
  options: VariantOption[];
  discriminator?: DiscriminatorView;
}

/** The discriminator property and its value → schema mapping (explicit or implied by component names). */
export interface DiscriminatorView {
  propertyName: string;
  mapping: { value: string; target: string; explicit: boolean }[];
}

/**
 * A resolved schema node. Optional fields are absent when the schema says nothing about them, so a view
 * stays small. `cycle` nodes carry no content: they point back at an ancestor's `anchor`.
 */
export interface SchemaView {
  /** Component name when the node came from `#/components/schemas/<name>`. */
  name?: string;
  ref?: string;
  /** Id for links to this node: set only on nodes something links to (a cycle, a "same as above"). */
  anchor?: string;
  title?: string;
  description?: string;
  /** JSON types, `null` included when nullable; empty means any. */
  types: string[];
  format?: string;
  enum?: EnumValue[];
  const?: { value: unknown };
  default?: { value: unknown };
  /** `examples` (3.1 array) then `example` (3.0). */
  examples?: unknown[];
  constraints?: Constraint[];
  readOnly?: boolean;
  writeOnly?: boolean;
  deprecated?: boolean;
  /** The allOf parts this node merges, by name (`inline` for anonymous parts). */
  composedOf?: string[];
  conflicts?: Conflict[];
  properties?: PropertyView[];
  patternProperties?: { pattern: string; schema: SchemaView }[];
  /** `false` when forbidden, a view when constrained, absent when unconstrained or unspecified. */
  additionalProperties?: SchemaView | false;
  items?: SchemaView;
  prefixItems?: SchemaView[];
  variants?: VariantGroup[];
  not?: SchemaView;
  contentMediaType?: string;
  contentEncoding?: string;
  /**
   * Set when this node's children were already shown earlier on the page (not by an ancestor): the same
   * named schema, or a node with identical children. The node keeps its own facts (types, description, ...)
   * and has no children of its own: renderers link to `repeatOf.anchor` instead of repeating the tree, and
   * take the children from `repeatOf` (examples, type labels).
   */
  repeatOf?: SchemaView;
  /** How to call `repeatOf` in "Same as … above" when it has no component name: where it was shown (`billing`, `items of labels`). */
  repeatLabel?: string;
  /** Set when this node refers back to an ancestor: render a link, not a tree. */
  cycle?: { ref: string; name: string; anchor?: string };
  /** A `$ref` with no local target. */
  unresolved?: string;
  /** Depth or size budget reached: the subtree is not expanded. */
  truncated?: boolean;
  /** Why a `truncated` node was cut, in readers' words ("schema shown to depth 24"). */
  budgetNote?: string;
  /** Properties not shown because the budget was spent ("N more fields not shown"). */
  omitted?: number;
  /** `false` boolean schema (3.1): nothing validates. */
  never?: boolean;
}
