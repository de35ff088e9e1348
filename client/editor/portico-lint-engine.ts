/** @module Portico's incremental lint session (worker/openapi/lint) behind the editor's {@link LintEngine} seam. */
import { createLintSession } from "../../worker/openapi/lint";
import type { LintEngine } from "./lint-engine";

/**
 * The edit batches since the last lint go to the session as changes: it composes them into one change and
 * re-parses only what that touches (see worker/openapi/lint/session.ts).
 */
export const PORTICO_LINT_ENGINE: LintEngine = {
  createSession(text, ruleset) {
    const session = createLintSession(text, ruleset ? { ruleset } : {});
    return {
      result: () => session.result,
      update: (batches) => session.updateBatches(batches),
    };
  },
};
