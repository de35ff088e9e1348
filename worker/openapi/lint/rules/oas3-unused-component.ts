/** @module oas3-unused-component: every reusable component is the target of some `$ref`. */

import { defineDocumentRule, OAS3 } from "../define";
import { isObject } from "../util/is-object";
import { toPointer } from "../util/pointer";
import { referencedSet } from "../util/referenced-set";

// The component kinds Spectral checks (security schemes are used by name, not by $ref).
const KINDS = ["schemas", "responses", "parameters", "examples", "requestBodies", "headers", "links", "callbacks"];

export const oas3UnusedComponent = defineDocumentRule({
  id: "oas3-unused-component",
  scope: "document",
  severity: "warning",
  description: "Potentially unused component has been detected.",
  formats: OAS3,
  create: () => ({
    Root: {
      leave(root, ctx) {
        if (!isObject(root.components)) return;
        const used = referencedSet(ctx.referencedPointers());
        for (const kind of KINDS) {
          const map = root.components[kind];
          if (!isObject(map)) continue;
          for (const [name, pointer] of pointers(map, kind, ctx.store)) {
            if (!used.has(pointer)) ctx.report("Potentially unused component has been detected.", ["components", kind, name]);
          }
        }
      },
    },
  }),
});

/** The members of a components map with their pointers, kept per map (by identity) for the session's next runs. */
function pointers(map: Record<string, unknown>, kind: string, store: WeakMap<object, unknown>): [string, string][] {
  const kept = store.get(map) as { kind: string; list: [string, string][] } | undefined;
  if (kept?.kind === kind) return kept.list;
  const list = Object.keys(map).map((name): [string, string] => [name, toPointer(["components", kind, name])]);
  store.set(map, { kind, list });
  return list;
}
