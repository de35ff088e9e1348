/** @module General: the `info` object (title, version, description, contact, license). */
import { fromPointer } from "../pointer";
import { EditButton, TextField } from "./fields";
import { useForm } from "./form-context";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

export function GeneralForm() {
  const { model, session } = useForm();
  const info = obj(model.values["/info"]);
  const contact = obj(info.contact);
  const license = obj(info.license);
  const v31 = model.specVersion === "3.1" || model.specVersion === "3.2";
  if (model.values["/info"] === undefined) {
    return (
      <div>
        <p>This definition has no <code>info</code> object.</p>
        <EditButton label="Add info" onClick={() => void session.structural({ op: "set", path: fromPointer("/info"), value: { title: "Untitled API", version: "0.1.0" } })} />
      </div>
    );
  }
  return (
    <div class="ed-form-grid">
      <TextField label="Title" pointer="/info/title" value={info.title} />
      <TextField label="Version" pointer="/info/version" value={info.version} />
      {v31 && <TextField label="Summary" pointer="/info/summary" value={info.summary} />}
      <TextField label="Description (Markdown)" pointer="/info/description" value={info.description} multiline />
      <TextField label="Terms of service URL" pointer="/info/termsOfService" value={info.termsOfService} />
      <fieldset>
        <legend>Contact</legend>
        <TextField label="Name" pointer="/info/contact/name" value={contact.name} />
        <TextField label="Email" pointer="/info/contact/email" value={contact.email} />
        <TextField label="URL" pointer="/info/contact/url" value={contact.url} />
      </fieldset>
      <fieldset>
        <legend>License</legend>
        <TextField label="Name" pointer="/info/license/name" value={license.name} />
        {v31 && <TextField label="SPDX identifier" pointer="/info/license/identifier" value={license.identifier} />}
        <TextField label="URL" pointer="/info/license/url" value={license.url} />
      </fieldset>
    </div>
  );
}
