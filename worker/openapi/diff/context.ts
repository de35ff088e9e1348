/**
 * @module What every check receives: both documents with their schema normalisers, the schema comparer, the
 * operation pairs, and `emit`, which gives a change its level (from the registry), pointer and lines.
 */

import { DIFF_BUDGET } from "../budgets";
import { toRef } from "../model/pointer";
import type { PathSegment } from "../model/pointer";
import { DiffBudget, DiffBudgetExceeded } from "./budget";
import { listOperations, type OperationEntry } from "./operations";
import { RULES, levelOf } from "./rules";
import { SchemaComparer } from "./schema/compare";
import { SchemaNormalizer, type SchemaRef } from "./schema/normalize";
import type { Direction, RelChange } from "./schema/rel";
import type { Change, ChangeOperation, DiffSide } from "./types";

/** Where a change is, on either side. */
export interface Where {
  operation?: ChangeOperation;
  base?: PathSegment[];
  revision?: PathSegment[];
}

/** An operation present on both sides (matched by method and path template with parameter names ignored). */
export interface OperationPair {
  base: OperationEntry;
  revision: OperationEntry;
  /** The revision's method and path, for changes. */
  operation: ChangeOperation;
}

/** The subject a schema comparison reports for: the request body, a parameter, a response body. */
export interface SchemaSubject {
  direction: Direction;
  root: "body" | "parameter";
  /** Human label ("request body (application/json)", "query parameter limit"). */
  label: string;
  operation: ChangeOperation;
}

export class DiffContext {
  readonly changes: Change[] = [];
  readonly budget = new DiffBudget();
  readonly baseSchemas: SchemaNormalizer;
  readonly revSchemas: SchemaNormalizer;
  readonly schemas: SchemaComparer;
  readonly baseOperations: Map<string, OperationEntry>;
  readonly revOperations: Map<string, OperationEntry>;
  readonly pairs: OperationPair[] = [];

  constructor(
    readonly base: DiffSide,
    readonly revision: DiffSide,
    readonly now: number,
  ) {
    this.baseSchemas = new SchemaNormalizer(base.document, this.budget);
    this.revSchemas = new SchemaNormalizer(revision.document, this.budget);
    this.schemas = new SchemaComparer(this.baseSchemas, this.revSchemas, this.budget);
    this.baseOperations = listOperations(base.document);
    this.revOperations = listOperations(revision.document);
    for (const [key, b] of this.baseOperations) {
      const r = this.revOperations.get(key);
      if (r && !b.webhook) this.pairs.push({ base: b, revision: r, operation: r.change });
    }
  }

  /** Records a change; its level comes from the registry. Throws DiffBudgetExceeded past the change budget. */
  emit(id: string, message: string, where: Where): void {
    if (this.changes.length >= DIFF_BUDGET.maxChanges) throw new DiffBudgetExceeded(`${DIFF_BUDGET.maxChanges.toLocaleString("en-US")} changes listed`);
    const change: Change = { id, level: levelOf(id), pointer: toRef(where.revision ?? where.base ?? []).slice(1), message };
    if (where.operation) change.operation = where.operation;
    const baseLine = where.base && this.base.locate?.(where.base)?.line;
    const revisionLine = where.revision && this.revision.locate?.(where.revision)?.line;
    if (baseLine) change.baseLine = baseLine;
    if (revisionLine) change.revisionLine = revisionLine;
    this.changes.push(change);
  }

  /** Compares two schemas and emits their changes under `subject`. */
  compareSchemas(base: SchemaRef, rev: SchemaRef, subject: SchemaSubject): void {
    for (const rel of this.schemas.compare(base, rev, subject.direction, subject.root === "parameter")) {
      const id = finalId(rel, subject);
      if (!id) continue;
      const path = rel.path.filter((p) => p !== "items");
      const label = path.length ? `${subject.label}, property ${rel.path.join("/")}` : rel.path.length ? `${subject.label} (${rel.path.join("/")})` : subject.label;
      this.emit(id, `${label}: ${rel.what}`, { operation: subject.operation, ...(rel.base ? { base: rel.base } : {}), ...(rel.revision ? { revision: rel.revision } : {}) });
    }
  }
}

/**
 * The id a relative change gets under its subject: `request-body-…`/`request-property-…`, `response-…`,
 * `request-parameter[-property]-…`; readOnly request properties and writeOnly response properties take their
 * guarded variant or are dropped (a readOnly property is never sent, a writeOnly one never received).
 */
function finalId(rel: RelChange, subject: SchemaSubject): string | undefined {
  const depth = rel.path.filter((p) => p !== "items").length;
  let id: string | undefined;
  if (rel.id) {
    if (subject.root === "parameter") return undefined; // object parameters: property existence is not tracked
    id = rel.id;
  } else if (subject.root === "parameter") {
    id = depth === 0 ? `request-parameter-${rel.suffix}` : `request-parameter-property-${rel.suffix}`;
    if (!RULES.has(id)) id = `request-parameter-${rel.suffix}`;
  } else {
    if (subject.direction === "response" && depth === 0 && rel.suffix === "enum-value-removed") return "response-mediatype-enum-value-removed";
    id = `${subject.direction}-${depth === 0 ? "body" : "property"}-${rel.suffix}`;
    if (!RULES.has(id)) id = `${subject.direction}-property-${rel.suffix}`;
  }
  if (!RULES.has(id)) return undefined;
  if (subject.direction === "request" && rel.readOnly && id.startsWith("request-property-")) {
    const guarded = id.replace("request-property-", "request-read-only-property-");
    return RULES.has(guarded) ? guarded : undefined;
  }
  if (subject.direction === "response" && rel.writeOnly && id.startsWith("response-property-")) {
    const guarded = id.replace("response-property-", "response-write-only-property-");
    return RULES.has(guarded) ? guarded : undefined;
  }
  return id;
}
