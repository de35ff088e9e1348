/**
 * @module ajv-style schema errors → Spectral's oas2-schema / oas3-schema findings: the path (an extra property
 * is reported at itself), the message (`"version" property must be string`, enum values with a "Did you mean"
 * suggestion, `errorMessage` texts with `{{property}}` filled) and the rule's trailing period.
 */

import type { Segment } from "../rule";
import { bestMatch } from "../util/best-match";
import type { SchemaError } from "./schema-error";

export interface StructureFinding {
  message: string;
  path: Segment[];
}

/** Spectral's oasDocumentSchema `processError`, then the rule's `{{error}}.` template. */
export function toFinding(error: SchemaError): StructureFinding | undefined {
  if (error.keyword === "if") return undefined;
  // A property name that fails `propertyNames` (3.2 header names, component names) is reported at the name,
  // by the check it failed, rather than at the map as ajv's summary does: the writer sees which key is wrong.
  if (error.keyword === "propertyNames") return undefined;
  const path = [...error.instancePath];
  if (typeof error.params.propertyName === "string") {
    const name = error.params.propertyName;
    return { message: `Property name "${name}" ${error.message.replace(/['"]/g, '"').replace(/NOT/g, "not")}.`, path: [...path, name] };
  }
  const property = path.length === 0 ? null : String(path[path.length - 1]);
  let message: string;
  switch (error.keyword) {
    case "additionalProperties": {
      const extra = String(error.params.additionalProperty);
      path.push(extra);
      message = `Property "${extra}" is not expected to be here`;
      break;
    }
    case "enum": {
      const allowed = (error.params.allowedValues as unknown[]) ?? [];
      const printed = allowed.map((v) => JSON.stringify(v)).join(", ");
      const best = typeof error.data === "string" ? bestMatch(error.data, allowed) : null;
      message = `${clean(property, error.message)}: ${printed}${best !== null ? `. Did you mean "${best}"?` : ""}`;
      break;
    }
    case "errorMessage":
      message = error.message.replace(/\{\{property\}\}/g, property ?? "");
      break;
    default:
      message = clean(property, error.message);
  }
  return { message: `${message}.`, path };
}

function clean(property: string | null, message: string): string {
  const cleaned = message.replace(/['"]/g, '"').replace(/NOT/g, "not");
  return property === null ? cleaned : `"${property}" property ${cleaned}`;
}
