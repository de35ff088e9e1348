/**
 * @module Handing lint results to CodeMirror's lint state only when they change what it shows.
 *
 * `setDiagnostics` rebuilds the whole decoration set and the gutter's markers (859 diagnostics on GitHub's
 * description: 6–30 ms of the page's main thread per result, and a redraw of the lines in view). Most
 * keystrokes leave the problems as they were, and CodeMirror has already mapped its markers through the
 * edit; when those mapped markers equal the fresh result, range for range, nothing needs to be dispatched.
 */
import { forEachDiagnostic, setDiagnostics } from "@codemirror/lint";
import type { Diagnostic } from "@codemirror/lint";
import type { EditorState, TransactionSpec } from "@codemirror/state";

/** What a diagnostic shows: its range, severity, message and source (rule). */
function key(d: Diagnostic, from: number, to: number): string {
  return `${from}\u0000${to}\u0000${d.severity}\u0000${d.source ?? ""}\u0000${d.message}`;
}

/**
 * Whether `state`'s lint state shows exactly `diagnostics` (as a multiset: same ranges, as CodeMirror has
 * mapped them through the edits since, same severities, messages and sources). Linear in the count plus a sort.
 */
export function showsDiagnostics(state: EditorState, diagnostics: readonly Diagnostic[]): boolean {
  const shown: string[] = [];
  forEachDiagnostic(state, (d, from, to) => void shown.push(key(d, from, to)));
  if (shown.length !== diagnostics.length) return false;
  const fresh = diagnostics.map((d) => key(d, d.from, d.to));
  shown.sort();
  fresh.sort();
  for (let i = 0; i < shown.length; i++) if (shown[i] !== fresh[i]) return false;
  return true;
}

/**
 * The transaction that makes `state` show `diagnostics`, or undefined when it already does
 * ({@link showsDiagnostics}): the caller then dispatches nothing, and CodeMirror redraws nothing.
 */
export function diagnosticsUpdate(state: EditorState, diagnostics: readonly Diagnostic[]): TransactionSpec | undefined {
  return showsDiagnostics(state, diagnostics) ? undefined : setDiagnostics(state, diagnostics);
}
