/** @module Adding an operation (path + method) or a component schema from the Visual view's navigation. */
import { useState } from "preact/hooks";
import { toPointer } from "../pointer";
import { METHODS_FOR_FORMS } from "../methods";
import { useForm } from "./form-context";

export function AddEntry() {
  const { session, model, navigate } = useForm();
  const [path, setPath] = useState("/");
  const [method, setMethod] = useState("get");
  const [schema, setSchema] = useState("");
  const v2 = model.specVersion === "2.0";
  const schemasPath = v2 ? ["definitions"] : ["components", "schemas"];
  const addOperation = async () => {
    if (!/^\/\S*$/.test(path)) return;
    const value = { summary: "New operation", operationId: `${method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`, responses: { "200": { description: "OK" } } };
    if (await session.structural({ op: "set", path: ["paths", path, method], value })) navigate(toPointer(["paths", path, method]));
  };
  const addSchema = async () => {
    const name = schema.trim();
    if (!/^[A-Za-z0-9._-]+$/.test(name)) return;
    if (await session.structural({ op: "set", path: [...schemasPath, name], value: { type: "object", properties: {} } })) navigate(toPointer([...schemasPath, name]));
    setSchema("");
  };
  return (
    <div class="ed-add">
      <h4>Add</h4>
      <div class="ed-inline">
        <select aria-label="Method of the new operation" value={method} onChange={(e) => setMethod(e.currentTarget.value)}>
          {METHODS_FOR_FORMS.filter((m) => m !== "query" || model.specVersion === "3.2").map((m) => (
            <option key={m} value={m}>{m.toUpperCase()}</option>
          ))}
        </select>
        <input aria-label="Path of the new operation" value={path} onInput={(e) => setPath(e.currentTarget.value)} />
        <button type="button" onClick={() => void addOperation()}>Add</button>
      </div>
      <div class="ed-inline">
        <input aria-label="Name of the new schema" placeholder="SchemaName" value={schema} onInput={(e) => setSchema(e.currentTarget.value)} />
        <button type="button" onClick={() => void addSchema()}>Add schema</button>
      </div>
    </div>
  );
}
