/** @module Callbacks of an operation: each expression and method, linking to the callback's own page. */
import { callbackSlug } from "../../openapi/model/slug";
import { deref, isObject } from "../../openapi/schema-view/refs";
import { H } from "./heading";
import { MethodBadge } from "./op-link";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"];

/** Lists `operation.callbacks`; `href(slug)` builds the link to each callback operation. */
export function Callbacks({ operation, parentSlug, refs, href, hl, idPrefix }: {
  operation: Record<string, unknown>; parentSlug: string; refs: Record<string, unknown>; href: (slug: string) => string; hl: number; idPrefix: string;
}) {
  if (!isObject(operation.callbacks) || Object.keys(operation.callbacks).length === 0) return null;
  return (
    <section class="blk" aria-labelledby={`${idPrefix}callbacks`}>
      <H level={hl} id={`${idPrefix}callbacks`}>Callbacks</H>
      <ul class="cb">
        {Object.entries(operation.callbacks).map(([name, raw]) => {
          const cb = deref(raw, refs).value;
          if (!isObject(cb)) return null;
          return Object.entries(cb).filter(([k]) => !k.startsWith("x-")).map(([expression, rawItem]) => {
            const item = deref(rawItem, refs).value;
            if (!isObject(item)) return null;
            const methods = [...METHODS.filter((m) => isObject(item[m])), ...(isObject(item.additionalOperations) ? Object.keys(item.additionalOperations) : [])];
            return methods.map((m) => (
              <li>
                <a href={href(callbackSlug(parentSlug, name, m))}><strong>{name}</strong> <MethodBadge method={m} /> <code>{expression}</code></a>
              </li>
            ));
          });
        })}
      </ul>
    </section>
  );
}
