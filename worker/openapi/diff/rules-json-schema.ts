/**
 * @module The taxonomy's JSON Schema 2020-12 rows (OpenAPI 3.1+ schemas) and the allOf / additionalProperties rows:
 * ids and levels from oasdiff's checker/rules.go (contains, dependentRequired, unevaluated*, if/then/else, …);
 * additionalProperties has no oasdiff id, so its rows are ours. rules.ts joins them into the registry.
 */

import type { Level } from "./types";

export type Row = [id: string, level: Level, trigger: string, origin?: "ours"];

type Rel = [suffix: string, level: Level, trigger: string];

/** Both subjects (body, property) of one direction. */
function both(direction: "request" | "response", rows: Rel[], origin?: "ours"): Row[] {
  return rows.flatMap(([suffix, level, trigger]) =>
    (["body", "property"] as const).map((subject): Row => [`${direction}-${subject}-${suffix}`, level, `${direction} ${subject === "body" ? "body schema" : "property"}: ${trigger}`, ...(origin ? [origin] : [])] as Row),
  );
}

// A request schema accepts what clients send (a new constraint narrows: ERR); a response schema describes what they
// receive (a constraint dropped widens: ERR). The levels are oasdiff's for every id below but additionalProperties.
export const JSON_SCHEMA_ROWS: Row[] = [
  ...both("request", [
    ["all-of-added", "ERR", "an allOf part added (inline or by $ref)"],
    ["all-of-removed", "INFO", "an allOf part removed"],
    ["contains-added", "ERR", "contains added"],
    ["contains-removed", "INFO", "contains removed"],
    ["min-contains-increased", "ERR", "minContains increased"],
    ["min-contains-decreased", "INFO", "minContains decreased"],
    ["max-contains-increased", "INFO", "maxContains increased"],
    ["max-contains-decreased", "ERR", "maxContains decreased"],
    ["dependent-required-added", "ERR", "a dependentRequired entry added"],
    ["dependent-required-removed", "INFO", "a dependentRequired entry removed"],
    ["dependent-required-changed", "ERR", "a dependentRequired entry's list changed"],
    ["dependent-schema-added", "ERR", "a dependentSchemas entry added"],
    ["dependent-schema-removed", "INFO", "a dependentSchemas entry removed"],
    ["pattern-property-added", "ERR", "a patternProperties entry added"],
    ["pattern-property-removed", "INFO", "a patternProperties entry removed"],
    ["property-names-added", "ERR", "propertyNames added"],
    ["property-names-removed", "INFO", "propertyNames removed"],
    ["unevaluated-properties-added", "ERR", "unevaluatedProperties added (false or a schema)"],
    ["unevaluated-properties-removed", "INFO", "unevaluatedProperties removed"],
    ["unevaluated-items-added", "ERR", "unevaluatedItems added (false or a schema)"],
    ["unevaluated-items-removed", "INFO", "unevaluatedItems removed"],
    ["if-added", "ERR", "if added"],
    ["if-removed", "INFO", "if removed"],
    ["then-added", "ERR", "then added"],
    ["then-removed", "INFO", "then removed"],
    ["else-added", "ERR", "else added"],
    ["else-removed", "INFO", "else removed"],
    ["content-schema-added", "ERR", "contentSchema added"],
    ["content-schema-removed", "INFO", "contentSchema removed"],
    ["content-media-type-changed", "ERR", "contentMediaType set, removed or changed"],
    ["content-encoding-changed", "ERR", "contentEncoding set, removed or changed"],
  ]),
  ...both("request", [
    ["additional-properties-narrowed", "ERR", "additionalProperties became false or a schema where any property was allowed, or a schema became false"],
    ["additional-properties-widened", "INFO", "additionalProperties removed (any property allowed) or false became a schema"],
  ], "ours"),
  ...both("response", [
    ["all-of-added", "INFO", "an allOf part added (inline or by $ref)"],
    ["all-of-removed", "ERR", "an allOf part removed"],
    ["contains-added", "INFO", "contains added"],
    ["contains-removed", "ERR", "contains removed"],
    ["min-contains-increased", "INFO", "minContains increased"],
    ["min-contains-decreased", "ERR", "minContains decreased"],
    ["max-contains-increased", "ERR", "maxContains increased"],
    ["max-contains-decreased", "INFO", "maxContains decreased"],
    ["dependent-required-added", "INFO", "a dependentRequired entry added"],
    ["dependent-required-removed", "ERR", "a dependentRequired entry removed"],
    ["dependent-required-changed", "ERR", "a dependentRequired entry's list changed"],
    ["dependent-schema-added", "INFO", "a dependentSchemas entry added"],
    ["dependent-schema-removed", "ERR", "a dependentSchemas entry removed"],
    ["pattern-property-added", "INFO", "a patternProperties entry added"],
    ["pattern-property-removed", "ERR", "a patternProperties entry removed"],
    ["property-names-added", "INFO", "propertyNames added"],
    ["property-names-removed", "ERR", "propertyNames removed"],
    ["unevaluated-properties-added", "INFO", "unevaluatedProperties added (false or a schema)"],
    ["unevaluated-properties-removed", "ERR", "unevaluatedProperties removed"],
    ["unevaluated-items-added", "INFO", "unevaluatedItems added (false or a schema)"],
    ["unevaluated-items-removed", "ERR", "unevaluatedItems removed"],
    ["if-added", "INFO", "if added"],
    ["if-removed", "ERR", "if removed"],
    ["then-added", "INFO", "then added"],
    ["then-removed", "ERR", "then removed"],
    ["else-added", "INFO", "else added"],
    ["else-removed", "ERR", "else removed"],
    ["content-schema-added", "INFO", "contentSchema added"],
    ["content-schema-removed", "ERR", "contentSchema removed"],
    ["content-media-type-changed", "ERR", "contentMediaType set, removed or changed"],
    ["content-encoding-changed", "ERR", "contentEncoding set, removed or changed"],
  ]),
  ...both("response", [
    ["additional-properties-narrowed", "INFO", "additionalProperties became false or a schema where any property was allowed"],
    // WARN, not ERR: most clients ignore unknown properties; strict deserialisers do not.
    ["additional-properties-widened", "WARN", "additionalProperties removed (any property may now appear) or false became a schema"],
  ], "ours"),
];
