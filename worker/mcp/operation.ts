/**
 * @module One operation for machines: the reference model's slice (worker/openapi/model) as structured JSON
 * (parameters, request body, responses, security, servers, one sample) and as Markdown. Schemas are expanded by the
 * same schema views and page budget as operation pages (schema-view, VIEW_BUDGET.maxNodesPerPage): a named schema
 * shown once is `{"sameAs": name}` after, a cycle `{"cycleOf": name}`, and a cut subtree says so (`truncated`).
 * Platform-free: the MCP tools and the Docs API call it with a slice they loaded for a reader allowed to read it.
 */
import { PAGE_WEIGHT, VIEW_BUDGET } from "../openapi/budgets";
import type { OperationSlice } from "../openapi/model/types";
import { createRepeatRegistry, createViewBudget, effectiveParameters, mediaTypeExample, mediaTypesOf, requestBodyOf, responsesOf, viewSchema, type SchemaView } from "../openapi/schema-view";
import type { ViewBudget, RepeatRegistry } from "../openapi/schema-view";

/** A schema as JSON for machines: JSON Schema keywords, plus `sameAs`, `cycleOf`, `truncated` and `omitted` notes. */
export type SchemaJson = Record<string, unknown>;

/** One media type's body: its schema and one example. */
export interface BodyJson {
  mediaType: string;
  schema?: SchemaJson;
  example?: unknown;
  /** Set instead of `example` when the sample is over the page's inline budget. */
  exampleOmitted?: string;
}

/** The structured answer of `get_operation` (and the data behind an operation's Markdown). */
export interface OperationJson {
  api: string;
  version: string;
  operationId: string | null;
  method: string;
  path: string;
  summary: string | null;
  description: string | null;
  deprecated: boolean;
  tags: string[];
  url: string;
  servers: string[];
  security: Record<string, string[]>[];
  parameters: { name: string; in: string; required: boolean; description?: string; schema?: SchemaJson }[];
  requestBody?: { required: boolean; description?: string; content: BodyJson[] };
  responses: { status: string; description?: string; content: BodyJson[] }[];
  /** True when the page budget cut some schema (the operation page shows the same note). */
  truncated: boolean;
}

interface Run {
  budget: ViewBudget;
  truncated: boolean;
}

const KEEP = new Set(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf", "minProperties", "maxProperties"]);

function schemaJson(v: SchemaView, run: Run): SchemaJson {
  const out: SchemaJson = {};
  if (v.name) out.title = v.name;
  else if (v.title) out.title = v.title;
  if (v.types.length === 1) out.type = v.types[0];
  else if (v.types.length > 1) out.type = v.types;
  if (v.format) out.format = v.format;
  if (v.description) out.description = v.description;
  if (v.enum) out.enum = v.enum.map((e) => e.value);
  if (v.const) out.const = v.const.value;
  if (v.default) out.default = v.default.value;
  for (const c of v.constraints ?? []) if (KEEP.has(c.keyword)) out[c.keyword] = c.value;
  if (v.readOnly) out.readOnly = true;
  if (v.writeOnly) out.writeOnly = true;
  if (v.deprecated) out.deprecated = true;
  if (v.cycle) return { ...out, cycleOf: v.cycle.name };
  if (v.unresolved) return { ...out, unresolved: v.unresolved };
  if (v.repeatOf) return { ...out, sameAs: v.repeatOf.name ?? v.repeatLabel ?? "above" };
  if (v.properties?.length) {
    out.properties = Object.fromEntries(v.properties.map((p) => [p.name, schemaJson(p.schema, run)]));
    const required = v.properties.filter((p) => p.required).map((p) => p.name);
    if (required.length) out.required = required;
  }
  if (v.additionalProperties === false) out.additionalProperties = false;
  else if (v.additionalProperties) out.additionalProperties = schemaJson(v.additionalProperties, run);
  if (v.items) out.items = schemaJson(v.items, run);
  if (v.prefixItems) out.prefixItems = v.prefixItems.map((s) => schemaJson(s, run));
  for (const g of v.variants ?? []) {
    out[g.kind === "anyOf" ? "anyOf" : "oneOf"] = g.options.map((o) => ({ ...schemaJson(o.schema, run), ...(o.discriminatorValue !== undefined ? { "x-discriminator-value": o.discriminatorValue } : {}) }));
    if (g.discriminator) out.discriminator = { propertyName: g.discriminator.propertyName };
  }
  if (v.not) out.not = schemaJson(v.not, run);
  if (v.truncated) {
    run.truncated = true;
    out.truncated = v.budgetNote ?? true;
  }
  if (v.omitted) {
    run.truncated = true;
    out.omitted = v.omitted;
  }
  return out;
}

function view(schema: unknown, slice: OperationSlice, mode: "request" | "response" | "any", run: Run, repeats: RepeatRegistry): SchemaView | undefined {
  if (schema === undefined) return undefined;
  return viewSchema(schema, slice.refs, { mode, budget: run.budget, repeats });
}

function bodies(content: unknown, slice: OperationSlice, mode: "request" | "response", run: Run, repeats: RepeatRegistry, sample: { left: number }): BodyJson[] {
  return mediaTypesOf(content, slice.refs).map(([mediaType, media]) => {
    const v = view(media.schema, slice, mode, run, repeats);
    const body: BodyJson = { mediaType, ...(v ? { schema: schemaJson(v, run) } : {}) };
    // One sample per operation, as the issue asks: the request's, else the first success response's.
    if (sample.left > 0) {
      const ex = mediaTypeExample(media, v, slice.refs)[0];
      if (ex && ex.value !== undefined) {
        // Examples past a page's inline budget are not inlined there either (PAGE_WEIGHT; GitHub's emojis/get is 100 KB).
        const size = JSON.stringify(ex.value)?.length ?? 0;
        if (size <= PAGE_WEIGHT.inlineExampleChars) body.example = ex.value;
        else {
          body.exampleOmitted = `example of ${size} characters not shown (over ${PAGE_WEIGHT.inlineExampleChars})`;
          run.truncated = true;
        }
        sample.left--;
      }
    }
    return body;
  });
}

function text(v: unknown): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}

/**
 * The operation of `slice` as structured JSON for a reader, its reader URL `url`. Bounded by the page budget.
 * @param api the API's slug; @param version the version label.
 */
export function operationJson(slice: OperationSlice, where: { api: string; version: string; url: string }): OperationJson {
  // The page's node budget first; an answer still over the pages' weight goal is cut to half the nodes, and again.
  let nodes: number = VIEW_BUDGET.maxNodesPerPage;
  for (;;) {
    const out = operationJsonWithin(slice, where, nodes);
    if (nodes <= MIN_NODES || JSON.stringify(out).length <= MAX_OPERATION_JSON_CHARS) return out;
    nodes = Math.floor(nodes / 2);
  }
}

/** Characters of `get_operation`'s JSON aimed at: the operation pages' own goal (60 KB). */
export const MAX_OPERATION_JSON_CHARS = 60 * 1024;
const MIN_NODES = 200;

function operationJsonWithin(slice: OperationSlice, where: { api: string; version: string; url: string }, nodes: number): OperationJson {
  const run: Run = { budget: createViewBudget(nodes), truncated: false };
  const reqRepeats = createRepeatRegistry();
  const resRepeats = createRepeatRegistry();
  const op = slice.operation;
  const s = slice.summary;
  const sample = { left: 1 };
  const params = effectiveParameters(slice).map((p) => {
    const v = view(p.schema, slice, "request", run, reqRepeats);
    return { name: p.name, in: p.in, required: p.required, ...(text(p.raw.description) ? { description: text(p.raw.description) } : {}), ...(v ? { schema: schemaJson(v, run) } : {}) };
  });
  const rb = requestBodyOf(slice);
  const requestBody = rb ? { required: rb.required === true, ...(text(rb.description) ? { description: text(rb.description) } : {}), content: bodies(rb.content, slice, "request", run, reqRepeats, sample) } : undefined;
  const responses = responsesOf(slice).map(([status, r]) => ({
    status, ...(text(r.description) ? { description: text(r.description) } : {}),
    content: bodies(r.content, slice, "response", run, resRepeats, /^2/.test(status) ? sample : { left: 0 }),
  }));
  const servers = slice.servers.flatMap((x) => (x && typeof x === "object" && typeof (x as { url?: unknown }).url === "string" ? [(x as { url: string }).url] : []));
  return {
    api: where.api, version: where.version, operationId: s.operationId ?? null, method: s.method.toUpperCase(), path: s.path,
    summary: s.summary ?? null, description: text(op.description) ?? null, deprecated: op.deprecated === true,
    tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === "string") : [], url: where.url,
    servers, security: slice.security, parameters: params, ...(requestBody ? { requestBody } : {}), responses, truncated: run.truncated,
  };
}

function fence(value: unknown, indent = 2): string {
  const json = JSON.stringify(value, null, indent) ?? "null";
  // A fence longer than any backtick run inside, so a hostile description cannot close it (CommonMark §4.5).
  const longest = Math.max(2, ...(json.match(/`+/g) ?? []).map((m) => m.length));
  const f = "`".repeat(longest + 1);
  return `${f}json\n${json}\n${f}`;
}

function cell(s: string | undefined): string {
  return (s ?? "").replace(/\s+/g, " ").replace(/\|/g, "\\|");
}

function typeOf(schema: SchemaJson | undefined): string {
  if (!schema) return "";
  const t = Array.isArray(schema.type) ? schema.type.join(" | ") : typeof schema.type === "string" ? schema.type : schema.sameAs ? String(schema.sameAs) : "";
  return schema.format ? `${t} (${schema.format})` : t;
}

/** The operation as Markdown: heading, description, parameters table, bodies with schema and the sample, responses. */
export function operationMarkdown(o: OperationJson): string {
  const out: string[] = [`# ${o.summary ?? `${o.method} ${o.path}`}`, "", `\`${o.method} ${o.path}\`${o.deprecated ? " (deprecated)" : ""}`, ""];
  out.push(`API: ${o.api} ${o.version}${o.operationId ? ` · operationId: \`${o.operationId}\`` : ""}`, "");
  if (o.description) out.push(o.description, "");
  if (o.servers.length) out.push(`Servers: ${o.servers.map((s) => `\`${s}\``).join(", ")}`, "");
  if (o.security.length) out.push(`Security: ${o.security.map((r) => Object.keys(r).join(" + ") || "none").join(" or ")}`, "");
  if (o.parameters.length) {
    out.push("## Parameters", "", "| Name | In | Type | Required | Description |", "|---|---|---|---|---|");
    for (const p of o.parameters) out.push(`| ${cell(p.name)} | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? "yes" : "no"} | ${cell(p.description)} |`);
    out.push("");
  }
  const body = (level: string) => (b: BodyJson) => {
    out.push(`${level} ${b.mediaType}`, "");
    // Schemas compact (they are the bulk), samples indented as a reader would paste them.
    if (b.schema) out.push("Schema:", "", fence(b.schema, 0), "");
    if (b.example !== undefined) out.push("Example:", "", fence(b.example), "");
  };
  if (o.requestBody) {
    out.push("## Request body", "", `${o.requestBody.required ? "Required." : "Optional."}${o.requestBody.description ? ` ${o.requestBody.description}` : ""}`, "");
    o.requestBody.content.forEach(body("###"));
  }
  if (o.responses.length) {
    out.push("## Responses", "");
    for (const r of o.responses) {
      out.push(`### ${r.status}${r.description ? `: ${r.description.split("\n")[0]}` : ""}`, "");
      r.content.forEach(body("####"));
    }
  }
  if (o.truncated) out.push("_Some schemas are cut by the page budget, as on the operation page._", "");
  out.push(`Reference page: ${o.url}`, "");
  return out.join("\n");
}
