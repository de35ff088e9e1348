/** @module Servers (OpenAPI 3.x `servers` with variables; Swagger 2.0 `host`, `basePath`, `schemes`). */
import { fromPointer, toPointer } from "../pointer";
import { EditButton, ListField, TextField } from "./fields";
import { useForm } from "./form-context";
import { useState } from "preact/hooks";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

export function ServersForm() {
  const { model, session } = useForm();
  if (model.specVersion === "2.0") {
    return (
      <div class="ed-form-grid">
        <TextField label="Host" pointer="/host" value={model.values["/host"]} placeholder="api.example.com" />
        <TextField label="Base path" pointer="/basePath" value={model.values["/basePath"]} placeholder="/v1" />
        <ListField label="Schemes" pointer="/schemes" value={model.values["/schemes"]} placeholder="https" />
      </div>
    );
  }
  const servers = Array.isArray(model.values["/servers"]) ? (model.values["/servers"] as unknown[]) : [];
  return (
    <div>
      {servers.length === 0 && <p>No servers: readers cannot try requests until one is added.</p>}
      {servers.map((raw, i) => {
        const server = obj(raw);
        const base = `/servers/${i}`;
        const variables = obj(server.variables);
        return (
          <fieldset key={i} class="ed-item">
            <legend>Server {i + 1}</legend>
            <TextField label="URL" pointer={`${base}/url`} value={server.url} />
            <TextField label="Description" pointer={`${base}/description`} value={server.description} />
            {Object.entries(variables).map(([name, rawVar]) => {
              const v = obj(rawVar);
              const vp = `${base}/variables/${toPointer([name]).slice(1)}`;
              return (
                <fieldset key={name} class="ed-sub">
                  <legend>Variable {`{${name}}`}</legend>
                  <TextField label="Default" pointer={`${vp}/default`} value={v.default} />
                  <ListField label="Allowed values" pointer={`${vp}/enum`} value={v.enum} />
                  <TextField label="Description" pointer={`${vp}/description`} value={v.description} />
                  <EditButton label={`Remove variable ${name}`} danger onClick={() => void session.structural({ op: "delete", path: [...fromPointer(base), "variables", name] })} />
                </fieldset>
              );
            })}
            <AddVariable base={base} variables={variables} />
            <EditButton label="Remove server" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(base) })} />
          </fieldset>
        );
      })}
      <EditButton label="Add server" onClick={() => void session.structural({ op: "append", path: ["servers"], value: { url: "https://api.example.com" } })} />
    </div>
  );
}

/** Adds a server variable (a `{name}` of the URL): the default is required (OpenAPI 3.x Server Variable Object). */
function AddVariable({ base, variables }: { base: string; variables: Obj }) {
  const { session } = useForm();
  const [name, setName] = useState("");
  return (
    <div class="ed-inline">
      <input aria-label={`New variable of ${base}`} placeholder="region" value={name} size={12} onInput={(e) => setName(e.currentTarget.value)} />
      <EditButton
        label="Add variable"
        onClick={() => {
          const n = name.trim();
          if (!n || n in variables) return;
          void session.structural({ op: "set", path: [...fromPointer(base), "variables", n], value: { default: "" } });
          setName("");
        }}
      />
    </div>
  );
}
