/** @module Tags: name and Markdown description of each. */
import { fromPointer } from "../pointer";
import { EditButton, TextField } from "./fields";
import { useForm } from "./form-context";

export function TagsForm() {
  const { model, session } = useForm();
  const tags = Array.isArray(model.values["/tags"]) ? (model.values["/tags"] as Record<string, unknown>[]) : [];
  return (
    <div>
      {tags.length === 0 && <p>No tags declared. Operations can still use tags; declare them to describe and order them.</p>}
      {tags.map((tag, i) => (
        <fieldset key={i} class="ed-item">
          <legend>{String(tag?.name ?? `Tag ${i + 1}`)}</legend>
          <TextField label="Name" pointer={`/tags/${i}/name`} value={tag?.name} />
          <TextField label="Description (Markdown)" pointer={`/tags/${i}/description`} value={tag?.description} multiline />
          <EditButton label="Remove tag" danger onClick={() => void session.structural({ op: "delete", path: fromPointer(`/tags/${i}`) })} />
        </fieldset>
      ))}
      <EditButton label="Add tag" onClick={() => void session.structural({ op: "append", path: ["tags"], value: { name: `tag-${tags.length + 1}` } })} />
    </div>
  );
}
