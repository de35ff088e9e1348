/** @module A schema in an operation: a link to the component it references, or its type. */
import { Badge } from "./fields";
import { useForm } from "./form-context";
import { isWithin } from "../pointer";

/** Shows `schema` compactly; a local `$ref` to a component schema opens that schema's tree. */
export function SchemaRef({ label, pointer, schema }: { label: string; pointer: string; schema: unknown }) {
  const { navigate, problemsByField } = useForm();
  const s = schema && typeof schema === "object" ? (schema as Record<string, unknown>) : {};
  const problems = [...problemsByField].filter(([p]) => isWithin(p, pointer)).flatMap(([, list]) => list);
  const ref = typeof s.$ref === "string" ? s.$ref : undefined;
  const items = s.items && typeof s.items === "object" ? (s.items as Record<string, unknown>) : undefined;
  const itemRef = typeof items?.$ref === "string" ? items.$ref : undefined;
  const target = ref ?? itemRef;
  return (
    <div class="ed-field" data-pointer={pointer} tabIndex={-1}>
      <span class="ed-label">
        {label} <Badge problems={problems} />
      </span>
      {target?.startsWith("#/") ? (
        <button type="button" class="ed-link" onClick={() => navigate(target.slice(1))}>
          {itemRef && !ref ? "array of " : ""}
          {target.split("/").pop()}
        </button>
      ) : (
        <code>{schema === undefined ? "no schema" : String(s.type ?? (s.oneOf ? "oneOf" : s.anyOf ? "anyOf" : s.allOf ? "allOf" : "schema"))}</code>
      )}
    </div>
  );
}
