/**
 * @module Reference model of a normalised (3.x) document: header, operation summaries and lazily built slices.
 * Slices share nodes with the document (nothing is copied or inline-expanded); serialise them one at a time.
 */

import { UNLIMITED, type WorkBudget } from "../work-budget";
import { checkRefs } from "./check-refs";
import { buildHeader } from "./header";
import { collectOperations } from "./operations";
import type { OperationEntry } from "./operations";
import { isObject } from "./pointer";
import { RefClosure } from "./ref-closure";
import { weighSlices, type SliceWeight } from "./slice-size";
import { MODEL_VERSION } from "./types";
import type { BuildIssue, OperationSlice, OperationSummary, ReferenceHeader, SpecVersion } from "./types";

export interface ReferenceModel {
  header: ReferenceHeader;
  /** Path operations in document order, then webhook operations, then callback operations. */
  operations: OperationSummary[];
  /** The slice of one operation; throws a RangeError for a slug that is not in `operations`. */
  slice(slug: string): OperationSlice;
  /** Estimates what every slice together weighs (see slice-size.ts), stopping past `limit` characters. */
  weigh(limit?: number): SliceWeight;
}

/**
 * Builds the model. `modelVersion` is the document's family after normalisation (2.0 sources arrive as "3.0");
 * `bundled` when the document came out of the bundler (which reported its own missing files).
 * Structural problems are appended to `issues`; the model is built from whatever is usable. `budget` is spent by
 * the reference walks, here and in every later `slice` (throws its BudgetExceeded when exhausted).
 */
export function buildModel(document: Record<string, unknown>, sourceVersion: SpecVersion, modelVersion: SpecVersion, issues: BuildIssue[], bundled = false, budget: WorkBudget = UNLIMITED): ReferenceModel {
  const closure = new RefClosure(document, budget);
  checkRefs(document, closure, issues, bundled);
  const entries = collectOperations(document, modelVersion, issues);
  const counts = { operations: 0, webhooks: 0, callbacks: 0 };
  for (const e of entries) counts[e.summary.kind === "operation" ? "operations" : e.summary.kind === "webhook" ? "webhooks" : "callbacks"]++;
  const header = buildHeader(document, sourceVersion, counts, issues);
  const bySlug = new Map(entries.map((e) => [e.summary.slug, e]));
  return {
    header,
    operations: entries.map((e) => e.summary),
    slice(slug) {
      const entry = bySlug.get(slug);
      if (!entry) throw new RangeError(`No operation with slug ${JSON.stringify(slug)}`);
      return buildSlice(document, header, entry, closure);
    },
    weigh(limit) {
      // The summary, servers and security are stored in every slice too (no refs under them: only weighed).
      return weighSlices(entries, (entry) => {
        const parts = sliceParts(document, header, entry);
        return [...parts.roots, entry.summary, parts.servers, parts.security];
      }, closure, limit);
    },
  };
}

/** What a slice is made of: the operation's path parameters, effective servers and security, and its ref roots. */
function sliceParts(document: Record<string, unknown>, header: ReferenceHeader, entry: OperationEntry) {
  const { operation, pathItem } = entry;
  const pathParameters = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
  const servers = [operation.servers, pathItem.servers].find((s) => Array.isArray(s) && s.length > 0) ?? header.servers;
  const security = Array.isArray(operation.security) ? operation.security : (header.security ?? []);
  const components = isObject(document.components) ? document.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const usedSchemes = new Set<string>();
  for (const requirement of security) if (isObject(requirement)) for (const name of Object.keys(requirement)) usedSchemes.add(name);
  const schemeRoots = [...usedSchemes].filter((name) => Object.hasOwn(schemes, name)).map((name) => schemes[name]);
  return { pathParameters, servers, security, roots: [operation, pathParameters, ...schemeRoots] };
}

/** The values a slice's `$ref` reach starts from: the operation, its path parameters and the security schemes it uses. */
export function sliceRoots(document: Record<string, unknown>, header: ReferenceHeader, entry: OperationEntry): unknown[] {
  return sliceParts(document, header, entry).roots;
}

/**
 * One operation's slice: its operation, path parameters, effective servers and security, and every `$ref` target it
 * reaches in `document`, as `closure` collects them (the streamed build passes a mini-document holding the operation's
 * path items and callbacks, and its own build-wide target table's reach).
 */
export function buildSlice(document: Record<string, unknown>, header: ReferenceHeader, entry: OperationEntry, closure: Pick<RefClosure, "collect">): OperationSlice {
  const { operation } = entry;
  const { pathParameters, servers, security, roots } = sliceParts(document, header, entry);
  return {
    modelVersion: MODEL_VERSION,
    summary: entry.summary,
    operation,
    pathParameters,
    servers: servers as unknown[],
    security: security as Record<string, string[]>[],
    refs: closure.collect(roots),
  };
}
