/** @module The diff's handle on a schema before normalisation: shared by the normaliser and the keyword readers. */
import type { PathSegment } from "../../model/pointer";

/** A schema not yet normalised: its value and where it is written. */
export interface SchemaRef {
  value: unknown;
  at: PathSegment[];
}
