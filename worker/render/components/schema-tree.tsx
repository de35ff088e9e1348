/**
 * @module The schema viewer: properties as a list, nested objects collapsible (`<details>`), oneOf/anyOf as
 * switchable variants (radio tabs, no script needed), cycles as links back to the first appearance.
 */
import { Fragment, type ComponentChildren } from "preact";
import { bodyOf } from "../../openapi/schema-view/shape";
import type { PropertyView, SchemaView, VariantGroup } from "../../openapi/schema-view/types";
import { BUDGET_NOTES } from "../../openapi/budgets";
import { hasChildren, typeLabel } from "../format";
import type { RenderContext } from "./context";
import { Deferrable, spendRow } from "./defer";
import { ItemFacts, SchemaBadges, SchemaFacts } from "./schema-facts";

function countLabel(shown: SchemaView): string {
  const view = bodyOf(shown);
  const base = view.items && !view.properties ? view.items : view;
  const target = bodyOf(base);
  const n = target.properties?.length ?? 0;
  if (n > 0) return `${n} ${n === 1 ? "property" : "properties"}${target.name ? ` of ${target.name}` : ""}`;
  if (target.variants?.length) return `${target.variants.reduce((a, g) => a + g.options.length, 0)} variants`;
  return "details";
}

function CycleLink({ view }: { view: SchemaView }) {
  const c = view.cycle!;
  return <a class="cy" href={c.anchor ? `#${c.anchor}` : undefined}>↻ {c.name} (recursive, shown above)</a>;
}

/** Stands in for a schema already expanded on the page; scripts expand it in place, without them it is a link. */
function RepeatLink({ view }: { view: SchemaView }) {
  const shown = bodyOf(view);
  const target = shown.anchor;
  return <p class="same"><a href={target ? `#${target}` : undefined} data-same={target}>Same as {shown.name ?? view.repeatLabel ?? view.name} above</a></p>;
}

/** One property (or parameter, or header) row: name, type, badges, facts, then its children behind a toggle. */
export function PropertyRow({ prop, ctx, depth, open, extra }: { prop: PropertyView; ctx: RenderContext; depth: number; open?: boolean; extra?: ComponentChildren }) {
  const v = prop.schema;
  spendRow(ctx, v);
  return (
    <li id={v.anchor}>
      <p class="h">
        <code>{prop.name}</code> <i>{typeLabel(v)}</i>
        {v.name && !v.cycle && !v.types.includes("array") ? <i class="n">{v.name}</i> : null}
        <SchemaBadges view={v} required={prop.required} />
      </p>
      <SchemaFacts view={v} />
      <ItemFacts view={v} />
      {extra}
      {v.cycle && <CycleLink view={v} />}
      {v.items?.cycle && <p class="fa">Items: <CycleLink view={v.items} /></p>}
      {hasChildren(v) && (
        <details open={open}>
          <summary>{countLabel(v)}</summary>
          {v.repeatOf ? <RepeatLink view={v} /> : <Deferrable ctx={ctx} what={countLabel(v)} body={(c) => <SchemaBody view={v} ctx={c} depth={depth + 1} />} />}
        </details>
      )}
    </li>
  );
}

function Variants({ group, ctx, depth }: { group: VariantGroup; ctx: RenderContext; depth: number }) {
  const name = ctx.uid("v");
  const d = group.discriminator;
  return (
    <div class="tabs vr" role="radiogroup" aria-label={group.kind === "anyOf" ? "Any of" : "One of"}>
      <p class="vk">
        {group.kind === "anyOf" ? "Any of" : "One of"}
        {d && <> · discriminator <code>{d.propertyName}</code></>}
      </p>
      {group.options.map((o, i) => (
        <>
          <input type="radio" class="vi" name={name} id={`${name}-${i}`} checked={i === 0} />
          <label for={`${name}-${i}`}>{o.name}{o.discriminatorValue !== undefined && o.discriminatorValue !== o.name ? <small> = {o.discriminatorValue}</small> : null}</label>
          <div class="vp" id={o.schema.anchor}>
            <p class="h"><i>{typeLabel(o.schema)}</i>{o.schema.name ? <i class="n">{o.schema.name}</i> : null}<SchemaBadges view={o.schema} /></p>
            <SchemaFacts view={o.schema} />
            {o.schema.cycle ? <CycleLink view={o.schema} /> : o.schema.repeatOf ? <RepeatLink view={o.schema} /> : hasChildren(o.schema)
              ? <Deferrable ctx={ctx} what={`the ${o.name} variant`} body={(c) => <SchemaBody view={o.schema} ctx={c} depth={depth + 1} />} />
              : <SchemaBody view={o.schema} ctx={ctx} depth={depth + 1} />}
          </div>
        </>
      ))}
      {d && d.mapping.length > 0 && (
        <p class="dm">
          <span class="fl">Mapping:</span> {d.mapping.map((m, i) => <>{i > 0 ? ", " : ""}<code>{m.value}</code> → {m.target.split("/").pop()}</>)}
        </p>
      )}
    </div>
  );
}

/** The children of a node: properties, additional/pattern properties, items, tuple items, variants, `not`. */
export function SchemaBody({ view, ctx, depth }: { view: SchemaView; ctx: RenderContext; depth: number }) {
  if (view.repeatOf) return <RepeatLink view={view} />;
  if (view.cycle || view.truncated) return null;
  const ap = view.additionalProperties;
  const itemsWithChildren = view.items && hasChildren(view.items) ? view.items : undefined;
  // Named bodies carry `data-b` so that a later "same as above" can be expanded in place by cloning this one.
  const Wrap = view.anchor ? ({ children }: { children: ComponentChildren }) => <div data-b={view.anchor}>{children}</div> : Fragment;
  return (
    <Wrap>
      {view.properties && view.properties.length > 0 && (
        <ul class="pr">{view.properties.map((p) => <PropertyRow prop={p} ctx={ctx} depth={depth} />)}</ul>
      )}
      {view.omitted !== undefined && <p class="fa bn" role="note">{BUDGET_NOTES.fieldsNotShown(view.omitted)}</p>}
      {view.patternProperties?.map((pp) => (
        <ul class="pr"><PropertyRow prop={{ name: `/${pp.pattern}/`, required: false, schema: pp.schema }} ctx={ctx} depth={depth} /></ul>
      ))}
      {ap === false && view.properties && <p class="fa">No additional properties.</p>}
      {ap && (ap.types.length > 0 || hasChildren(ap)) && (
        <ul class="pr"><PropertyRow prop={{ name: "additional properties", required: false, schema: ap }} ctx={ctx} depth={depth} /></ul>
      )}
      {view.prefixItems && (
        <ol class="pr">{view.prefixItems.map((it, i) => <PropertyRow prop={{ name: `[${i}]`, required: false, schema: it }} ctx={ctx} depth={depth} />)}</ol>
      )}
      {itemsWithChildren && <>{itemsWithChildren.anchor && <span id={itemsWithChildren.anchor} />}<SchemaBody view={itemsWithChildren} ctx={ctx} depth={depth} /></>}
      {view.variants?.map((g) => <Variants group={g} ctx={ctx} depth={depth} />)}
      {view.not && <div class="nt"><span class="fl">Must not match:</span> <i>{typeLabel(view.not)}</i><SchemaFacts view={view.not} /></div>}
    </Wrap>
  );
}

/** Rows a body shows at its own level (an array's items' properties count as its own). */
function topRows(view: SchemaView): number {
  const shown = bodyOf(view);
  const base = shown.items && !shown.properties ? bodyOf(shown.items) : shown;
  return base.properties?.length ?? 0;
}

/** A whole schema: the root's type line and facts, then its children expanded one level. */
export function SchemaBlock({ view, ctx, title }: { view: SchemaView; ctx: RenderContext; title?: string }) {
  return (
    <div class="sc" id={view.anchor}>
      <p class="h">
        {title && <span class="fl">{title}</span>} <i>{typeLabel(view)}</i>
        {view.name ? <i class="n">{view.name}</i> : null}
        <SchemaBadges view={view} />
      </p>
      <SchemaFacts view={view} />
      <ItemFacts view={view} />
      {view.cycle && <CycleLink view={view} />}
      {hasChildren(view) && !view.repeatOf
        ? <Deferrable ctx={ctx} what={countLabel(view)} rows={topRows(view)} body={(c) => <SchemaBody view={view} ctx={c} depth={0} />} />
        : <SchemaBody view={view} ctx={ctx} depth={0} />}
    </div>
  );
}
