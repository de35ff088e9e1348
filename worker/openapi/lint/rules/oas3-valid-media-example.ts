/**
 * @module oas3-valid-media-example: a media type's, parameter's or header's `example` (or else each of its
 * `examples`' `value`, or 3.2 `dataValue`) is valid against its `schema`.
 */

import { defineNodeRule, OAS3 } from "../define";
import type { ExampleMode } from "../examples/prepare-schema";
import { validateExample } from "../examples/validate-example";
import { WalkFlag, type NodeContext } from "../rule";
import { isObject } from "../util/is-object";

/** Spectral relaxes `required` by where the media sits: readOnly in requests, writeOnly in responses. */
export function mediaMode(ctx: NodeContext): ExampleMode {
  return ctx.has(WalkFlag.MediaRequest) ? "request" : ctx.has(WalkFlag.MediaResponse) ? "response" : "schema";
}

export const oas3ValidMediaExample = defineNodeRule({
  id: "oas3-valid-media-example",
  scope: "node",
  severity: "error",
  description: "Examples must be valid against their defined schema.",
  formats: OAS3,
  create: () => ({
    keys: ["schema"],
    object(node, ctx) {
      if (!(ctx.has(WalkFlag.Content) || ctx.has(WalkFlag.Headers) || ctx.has(WalkFlag.Parameters))) return;
      if (!node.schema || (node.example === undefined && !node.examples)) return;
      const schema = ctx.resolve(node.schema);
      if (!isObject(schema)) return;
      const mode = mediaMode(ctx);
      // As Spectral: `example` wins; `examples` are only checked without it.
      if ("example" in node) {
        for (const f of validateExample(node.example, schema, [...ctx.path, "example"], mode, ctx)) ctx.reportAt(f.message, f.path);
        return;
      }
      const examples = ctx.resolveAt(node.examples, [...ctx.path, "examples"]);
      if (!isObject(examples.value)) return;
      for (const key of Object.keys(examples.value)) {
        const example = ctx.resolveAt(examples.value[key], [...examples.path, key]);
        if (!isObject(example.value) || "externalValue" in example.value) continue;
        // 3.2: `dataValue` is the example as data, validated like `value` (4.19.1: it "MUST be valid according to
        // the relevant Schema Object"). `serializedValue` is the serialised form, which no schema describes.
        const field = ctx.version === "3.2" && example.value.value === undefined && "dataValue" in example.value ? "dataValue" : "value";
        const value = example.value[field];
        const at = [...example.path, field];
        if (value === undefined) {
          // A 3.2 example given only as `serializedValue` has no data to validate.
          if (ctx.version === "3.2") continue;
          // Spectral's schema function on a missing value: the property it prints depends on a $ref in between.
          const viaRef = example.path[example.path.length - 1] !== key || example.path.length !== examples.path.length + 1;
          ctx.reportAt(`"${viaRef ? String(example.path[example.path.length - 1]) : `${key}.value`}" property must exist`, at);
          continue;
        }
        for (const f of validateExample(value, schema, at, mode, ctx)) ctx.reportAt(f.message, f.path);
      }
    },
  }),
});
