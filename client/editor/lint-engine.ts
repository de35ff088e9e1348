/**
 * @module The seam between the editor and Portico's lint engine (worker/openapi/lint): a session that lints a
 * text once and then again after edits, reusing what it can.
 */
import type { LintRuleset } from "../../worker/openapi/lint/ruleset";
import type { TextChange } from "./protocol";

/** What the engine reports, before {@link normalizeProblem}. */
export interface RawLintResult {
  problems: { severity?: unknown; rule?: unknown; message?: unknown; line?: unknown; column?: unknown; path?: unknown }[];
}

export interface LintSessionLike {
  /** Problems of the text the session was created with. */
  result(): RawLintResult;
  /**
   * Problems after edits: `batches` are the edits since the last call, oldest first (each relative to the text
   * before it). The host keeps no copy of the text for this: building a 13 MB string per keystroke is what
   * made large files slow.
   */
  update(batches: readonly (readonly TextChange[])[]): RawLintResult;
}

export interface LintEngine {
  /** `ruleset`: the portal's lint ruleset (portico.yaml `lint:`); absent, spectral:oas as is. */
  createSession(text: string, ruleset?: LintRuleset): LintSessionLike;
}
