/** @module Parameters grouped by location (path, query, header, cookie; 3.2 querystring). */
import { viewSchema } from "../../openapi/schema-view/build-view";
import type { ResolvedParameter } from "../../openapi/schema-view/operation";
import { deref, isObject } from "../../openapi/schema-view/refs";
import type { SchemaView } from "../../openapi/schema-view/types";
import type { RenderContext } from "./context";
import { H } from "./heading";
import { PropertyRow } from "./schema-tree";

const LOCATION_TITLES: [ResolvedParameter["in"], string][] = [
  ["path", "Path parameters"], ["query", "Query parameters"], ["querystring", "Query string"], ["header", "Header parameters"], ["cookie", "Cookie parameters"],
];

/** The view shown for a parameter: its schema's, with the parameter's own description, flags and example laid over. */
export function parameterView(p: ResolvedParameter, refs: Record<string, unknown>, ctx: RenderContext): SchemaView {
  const view = p.schema === undefined ? { types: [] } : viewSchema(p.schema, refs, { mode: "request", anchorPrefix: ctx.uid("p"), maxNodes: 400, repeats: ctx.repeats, budget: ctx.budget });
  const out: SchemaView = { ...view };
  if (typeof p.raw.description === "string") out.description = p.raw.description;
  if (p.raw.deprecated === true) out.deprecated = true;
  let example: unknown = p.raw.example;
  if (example === undefined && isObject(p.raw.examples)) {
    const first = deref(Object.values(p.raw.examples)[0], refs).value;
    if (isObject(first)) example = first.value ?? first.dataValue;
  }
  if (example !== undefined) out.examples = [example];
  return out;
}

function Serialization({ p }: { p: ResolvedParameter }) {
  const bits: string[] = [];
  if (typeof p.raw.style === "string") bits.push(`style ${p.raw.style}`);
  if (typeof p.raw.explode === "boolean") bits.push(p.raw.explode ? "explode" : "no explode");
  if (p.raw.allowReserved === true) bits.push("reserved characters allowed");
  if (p.raw.allowEmptyValue === true) bits.push("empty value allowed");
  if (p.mediaType) bits.push(`as ${p.mediaType}`);
  return bits.length ? <p class="fa">{bits.map((b) => <span class="ch">{b}</span>)}</p> : null;
}

/** Parameters by location; nothing when the operation has none. */
export function Parameters({ params, views, ctx, idPrefix, hl }: { params: ResolvedParameter[]; views: SchemaView[]; ctx: RenderContext; idPrefix: string; hl: number }) {
  if (params.length === 0) return null;
  return (
    <section class="blk" aria-labelledby={`${idPrefix}parameters`}>
      <H level={hl} id={`${idPrefix}parameters`}>Parameters</H>
      {LOCATION_TITLES.map(([loc, title]) => {
        const group = params.map((p, i) => ({ p, view: views[i] })).filter(({ p }) => p.in === loc);
        if (group.length === 0) return null;
        return (
          <>
            <H level={hl + 1}>{title}</H>
            <ul class="pr">
              {group.map(({ p, view }) => (
                <PropertyRow prop={{ name: p.name, required: p.required, schema: view }} ctx={ctx} depth={0} extra={<Serialization p={p} />} />
              ))}
            </ul>
          </>
        );
      })}
    </section>
  );
}
