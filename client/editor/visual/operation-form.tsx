/** @module An operation (or webhook operation): identity, parameters, request body and responses. */
import { useState } from "preact/hooks";
import { fromPointer, toPointer } from "../pointer";
import { CheckField, EditButton, ListField, SelectField, TextField } from "./fields";
import { useForm } from "./form-context";
import { SchemaRef } from "./schema-ref";
import { Constraints } from "./schema-form";
import { METHODS_FOR_FORMS } from "../methods";
import { MediaExamples } from "./examples-form";
import { SecurityRequirements, schemesPointer } from "./security-form";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const key = (k: string) => toPointer([k]);

const PARAMETER_PLACES = ["query", "path", "header", "cookie"];
const PARAMETER_PLACES_V2 = ["query", "path", "header", "body", "formData"];
const TYPES = ["string", "integer", "number", "boolean", "array", "object"];

export function OperationForm({ pointer }: { pointer: string }) {
  const { model, session } = useForm();
  const op = obj(model.values[pointer]);
  const v2 = model.specVersion === "2.0";
  const parameters = Array.isArray(op.parameters) ? (op.parameters as unknown[]) : [];
  const responses = obj(op.responses);
  const [newCode, setNewCode] = useState("");
  return (
    <div class="ed-form-grid">
      <TextField label="Operation ID" pointer={`${pointer}/operationId`} value={op.operationId} />
      <TextField label="Summary" pointer={`${pointer}/summary`} value={op.summary} />
      <TextField label="Description (Markdown)" pointer={`${pointer}/description`} value={op.description} multiline />
      <ListField label="Tags" pointer={`${pointer}/tags`} value={op.tags} placeholder="pets, store" />
      <CheckField label="Deprecated" pointer={`${pointer}/deprecated`} value={op.deprecated} />

      <h3>Security</h3>
      <SecurityRequirements pointer={`${pointer}/security`} value={op.security} schemes={Object.keys(obj(model.values[schemesPointer(model.specVersion)]))} />

      <h3>Parameters</h3>
      {parameters.map((raw, i) => {
        const p = obj(raw);
        const base = `${pointer}/parameters/${i}`;
        return (
          <fieldset key={i} class="ed-item">
            <legend>{typeof p.$ref === "string" ? "Reference" : `${String(p.name ?? "?")} (${String(p.in ?? "?")})`}</legend>
            {typeof p.$ref === "string" ? (
              <TextField label="$ref" pointer={`${base}/$ref`} value={p.$ref} />
            ) : (
              <>
                <TextField label="Name" pointer={`${base}/name`} value={p.name} />
                <SelectField label="In" pointer={`${base}/in`} value={p.in} options={v2 ? PARAMETER_PLACES_V2 : PARAMETER_PLACES} />
                <CheckField label="Required" pointer={`${base}/required`} value={p.required} />
                <TextField label="Description" pointer={`${base}/description`} value={p.description} />
                {v2 && p.in !== "body" ? (
                  <SelectField label="Type" pointer={`${base}/type`} value={p.type} options={TYPES} />
                ) : v2 ? (
                  <SchemaRef label="Schema" pointer={`${base}/schema`} schema={p.schema} />
                ) : obj(p.schema).$ref ? (
                  <SchemaRef label="Schema" pointer={`${base}/schema`} schema={p.schema} />
                ) : (
                  <>
                    <SelectField label="Type" pointer={`${base}/schema/type`} value={obj(p.schema).type} options={TYPES} />
                    <Constraints pointer={`${base}/schema`} s={obj(p.schema)} />
                  </>
                )}
                {!v2 && <MediaExamples pointer={base} media={p} />}
              </>
            )}
            <EditButton label="Remove parameter" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(base) })} />
          </fieldset>
        );
      })}
      <EditButton
        label="Add parameter"
        onClick={() => void session.structural({ op: "append", path: fromPointer(`${pointer}/parameters`), value: v2 ? { name: "param", in: "query", type: "string" } : { name: "param", in: "query", schema: { type: "string" } } })}
      />

      {!v2 && <RequestBody pointer={`${pointer}/requestBody`} body={op.requestBody} />}
      {!v2 && !pointer.includes("/callbacks/") && <Callbacks pointer={`${pointer}/callbacks`} callbacks={obj(op.callbacks)} />}

      <h3>Responses</h3>
      {Object.entries(responses).map(([code, raw]) => {
        const r = obj(raw);
        const base = `${pointer}/responses${key(code)}`;
        return (
          <fieldset key={code} class="ed-item">
            <legend>{code}</legend>
            {typeof r.$ref === "string" ? <TextField label="$ref" pointer={`${base}/$ref`} value={r.$ref} /> : <TextField label="Description" pointer={`${base}/description`} value={r.description} />}
            {v2 && r.schema !== undefined && <SchemaRef label="Schema" pointer={`${base}/schema`} schema={r.schema} />}
            {Object.entries(obj(r.content)).map(([media, m]) => (
              <div key={media} class="ed-media">
                <SchemaRef label={media} pointer={`${base}/content${key(media)}/schema`} schema={obj(m).schema} />
                <MediaExamples pointer={`${base}/content${key(media)}`} media={obj(m)} />
              </div>
            ))}
            <EditButton label="Remove response" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(base) })} />
          </fieldset>
        );
      })}
      <div class="ed-inline">
        <input aria-label="New response code" placeholder="404" value={newCode} size={8} onInput={(e) => setNewCode(e.currentTarget.value)} />
        <EditButton
          label="Add response"
          onClick={() => {
            const code = newCode.trim();
            if (!/^([1-5][0-9X]{2}|default)$/.test(code)) return;
            void session.structural({ op: "set", path: [...fromPointer(pointer), "responses", code], value: { description: "Describe this response" } });
            setNewCode("");
          }}
        />
      </div>
      <p>
        <EditButton label="Delete operation" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(pointer) })} />
      </p>
    </div>
  );
}

function RequestBody({ pointer, body }: { pointer: string; body: unknown }) {
  const { session } = useForm();
  if (body === undefined) {
    return (
      <>
        <h3>Request body</h3>
        <EditButton label="Add request body" onClick={() => void session.structural({ op: "set", path: fromPointer(pointer), value: { required: true, content: { "application/json": { schema: { type: "object" } } } } })} />
      </>
    );
  }
  const b = obj(body);
  return (
    <>
      <h3>Request body</h3>
      {typeof b.$ref === "string" ? (
        <TextField label="$ref" pointer={`${pointer}/$ref`} value={b.$ref} />
      ) : (
        <>
          <TextField label="Description" pointer={`${pointer}/description`} value={b.description} />
          <CheckField label="Required" pointer={`${pointer}/required`} value={b.required} />
          {Object.entries(obj(b.content)).map(([media, m]) => (
            <div key={media} class="ed-media">
              <SchemaRef label={media} pointer={`${pointer}/content${key(media)}/schema`} schema={obj(m).schema} />
              <MediaExamples pointer={`${pointer}/content${key(media)}`} media={obj(m)} />
            </div>
          ))}
        </>
      )}
      <EditButton label="Remove request body" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(pointer) })} />
    </>
  );
}

const CALLBACK_METHODS = ["post", "put", "patch", "get", "delete"];

/**
 * An operation's callbacks: each named callback maps runtime expressions (`{$request.body#/callbackUrl}`) to path
 * items whose operations open in their own form (the Callbacks group of the navigation).
 * @see https://spec.openapis.org/oas/v3.2#callback-object
 */
function Callbacks({ pointer, callbacks }: { pointer: string; callbacks: Obj }) {
  const { session, navigate } = useForm();
  const [name, setName] = useState("");
  const [expression, setExpression] = useState("{$request.body#/callbackUrl}");
  const [method, setMethod] = useState("post");
  return (
    <>
      <h3>Callbacks</h3>
      {Object.entries(callbacks).map(([cbName, raw]) => {
        const cb = obj(raw);
        const base = `${pointer}${key(cbName)}`;
        return (
          <fieldset key={cbName} class="ed-item" data-callback={cbName}>
            <legend>{cbName}</legend>
            {typeof cb.$ref === "string" ? (
              <TextField label="$ref" pointer={`${base}/$ref`} value={cb.$ref} />
            ) : (
              Object.entries(cb).map(([expr, item]) => (
                <p key={expr}>
                  <code>{expr}</code>{" "}
                  {Object.keys(obj(item))
                    .filter((m) => (METHODS_FOR_FORMS as readonly string[]).includes(m))
                    .map((m) => (
                      <button key={m} type="button" class="ed-link" onClick={() => navigate(`${base}${key(expr)}/${m}`)}>
                        Open {m.toUpperCase()}
                      </button>
                    ))}
                </p>
              ))
            )}
            <EditButton label={`Remove callback ${cbName}`} danger onClick={() => void session.structural({ op: "delete", path: fromPointer(base) })} />
          </fieldset>
        );
      })}
      <div class="ed-inline">
        <input aria-label={`Name of a new callback of ${pointer}`} placeholder="statusChanged" value={name} size={14} onInput={(e) => setName(e.currentTarget.value)} />
        <input aria-label={`Expression of a new callback of ${pointer}`} value={expression} size={28} onInput={(e) => setExpression(e.currentTarget.value)} />
        <select aria-label={`Method of a new callback of ${pointer}`} value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
          {CALLBACK_METHODS.map((m) => (
            <option key={m} value={m}>{m}</option>
          ))}
        </select>
        <EditButton
          label="Add callback"
          onClick={() => {
            const n = name.trim();
            const x = expression.trim();
            if (!/^[A-Za-z0-9._-]+$/.test(n) || !x || n in callbacks) return;
            void session.structural({ op: "set", path: [...fromPointer(pointer), n], value: { [x]: { [method]: { summary: "Describe this callback", responses: { "200": { description: "OK" } } } } } });
            setName("");
          }}
        />
      </div>
    </>
  );
}
