// SearchDocuments from GitHub's REST description (@octokit/openapi), made roughly as the integration makes them
// from the model: one per operation, with summary, description, method + path, operationId, tag, parameter
// names, request and response property names (top level, $refs resolved) and enum values.
import { readFileSync } from "node:fs";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** Reads the description at `file` and returns its operations as SearchDocuments. */
export function githubDocs(file) {
  const spec = JSON.parse(readFileSync(file, "utf8"));
  const deref = (node, depth = 0) => {
    while (node && node.$ref && depth++ < 20) node = node.$ref.slice(2).split("/").reduce((o, k) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
    return node ?? {};
  };
  const propsOf = (schema, out, enums, depth = 0) => {
    schema = deref(schema);
    if (depth > 2) return;
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) propsOf(part, out, enums, depth + 1);
    if (schema.items) propsOf(schema.items, out, enums, depth + 1);
    if (Array.isArray(schema.enum)) enums.push(...schema.enum.filter((e) => typeof e === "string"));
    for (const [name, p] of Object.entries(schema.properties ?? {})) {
      out.push(name);
      const ps = deref(p);
      if (Array.isArray(ps.enum)) enums.push(...ps.enum.filter((e) => typeof e === "string"));
    }
  };
  const docs = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters = [];
      const enums = [];
      const properties = [];
      for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x) => deref(x))) {
        if (p.name) parameters.push(p.name);
        const s = deref(p.schema);
        if (Array.isArray(s.enum)) enums.push(...s.enum.filter((e) => typeof e === "string"));
      }
      const body = deref(op.requestBody)?.content?.["application/json"]?.schema;
      if (body) propsOf(body, properties, enums);
      for (const code of ["200", "201"]) {
        const schema = deref(op.responses?.[code])?.content?.["application/json"]?.schema;
        if (schema) propsOf(schema, properties, enums);
      }
      docs.push({
        id: op.operationId, kind: "operation", title: op.summary ?? op.operationId, section: op.tags?.[0],
        body: (op.description ?? "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*`>#]/g, ""),
        fields: { path, method: method.toUpperCase(), operationId: op.operationId, tag: op.tags?.[0], parameters, properties: [...new Set(properties)], enums: [...new Set(enums)].slice(0, 200) },
        url: `/p/github/reference/${op.operationId}`, locale: "en", labels: [], api: "github", version: spec.info.version,
      });
    }
  }
  return docs;
}
