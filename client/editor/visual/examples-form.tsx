/**
 * @module Named examples of a media type (a request body's or a response's `content.<media>.examples`): summary,
 * description and the example itself, as `value`, or in OpenAPI 3.2 as `dataValue` (the data) and/or
 * `serializedValue` (the wire form), or as an `externalValue` URL. Text values are edited as text; numbers,
 * booleans, objects and arrays as JSON, written back when the JSON parses.
 * @see https://spec.openapis.org/oas/v3.2#example-object
 */
import { useState } from "preact/hooks";
import { fromPointer, isWithin, toPointer } from "../pointer";
import { Badge, EditButton, TextField } from "./fields";
import { useForm } from "./form-context";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const key = (k: string) => toPointer([k]);

export function MediaExamples({ pointer, media }: { pointer: string; media: Obj }) {
  // (Parameters and headers hold `examples` the same way: `media` is any object with an `examples` map.)
  const { session, model } = useForm();
  const v32 = model.specVersion === "3.2";
  const examples = obj(media.examples);
  const [name, setName] = useState("");
  if (model.specVersion === "2.0") return null;
  return (
    <div class="ed-examples" data-examples={pointer}>
      <span class="ed-label">Examples</span>
      {Object.entries(examples).map(([exampleName, raw]) => {
        const ex = obj(raw);
        const base = `${pointer}/examples${key(exampleName)}`;
        return (
          <fieldset key={exampleName} class="ed-sub" data-example={exampleName}>
            <legend>{exampleName}</legend>
            {typeof ex.$ref === "string" ? (
              <TextField label="$ref" pointer={`${base}/$ref`} value={ex.$ref} />
            ) : (
              <>
                <TextField label="Summary" pointer={`${base}/summary`} value={ex.summary} />
                <TextField label="Description (Markdown)" pointer={`${base}/description`} value={ex.description} multiline />
                {("value" in ex || !(v32 && ("dataValue" in ex || "serializedValue" in ex)) && !("externalValue" in ex)) && <ValueField label="Value" pointer={`${base}/value`} value={ex.value} />}
                {v32 && "dataValue" in ex && <ValueField label="Data value" pointer={`${base}/dataValue`} value={ex.dataValue} />}
                {v32 && "serializedValue" in ex && <TextField label="Serialized value" pointer={`${base}/serializedValue`} value={ex.serializedValue} multiline />}
                {"externalValue" in ex && <TextField label="External value (URL)" pointer={`${base}/externalValue`} value={ex.externalValue} />}
              </>
            )}
            <EditButton label={`Remove example ${exampleName}`} danger onClick={() => void session.structural({ op: "delete", path: fromPointer(base) })} />
          </fieldset>
        );
      })}
      <div class="ed-inline">
        <input aria-label={`Name of a new example of ${pointer}`} placeholder="success" value={name} size={14} onInput={(e) => setName(e.currentTarget.value)} />
        <EditButton
          label="Add example"
          onClick={() => {
            const n = name.trim();
            if (!/^[A-Za-z0-9._-]+$/.test(n) || n in examples) return;
            void session.structural({ op: "set", path: [...fromPointer(pointer), "examples", n], value: { summary: "Describe this example", [v32 ? "dataValue" : "value"]: {} } });
            setName("");
          }}
        />
      </div>
    </div>
  );
}

/**
 * An example's value: text edited as text (written on every keystroke, as other text fields); anything else
 * as JSON in a text area, written when it parses (on leaving the field), else marked invalid and left unwritten.
 */
function ValueField({ label, pointer, value }: { label: string; pointer: string; value: unknown }) {
  const { session, problemsByField } = useForm();
  const [local, setLocal] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  if (typeof value === "string") return <TextField label={label} pointer={pointer} value={value} multiline={value.includes("\n")} />;
  const shown = local ?? (value === undefined ? "" : JSON.stringify(value, null, 2));
  const commit = () => {
    if (local === null) return;
    const text = local.trim();
    setLocal(null);
    if (text === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setError(`Not JSON: ${e instanceof Error ? e.message : String(e)}`);
      setLocal(local);
      return;
    }
    setError(undefined);
    if (JSON.stringify(parsed) !== JSON.stringify(value)) void session.structural({ op: "set", path: fromPointer(pointer), value: parsed });
  };
  // An example's problems sit on the value or inside it (`…/value/items/0/id`): all show on this field.
  const problems = [...problemsByField].filter(([p]) => isWithin(p, pointer)).flatMap(([, list]) => list);
  return (
    <div class={`ed-field${problems?.length || error ? " ed-has-problems" : ""}`}>
      <span class="ed-label">
        {label} (JSON) <Badge problems={problems} />
      </span>
      <textarea
        data-pointer={pointer}
        aria-label={label}
        aria-invalid={error !== undefined}
        rows={Math.min(12, Math.max(3, shown.split("\n").length + 1))}
        value={shown}
        onInput={(e) => setLocal(e.currentTarget.value)}
        onBlur={commit}
      />
      {error && <span class="ed-error" role="alert">{error}</span>}
    </div>
  );
}
