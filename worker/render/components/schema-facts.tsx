/** @module The facts of one schema node: description, enum, const, default, example, constraints, flags. */
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { SchemaView } from "../../openapi/schema-view/types";
import { constraintLabels, literal } from "../format";
import { Code } from "./code";
import { Markdown } from "./markdown";

const ENUM_INLINE_MAX = 40;
/** Most enum values a node shows; the rest are counted ("N more values not shown"). */
const ENUM_SHOWN_MAX = 1_000;

function EnumList({ view }: { view: SchemaView }) {
  const all = view.enum ?? [];
  const values = all.length > ENUM_SHOWN_MAX ? all.slice(0, ENUM_SHOWN_MAX) : all;
  const hidden = all.length - values.length;
  const more = hidden > 0 ? <p class="fa bn" role="note">{hidden} more values not shown</p> : null;
  if (values.some((e) => e.description || e.label)) {
    return (
      <>
      <dl class="en">
        {values.map((e) => (
          <>
            <dt><Code text={literal(e.value)} />{e.label ? ` ${e.label}` : ""}</dt>
            <dd>{e.description ?? ""}</dd>
          </>
        ))}
      </dl>
      {more}
      </>
    );
  }
  const chips = (list: typeof values) => list.map((e, i) => <>{i > 0 ? " " : ""}<Code text={literal(e.value)} /></>);
  const rest = values.slice(ENUM_INLINE_MAX);
  return (
    <>
      <p class="fa"><span class="fl">Allowed:</span> {chips(values.slice(0, ENUM_INLINE_MAX))}</p>
      {/* Long lists fold the rest away, readable without scripts. */}
      {rest.length > 0 && <details><summary>{rest.length} more allowed values</summary><p class="fa">{chips(rest)}</p>{more}</details>}
    </>
  );
}

/**
 * How a schema tree shows facts. Response trees keep only short example chips: the response example beside
 * them already shows every value, and on large APIs long ones (URLs, ids) would double the page.
 */
export const FactsOptions = createContext<{ exampleMax: number }>({ exampleMax: 120 });

/** Longest example literal shown as a chip in response trees. */
export const RESPONSE_EXAMPLE_MAX = 24;

/** Everything a reader needs about one node besides its children. `skipDescription` when the caller shows it. */
export function SchemaFacts({ view, skipDescription }: { view: SchemaView; skipDescription?: boolean }) {
  const chips = constraintLabels(view.constraints);
  // A structured example of a structured schema is shown whole in the examples column, not as a chip.
  const ex = view.examples?.[0];
  const { exampleMax } = useContext(FactsOptions);
  const exText = view.examples !== undefined && !(typeof ex === "object" && ex !== null && (view.properties || view.items || view.variants)) ? literal(ex) : undefined;
  const showExample = exText !== undefined && exText.length <= exampleMax;
  return (
    <>
      {!skipDescription && <Markdown text={view.description} />}
      {view.const && <p class="fa"><span class="fl">Constant:</span> <Code text={literal(view.const.value)} /></p>}
      {view.enum && <EnumList view={view} />}
      {(chips.length > 0 || view.default || showExample || view.contentMediaType) && (
        <p class="f">
          {chips.map((c) => <span>{c}</span>)}
          {view.default && <span>default: <Code text={literal(view.default.value)} /></span>}
          {showExample && <span>example: <Code text={exText} /></span>}
          {view.contentMediaType && <span>content: {view.contentMediaType}{view.contentEncoding ? ` (${view.contentEncoding})` : ""}</span>}
        </p>
      )}
      {view.conflicts && (
        <div class="cf" role="note">
          <strong>allOf conflict:</strong>
          <ul>
            {view.conflicts.map((c) => (
              <li>
                <code>{c.keyword}</code> is {c.values.map((v, i) => <>{i > 0 ? " vs " : ""}<code>{literal(v, 60)}</code></>)}
                {c.effective !== undefined ? <> (applies: <code>{literal(c.effective, 60)}</code>)</> : " (no value satisfies all parts)"}
              </li>
            ))}
          </ul>
        </div>
      )}
      {view.unresolved && <p class="cf" role="note">Unresolved reference <code>{view.unresolved}</code></p>}
      {view.budgetNote && <p class="fa bn" role="note">{view.budgetNote}</p>}
    </>
  );
}

/** Badges after the type: format, required, read/write only, deprecated, nullable is in the type itself. */
/**
 * What an array says about its items when the items have no children of their own (`array of string` with an
 * enum, a format, a pattern, bounds): shown under the array's own facts, since no nested tree will show them.
 */
export function ItemFacts({ view }: { view: SchemaView }) {
  const items = view.items;
  if (!items || items.cycle || items.repeatOf || items.properties || items.items || items.variants || items.prefixItems) return null;
  const said = items.format || items.enum || items.const || items.default || items.examples || items.description || (items.constraints?.length ?? 0) > 0;
  if (!said) return null;
  return (
    <div class="itf">
      <p class="fa"><span class="fl">Items:</span> <i>{items.types.join(" | ") || "any"}</i> <SchemaBadges view={items} /></p>
      <SchemaFacts view={items} />
    </div>
  );
}

export function SchemaBadges({ view, required }: { view: SchemaView; required?: boolean }) {
  return (
    <>
      {view.format && <small>{view.format}</small>}
      {required && <b>required</b>}
      {view.readOnly && <span class="bd">read-only</span>}
      {view.writeOnly && <span class="bd">write-only</span>}
      {view.deprecated && <span class="bd dp">deprecated</span>}
    </>
  );
}
