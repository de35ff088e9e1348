/** @module Portico's lint engine behind the editor's {@link LintEngine} seam. */
import { lintDocument } from "../../worker/openapi/lint/lint-document";
import type { LintEngine } from "./lint-engine";

/** Lints the whole text on every update (the engine's own parse is the cost; see bench/editor-lint.mjs). */
export const PORTICO_LINT_ENGINE: LintEngine = {
  createSession(text) {
    let last = lintDocument(text);
    return {
      result: () => last,
      update: (next) => (last = lintDocument(next)),
    };
  },
};
