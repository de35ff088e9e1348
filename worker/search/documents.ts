/**
 * @module Search documents of a published definition: one {@link SearchDocument} per operation, webhook and
 * callback, read from its model slice (worker/openapi/model). A document carries what readers search an API
 * reference by: summary, description, method + path, operationId, tag, parameter names and descriptions,
 * request and response property names and descriptions, and enum values. Platform-free (no bindings), so the
 * publisher, tests and the bench share it.
 *
 * Schemas are walked within bounds ({@link SCHEMA_WALK}): a slice may reach a dense `$ref` graph, and the
 * document only needs the names a reader would type, not every nested field.
 */
import type { OperationSlice, TagInfo } from "../openapi/model/types";
import { operationUrl } from "../render/urls";
import type { SearchDocument } from "./types";
import { plainText } from "./documents-text";

/** Which published API a document belongs to. URLs are relative to the portal's base path (`/p/{portal}`). */
export interface ApiSource {
  /** API slug. */
  api: string;
  /** The version label that is live. */
  version: string;
  /** "page-per-operation" or "single-page": decides whether an operation is a page or an anchor. */
  layout: string;
  /** Bounds of each operation's schema walk (default {@link SCHEMA_WALK}). */
  walk?: SchemaWalk;
  /** Locale the definition is written in (the portal's default content locale, else "en"). */
  locale: string;
  /** The definition's tags (ReferenceHeader.tags): an operation's first tag's description is its `context`. */
  tags?: readonly TagInfo[];
}

/** Bounds of the schema walk of one operation (nodes visited, nesting depth, names kept, body characters). */
export const SCHEMA_WALK = { nodes: 600, depth: 5, names: 300, enums: 200, bodyChars: 6000 } as const;
/** Bounds of a schema walk (see {@link SCHEMA_WALK}). */
export type SchemaWalk = { readonly [K in keyof typeof SCHEMA_WALK]: number };
/**
 * The lighter walk of definitions built streamed (past 25 MiB, issue 12): Microsoft Graph beta's 22,361
 * operations made 34 MB of documents with {@link SCHEMA_WALK} (mostly the hundreds of property names each response
 * of its large entities returns), and the index built from them took longer than the rest of its publish. Each
 * document keeps its title, path, operationId, tag and parameters, and fewer schema names and less text.
 */
export const STREAMED_SCHEMA_WALK: SchemaWalk = { nodes: 150, depth: 3, names: 60, enums: 50, bodyChars: 1500 };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Follows `$ref`s through the slice's copied targets (a missing or cyclic chain ends at the last object). */
function deref(node: unknown, refs: Record<string, unknown>): unknown {
  let current = node;
  for (let hops = 0; hops < 16 && isObject(current) && typeof current.$ref === "string"; hops++) {
    const target = refs[current.$ref];
    if (target === undefined) return current;
    current = target;
  }
  return current;
}

/** Accumulates the names, descriptions and enum values of one operation, within its walk limits ({@link SCHEMA_WALK} unless set). */
class Collector {
  readonly parameters = new Set<string>();
  readonly properties = new Set<string>();
  readonly enums = new Set<string>();
  readonly texts: string[] = [];
  private chars = 0;
  private nodes = 0;
  private readonly seen = new Set<unknown>();
  /**
   * Where property names go: the `properties` field (request bodies: what a caller sends), or `returned`
   * (responses), which ends up in the body text: a field every answer repeats (id, name, created_at) is a weak
   * sign of what the operation does, and the body weighs less than identifier fields.
   */
  private into: "properties" | "returned" = "properties";
  readonly returned = new Set<string>();
  /** Whether descriptions met now go into the body (response schemas add names only: their prose is noise). */
  private describe = true;

  constructor(
    private readonly refs: Record<string, unknown>,
    private readonly limits: SchemaWalk = SCHEMA_WALK,
  ) {}

  text(value: unknown): void {
    if (!this.describe || typeof value !== "string" || this.chars >= this.limits.bodyChars) return;
    const t = plainText(value, this.limits.bodyChars - this.chars);
    if (!t) return;
    this.texts.push(t);
    this.chars += t.length;
  }

  enumValues(values: unknown): void {
    if (!Array.isArray(values)) return;
    for (const v of values) {
      if (this.enums.size >= this.limits.enums) return;
      if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
        const s = String(v).slice(0, 100);
        if (s) this.enums.add(s);
      }
    }
  }

  parameter(raw: unknown): void {
    const p = deref(raw, this.refs);
    if (!isObject(p)) return;
    if (typeof p.name === "string" && this.parameters.size < this.limits.names) this.parameters.add(p.name.slice(0, 100));
    this.text(p.description);
    this.schema(p.schema, 0);
  }

  /** Property names, descriptions and enums of a schema and its subschemas (allOf/oneOf/anyOf, items, properties). */
  schema(raw: unknown, depth: number): void {
    const s = deref(raw, this.refs);
    if (!isObject(s) || depth > this.limits.depth || this.seen.has(s) || this.nodes >= this.limits.nodes) return;
    this.seen.add(s);
    this.nodes++;
    if (depth > 0) this.text(s.description);
    this.enumValues(s.enum);
    if (s.const !== undefined) this.enumValues([s.const]);
    for (const key of ["allOf", "oneOf", "anyOf"]) {
      const parts = s[key];
      if (Array.isArray(parts)) for (const part of parts.slice(0, 50)) this.schema(part, depth + 1);
    }
    if (s.items !== undefined) this.schema(s.items, depth + 1);
    if (isObject(s.additionalProperties)) this.schema(s.additionalProperties, depth + 1);
    if (isObject(s.properties)) {
      for (const [name, child] of Object.entries(s.properties)) {
        const names = this.into === "properties" ? this.properties : this.returned;
        if (names.size < this.limits.names) names.add(name.slice(0, 100));
        this.schema(child, depth + 1);
      }
    }
  }

  /** What the operation answers: property names (to `returned`) and enum values, without descriptions. */
  response(raw: unknown): void {
    this.into = "returned";
    this.describe = false;
    this.content(raw);
    this.into = "properties";
    this.describe = true;
  }

  /** The schemas of a request body or response (every media type). */
  content(raw: unknown): void {
    const body = deref(raw, this.refs);
    if (!isObject(body)) return;
    this.text(body.description);
    if (!isObject(body.content)) return;
    for (const media of Object.values(body.content)) if (isObject(media)) this.schema(media.schema, 0);
  }
}

/**
 * Characters of a tag's description an operation's `context` keeps: at most 1,000, and a third of the walk's body
 * (500 for definitions built streamed: a huge definition's documents must not grow by a tag text per operation).
 */
const CONTEXT_CHARS = 1000;

/** Tag name → its summary (3.2) and description as plain text, per tags array (one definition's operations share it). */
const tagTexts = new WeakMap<readonly TagInfo[], Map<string, string>>();

/**
 * `{context}` for an operation whose first tag is `tag`: that tag's summary (OpenAPI 3.2) and description as plain
 * text (its first `max` characters), or nothing. Tags that are not objects with a string name are skipped.
 */
function tagContext(tags: readonly TagInfo[] | undefined, tag: string | undefined, max: number): { context?: string } {
  if (!tags || tag === undefined) return {};
  let texts = tagTexts.get(tags);
  if (!texts) {
    texts = new Map();
    for (const t of tags) {
      if (!isObject(t) || typeof t.name !== "string" || texts.has(t.name)) continue;
      const parts = [t.summary, t.description].filter((x): x is string => typeof x === "string");
      const text = plainText(parts.join("\n\n"), CONTEXT_CHARS);
      if (text) texts.set(t.name, text);
    }
    tagTexts.set(tags, texts);
  }
  const text = texts.get(tag)?.slice(0, max);
  return text ? { context: text } : {};
}

/** Document id of an operation: unique within a portal's index. */
export function operationDocId(api: string, slug: string): string {
  return `op:${api}:${slug}`;
}

/**
 * The search document of one operation slice. Title: the summary, else the operationId, else `METHOD /path`;
 * section: its first tag; fields: parameter names, request property names, enum values (requests and responses);
 * body: the description, parameter and request property descriptions (plain text, at most
 * {@link SCHEMA_WALK}.bodyChars characters), then the names of the response's properties.
 */
export function operationDocument(slice: OperationSlice, src: ApiSource): SearchDocument {
  const { summary, operation, pathParameters, refs } = slice;
  const c = new Collector(refs ?? {}, src.walk);
  c.text(operation.summary === summary.summary ? undefined : operation.summary);
  c.text(operation.description);
  const params = [...(Array.isArray(pathParameters) ? pathParameters : []), ...(Array.isArray(operation.parameters) ? operation.parameters : [])];
  for (const p of params.slice(0, 200)) c.parameter(p);
  c.content(operation.requestBody);
  if (isObject(operation.responses)) {
    // Successful answers only (else `default`): their fields are what readers look for ("which call returns the
    // invoice URL"); error bodies are the same problem details on every operation.
    const codes = Object.keys(operation.responses);
    const success = codes.filter((code) => /^2/.test(code));
    for (const code of (success.length ? success : codes.filter((code) => code === "default")).slice(0, 10)) c.response(operation.responses[code]);
  }
  const method = summary.method.toUpperCase();
  const title = (summary.summary && plainText(summary.summary, 300)) || summary.operationId || `${method} ${summary.path}`;
  const tag = summary.tags[0];
  return {
    id: operationDocId(src.api, summary.slug),
    kind: "operation",
    title,
    section: tag,
    body: [...c.texts, ...(c.returned.size ? [`Returns ${[...c.returned].join(", ")}`] : [])].join("\n"),
    fields: {
      path: summary.path,
      method,
      operationId: summary.operationId,
      tag,
      parameters: [...c.parameters],
      properties: [...c.properties],
      enums: [...c.enums],
      ...tagContext(src.tags, tag, Math.min(CONTEXT_CHARS, Math.floor((src.walk ?? SCHEMA_WALK).bodyChars / 3))),
    },
    url: operationUrl("", { slug: src.api, title: "", layout: src.layout as "single-page" }, src.version, summary.slug),
    locale: src.locale,
    labels: [],
    policyPath: `/reference/${src.api}/`,
    api: src.api,
    version: src.version,
  };
}
