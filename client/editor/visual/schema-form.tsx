/**
 * @module A component schema as a tree: type, format and description of every node, properties (with their
 * `required` flag), array items and composition branches, each editable; `$ref`s link to their schema.
 */
import { useEffect, useState } from "preact/hooks";
import { fromPointer, toPointer } from "../pointer";
import { Badge, CheckField, EditButton, ListField, NumberField, SelectField, TextField } from "./fields";
import { useForm } from "./form-context";
import { isWithin } from "../pointer";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const TYPES = ["object", "string", "integer", "number", "boolean", "array", "null"];
const COMPOSITION = ["allOf", "oneOf", "anyOf"] as const;

export function SchemaForm({ pointer }: { pointer: string }) {
  const { model } = useForm();
  return (
    <div class="ed-tree" role="tree">
      <SchemaNode pointer={pointer} schema={model.values[pointer]} name={fromPointer(pointer).pop() ?? ""} depth={0} />
    </div>
  );
}

interface NodeProps {
  pointer: string;
  schema: unknown;
  name: string;
  depth: number;
  /** For a property: its parent's pointer and `required` list. */
  parent?: { pointer: string; required: string[] };
}

function SchemaNode({ pointer, schema, name, depth, parent }: NodeProps) {
  const { session, navigate, problemsByField, revealPointer } = useForm();
  const leadsToReveal = revealPointer !== undefined && revealPointer !== pointer && isWithin(revealPointer, pointer);
  const [open, setOpen] = useState(depth === 0 || leadsToReveal);
  useEffect(() => {
    if (leadsToReveal) setOpen(true);
  }, [revealPointer]);
  const s = obj(schema);
  const problems = [...problemsByField].filter(([p]) => isWithin(p, pointer)).flatMap(([, list]) => list);
  const properties = obj(s.properties);
  const required = Array.isArray(s.required) ? s.required.map(String) : [];
  const ref = typeof s.$ref === "string" ? s.$ref : undefined;
  const summary = ref ? `→ ${ref.split("/").pop()}` : Array.isArray(s.type) ? s.type.join(" | ") : String(s.type ?? COMPOSITION.find((k) => k in s) ?? "");
  const hasChildren = Object.keys(properties).length > 0 || s.items !== undefined || COMPOSITION.some((k) => Array.isArray(s[k]));
  return (
    <div class="ed-node" role="treeitem" aria-expanded={open} data-pointer={pointer} tabIndex={-1}>
      <div class="ed-node-head">
        <button type="button" class="ed-twisty" aria-label={open ? "Collapse" : "Expand"} onClick={() => setOpen(!open)}>
          {open ? "▾" : "▸"}
        </button>
        <strong>{name}</strong> <code>{summary}</code> {parent?.required.includes(name) && <span class="ed-req">required</span>}
        {s.deprecated === true && <span class="ed-dep">deprecated</span>} <Badge problems={problems} />
        {!open && typeof s.description === "string" && <span class="ed-muted ed-snippet">{s.description.split("\n")[0]}</span>}
      </div>
      {open && (
        <div class="ed-node-body">
          {ref ? (
            <>
              {ref.startsWith("#/") && <button type="button" class="ed-link" onClick={() => navigate(ref.slice(1))}>Open {ref.split("/").pop()}</button>}
              <TextField label="$ref" pointer={`${pointer}/$ref`} value={ref} />
            </>
          ) : (
            <>
              {Array.isArray(s.type) ? <ListField label="Types" pointer={`${pointer}/type`} value={s.type} /> : <SelectField label="Type" pointer={`${pointer}/type`} value={s.type} options={TYPES} />}
              <TextField label="Format" pointer={`${pointer}/format`} value={s.format} />
              <TextField label="Description" pointer={`${pointer}/description`} value={s.description} multiline />
              <Constraints pointer={pointer} s={s} />
            </>
          )}
          {parent && (
            <RequiredToggle name={name} parent={parent} />
          )}
          {Object.entries(properties).map(([prop, child]) => (
            <SchemaNode key={prop} pointer={`${pointer}/properties${toPointer([prop])}`} schema={child} name={prop} depth={depth + 1} parent={{ pointer, required }} />
          ))}
          {s.items !== undefined && <SchemaNode pointer={`${pointer}/items`} schema={s.items} name="items" depth={depth + 1} />}
          {COMPOSITION.map((k) =>
            Array.isArray(s[k]) ? (s[k] as unknown[]).map((branch, i) => <SchemaNode key={`${k}${i}`} pointer={`${pointer}/${k}/${i}`} schema={branch} name={`${k}[${i}]`} depth={depth + 1} />) : null,
          )}
          {!ref && (s.type === "object" || (s.properties !== undefined && !hasChildren) || Object.keys(properties).length > 0) && (
            <EditButton label="Add property" onClick={() => void session.structural({ op: "set", path: [...fromPointer(pointer), "properties", freeName(properties)], value: { type: "string" } })} />
          )}
          {parent && <EditButton label="Remove property" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(pointer) })} />}
        </div>
      )}
    </div>
  );
}

/**
 * The validation keywords of the node's type(s): numeric bounds, string lengths and pattern, array and object
 * sizes; enum (numbers written as numbers for numeric types) and `deprecated`. 2.0 and 3.0 write exclusive
 * bounds as booleans beside `minimum`/`maximum`, 3.1 and 3.2 as numbers (JSON Schema 2020-12).
 */
export function Constraints({ pointer, s }: { pointer: string; s: Obj }) {
  const { model } = useForm();
  const types = Array.isArray(s.type) ? s.type.map(String) : typeof s.type === "string" ? [s.type] : [];
  const numeric = types.includes("integer") || types.includes("number");
  const draft2020 = model.specVersion === "3.1" || model.specVersion === "3.2";
  const at = (k: string) => `${pointer}/${k}`;
  return (
    <>
      {numeric && (
        <div class="ed-constraints" data-constraints="number">
          <NumberField label="Minimum" pointer={at("minimum")} value={s.minimum} />
          <NumberField label="Maximum" pointer={at("maximum")} value={s.maximum} />
          {draft2020 ? (
            <>
              <NumberField label="Exclusive minimum" pointer={at("exclusiveMinimum")} value={s.exclusiveMinimum} />
              <NumberField label="Exclusive maximum" pointer={at("exclusiveMaximum")} value={s.exclusiveMaximum} />
            </>
          ) : (
            <>
              <CheckField label="Exclusive minimum" pointer={at("exclusiveMinimum")} value={s.exclusiveMinimum} />
              <CheckField label="Exclusive maximum" pointer={at("exclusiveMaximum")} value={s.exclusiveMaximum} />
            </>
          )}
          <NumberField label="Multiple of" pointer={at("multipleOf")} value={s.multipleOf} />
        </div>
      )}
      {types.includes("string") && (
        <div class="ed-constraints" data-constraints="string">
          <NumberField label="Minimum length" pointer={at("minLength")} value={s.minLength} />
          <NumberField label="Maximum length" pointer={at("maxLength")} value={s.maxLength} />
          <TextField label="Pattern" pointer={at("pattern")} value={s.pattern} placeholder="^[A-Z]{3}$" />
        </div>
      )}
      {types.includes("array") && (
        <div class="ed-constraints" data-constraints="array">
          <NumberField label="Minimum items" pointer={at("minItems")} value={s.minItems} />
          <NumberField label="Maximum items" pointer={at("maxItems")} value={s.maxItems} />
          <CheckField label="Unique items" pointer={at("uniqueItems")} value={s.uniqueItems} />
        </div>
      )}
      {types.includes("object") && (
        <div class="ed-constraints" data-constraints="object">
          <NumberField label="Minimum properties" pointer={at("minProperties")} value={s.minProperties} />
          <NumberField label="Maximum properties" pointer={at("maxProperties")} value={s.maxProperties} />
        </div>
      )}
      {(types.length > 0 || s.enum !== undefined) && <ListField label="Enum" pointer={at("enum")} value={s.enum} numeric={numeric} placeholder="allowed values, comma-separated" />}
      {model.specVersion !== "2.0" && <CheckField label="Deprecated" pointer={at("deprecated")} value={s.deprecated} />}
    </>
  );
}

function RequiredToggle({ name, parent }: { name: string; parent: { pointer: string; required: string[] } }) {
  const { session } = useForm();
  const on = parent.required.includes(name);
  return (
    <label class="ed-field">
      <span class="ed-label">Required</span>
      <input
        type="checkbox"
        checked={on}
        onChange={() => {
          const next = on ? parent.required.filter((r) => r !== name) : [...parent.required, name];
          const path = [...fromPointer(parent.pointer), "required"];
          void session.structural(next.length ? { op: "set", path, value: next } : { op: "delete", path });
        }}
      />
    </label>
  );
}

function freeName(properties: Obj): string {
  let i = 1;
  while (`newProperty${i}` in properties) i++;
  return `newProperty${i}`;
}
