/**
 * @module Which members hold data (examples, defaults, enums) rather than description, so a `$ref` written
 * inside them is a value, not a reference. `default`, `example`, `enum` and `const` are keywords only where
 * their container is an object with fixed fields; under a map of names (`properties`, `responses`,
 * `examples`, component sections...) they are just names, like the `default` response.
 */

const DATA_KEYWORDS = new Set(["example", "default", "enum", "const"]);

/** Containers whose keys are names chosen by the author. */
const NAME_MAPS = new Set([
  "properties", "patternProperties", "dependentSchemas", "$defs", "definitions",
  "responses", "examples", "headers", "links", "callbacks", "encoding", "content", "variables", "mapping", "scopes",
  "schemas", "parameters", "requestBodies", "securitySchemes", "securityDefinitions", "pathItems", "mediaTypes",
  "webhooks", "paths",
]);

/**
 * True when member `key` (with `value`) of a container is data. `ownKey` is the container's key in its parent,
 * `parentKey` the parent's key in the grandparent.
 */
export function isDataMember(key: string, value: unknown, ownKey: unknown, parentKey: unknown): boolean {
  if (DATA_KEYWORDS.has(key)) return !NAME_MAPS.has(String(ownKey));
  // JSON Schema `examples` is an array of instances; an Example Object's `value` is an instance.
  if (key === "examples") return Array.isArray(value);
  if (key === "value" || key === "dataValue") return parentKey === "examples";
  return false;
}
