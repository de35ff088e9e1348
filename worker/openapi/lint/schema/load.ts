/** @module The OpenAPI JSON Schemas per version, indexed once per isolate (see ../schemas/README.md). */

import type { OasVersion } from "../types";
import { SchemaSet, type Schema, type SchemaObject } from "./schema-set";
import draft04 from "../schemas/json-schema-draft-04.json";
import oas20 from "../schemas/oas-2.0.json";
import oas30 from "../schemas/oas-3.0.json";
import oas31 from "../schemas/oas-3.1.json";
import oas31Dialect from "../schemas/oas-3.1-dialect.json";
import oas31Meta from "../schemas/oas-3.1-meta.json";
import stoplight2020 from "../schemas/json-schema-2020-12-stoplight.json";
import stoplight2020Validation from "../schemas/json-schema-2020-12-stoplight-validation.json";
import oas32 from "../schemas/oas-3.2.json";
import oas32Dialect from "../schemas/oas-3.2-dialect.json";
import oas32Meta from "../schemas/oas-3.2-meta.json";
import js2020 from "../schemas/json-schema-2020-12.json";
import js2020Core from "../schemas/json-schema-2020-12-core.json";
import js2020Applicator from "../schemas/json-schema-2020-12-applicator.json";
import js2020Unevaluated from "../schemas/json-schema-2020-12-unevaluated.json";
import js2020Validation from "../schemas/json-schema-2020-12-validation.json";
import js2020MetaData from "../schemas/json-schema-2020-12-meta-data.json";
import js2020Format from "../schemas/json-schema-2020-12-format-annotation.json";
import js2020Content from "../schemas/json-schema-2020-12-content.json";

export interface VersionSchemas {
  set: SchemaSet;
  root: Schema;
  /** Memo of the subschemas applying to a unit path (see structure.ts); null when not splittable. */
  unitSchemas: Map<string, readonly Schema[] | null>;
}

const JSON_SCHEMA_2020 = [js2020, js2020Core, js2020Applicator, js2020Unevaluated, js2020Validation, js2020MetaData, js2020Format, js2020Content];

const DOCUMENTS: Record<OasVersion, () => unknown[]> = {
  "2.0": () => [oas20, draft04],
  "3.0": () => [oas30],
  "3.1": () => [oas31, oas31Dialect, oas31Meta, stoplight2020, stoplight2020Validation, ...JSON_SCHEMA_2020],
  "3.2": () => [oas32, oas32Dialect, oas32Meta, ...JSON_SCHEMA_2020],
};

const loaded = new Map<OasVersion, VersionSchemas>();

/** The schema set of `version`; the first document is the OpenAPI schema itself. */
export function loadSchemas(version: OasVersion): VersionSchemas {
  let hit = loaded.get(version);
  if (!hit) {
    const documents = DOCUMENTS[version]() as SchemaObject[];
    hit = { set: new SchemaSet(documents), root: documents[0], unitSchemas: new Map() };
    loaded.set(version, hit);
  }
  return hit;
}
