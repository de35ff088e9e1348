/** @module The structure validator's error record, shared by the validator and the messages built from it. */
import type { Segment } from "../rule";
import type { SchemaObject } from "./schema-set";

/** One validation error, in ajv's terms. */
export interface SchemaError {
  keyword: string;
  instancePath: Segment[];
  params: Record<string, unknown>;
  message: string;
  /** The schema object whose keyword failed (for `errorMessage` matching). */
  schema: SchemaObject | boolean;
  /** The failing instance value. */
  data: unknown;
  used?: boolean;
}
