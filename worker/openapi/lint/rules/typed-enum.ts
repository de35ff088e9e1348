/** @module typed-enum: every `enum` value has the schema's `type` (3.0 `nullable` / 2.0 `x-nullable` admit null). */

import { ALL_VERSIONS, defineNodeRule } from "../define";
import { printValue } from "../util/truthy";

function dataType(value: unknown, integers: boolean): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return integers && Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

export const typedEnum = defineNodeRule({
  id: "typed-enum",
  scope: "node",
  severity: "warning",
  description: "Enum values must respect the specified type.",
  formats: ALL_VERSIONS,
  create: () => ({
    keys: ["enum"],
    object(node, ctx) {
      const { enum: values } = node;
      let type = node.type;
      if (!values || !type || !Array.isArray(values)) return;
      if (!(typeof type === "string" || (Array.isArray(type) && type.every((t) => typeof t === "string")))) return;
      if ((node.nullable === true && ctx.version === "3.0") || (node["x-nullable"] === true && ctx.version === "2.0")) {
        type = Array.isArray(type) ? [...type, "null"] : [type, "null"];
      }
      const types = type as string | string[];
      const integers = types === "integer" || (Array.isArray(types) && types.includes("integer"));
      values.forEach((value, i) => {
        const actual = dataType(value, integers);
        if (actual === types || (Array.isArray(types) && types.includes(actual))) return;
        ctx.report(`Enum value ${printValue(value)} must be "${String(types)}".`, ["enum", i]);
      });
    },
  }),
});
