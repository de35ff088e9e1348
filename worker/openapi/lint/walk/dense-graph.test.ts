/**
 * @module Pinned regression (issue 14, long fuzz run): ReadMe's readme-extensions.yaml mutated with a catastrophic
 * pattern, a dense schema graph (hundreds of schemas, each referencing up to 20 others and the next through allOf)
 * and odd `$ref`s (case seed 408491112) took 14.8 s to lint in the upload (15.6 s end to end). The walk reaches
 * each schema in ~120 contexts (flags, depth, the last key classes), so it follows ~1,000,000 references; each one
 * used to allocate its own edge (path copy, context, a 100-character key) and the run spent most of its time in
 * garbage collection before stopping at the old 1,000,000-edge budget. Edges are now interned per run (one object
 * per target and context) and the budget is 250,000 edges (GitHub's REST description follows ~17,500). The case is
 * regenerated from the corpus file with the fuzzer's own mutation code, so it is the exact definition the fuzzer
 * posted.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { LONG_SCALE, mutate } from "../../../../test/fuzz/mutations";
import { denseGraphDoc } from "../../schema-view/testing/hostile";
import { BUDGET_NOTES, LINT_BUDGET } from "../../budgets";
import { planRules, runRules } from "../engine";
import { lintDocument } from "../lint-document";
import { detectOasVersion } from "../version";

const CORPUS_FILE = join(__dirname, "../../../../../shared/corpus/readme-oas-examples/3.0/yaml/readme-extensions.yaml");

function fuzzCase(): string {
  const { body } = mutate(readFileSync(CORPUS_FILE, "utf8"), ["bad-pattern", "dense-graph", "odd-ref"], 408491112, LONG_SCALE);
  return new TextDecoder().decode(body);
}

function stats(root: Record<string, unknown>) {
  const version = detectOasVersion(root);
  if (!version.ok) throw new Error(version.message);
  return runRules(root, planRules(version.version)).stats;
}

describe("the lint walk on a dense schema graph", () => {
  it("fuzz case 408491112 stops at the budget with a note and keeps the definition's real findings", () => {
    const text = fuzzCase();
    const result = lintDocument(text);
    const byRule = (rule: string) => result.problems.filter((p) => p.rule === rule);
    expect(byRule("lint-budget").map((p) => p.message)).toEqual([BUDGET_NOTES.lintStopped(LINT_BUDGET.maxEdges)]);
    // The odd $refs the mutation wrote (unresolvable local pointers) and the base file's own warning stay reported.
    expect(byRule("invalid-ref").length).toBe(3);
    expect(byRule("info-contact").length).toBe(1);

    const s = stats(parse(text));
    expect(s.budgetReached).toBe(true);
    // One edge object per distinct target and context, not one per reference followed: the run's memory grows
    // with the fragments walked (before: ~19 edges made per fragment, 1,000,000 in all).
    expect(s.edgesMade).toBeLessThan(3 * s.fragmentsWalked);
    expect(s.edgesMade).toBeLessThan(LINT_BUDGET.maxEdges / 4);
  });

  it("a dense graph within the budget is walked to the end, each distinct edge made once", () => {
    const s = stats(denseGraphDoc(40, 10, 20) as Record<string, unknown>);
    expect(s.budgetReached).toBe(false);
    // Every edge made leads to one fragment walked (the root's edge is made apart, so walked = made + 1).
    expect(s.fragmentsWalked).toBe(s.edgesMade + 1);
  });
});
