/** @module Portico's incremental lint session (worker/openapi/lint) behind the editor's {@link LintEngine} seam. */
import { createLintSession } from "../../worker/openapi/lint";
import type { LintEngine } from "./lint-engine";

/**
 * One edit batch goes to the session as its changes (it re-parses only what they touch); several batches
 * since the last lint go as the new text, which the session diffs into one change.
 */
export const PORTICO_LINT_ENGINE: LintEngine = {
  createSession(text, ruleset) {
    const session = createLintSession(text, ruleset ? { ruleset } : {});
    return {
      result: () => session.result,
      update: (next, batches) => (batches.length === 1 ? session.update(batches[0]) : session.update(next)),
    };
  },
};
