/**
 * @module Compares two schemas (one per document) in a direction: the check families of this folder run on the
 * normalised pair, properties and items recurse. Cycle-safe: a pair being compared is not entered again; results
 * are memoised per pair and direction, so a shared component is compared once however many operations reach it.
 */

import { DIFF_BUDGET } from "../../budgets";
import type { DiffBudget } from "../budget";
import { compareAllOf, compareVariants, wrappedInOneOf } from "./composition";
import { compareConstraints } from "./constraints";
import type { NormSchema, SchemaNormalizer, SchemaRef } from "./normalize";
import { compareKeywords } from "./keywords";
import { compareProperties } from "./properties";
import type { Direction, RelChange } from "./rel";
import { compareType } from "./type";
import { compareValues } from "./values";

/** Compares schema pairs of one base/revision document pair. */
export class SchemaComparer {
  private readonly memo = { request: new WeakMap<NormSchema, WeakMap<NormSchema, RelChange[]>>(), response: new WeakMap<NormSchema, WeakMap<NormSchema, RelChange[]>>() };
  private readonly active = { request: new WeakMap<NormSchema, WeakSet<NormSchema>>(), response: new WeakMap<NormSchema, WeakSet<NormSchema>>() };

  constructor(
    private readonly baseSchemas: SchemaNormalizer,
    private readonly revSchemas: SchemaNormalizer,
    private readonly budget: DiffBudget,
  ) {}

  /** The changes from `base` to `rev` read in `direction`; `constAsEnum` for parameters (a const is a one-value enum). */
  compare(base: SchemaRef, rev: SchemaRef, direction: Direction, constAsEnum = false): RelChange[] {
    return this.pair(this.baseSchemas.get(base), this.revSchemas.get(rev), direction, constAsEnum);
  }

  private depth = 0;

  private pair(b: NormSchema, r: NormSchema, direction: Direction, constAsEnum: boolean): RelChange[] {
    this.budget.spend();
    // Nesting deeper than any real schema (GitHub's reach ~20) is a hostile chain of distinct schemas: stop there.
    if (this.depth >= DIFF_BUDGET.maxDepth) return [];
    const memo = constAsEnum ? undefined : this.memo[direction].get(b)?.get(r);
    if (memo) return memo;
    let active = this.active[direction].get(b);
    if (active?.has(r)) return []; // a cycle: the outer comparison of this pair reports its changes
    if (!active) this.active[direction].set(b, (active = new WeakSet()));
    active.add(r);
    const out: RelChange[] = [];
    this.depth++;
    try {
      const getBase = (ref: SchemaRef) => this.baseSchemas.get(ref);
      const getRev = (ref: SchemaRef) => this.revSchemas.get(ref);
      const wrapped = wrappedInOneOf(b, r, getRev);
      // A wrapping is one change: its type widening, moved properties and new variants are its mechanics.
      if (wrapped) out.push({ id: `${direction}-body-wrapped-in-one-of`, path: [], base: b.at, revision: r.at, what: "properties moved into oneOf alternatives" });
      else compareType(b, r, direction, out);
      compareValues(b, r, direction, out, constAsEnum);
      compareConstraints(b, r, direction, out);
      const recurse = (bref: SchemaRef, rref: SchemaRef) => {
        const bn = this.baseSchemas.get(bref);
        const rn = this.revSchemas.get(rref);
        const changes = this.pair(bn, rn, direction, constAsEnum);
        // Each change of a child is copied into its parent's list: count the copies, or a dense graph multiplies them.
        this.budget.spend(changes.length);
        return { changes, base: bn, rev: rn };
      };
      if (!wrapped) compareProperties(b, r, direction, out, getBase, getRev, recurse);
      if (b.items && r.items) for (const c of recurse(b.items, r.items).changes) out.push({ ...c, path: ["items", ...c.path] });
      compareAllOf(b, r, out, getBase, getRev);
      compareVariants(b, r, out, getBase, getRev, recurse, wrapped);
      compareKeywords(b.keywords, r.keywords, { base: b.at, revision: r.at }, out, recurse);
    } finally {
      this.depth--;
      active.delete(r);
    }
    if (!constAsEnum) {
      let inner = this.memo[direction].get(b);
      if (!inner) this.memo[direction].set(b, (inner = new WeakMap()));
      inner.set(r, out);
    }
    return out;
  }
}

