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

/** What a diagnostic shows besides its range, as one string (for comparing diagnostics that share a range). */
function look(d: Diagnostic): string {
  return `${d.severity}\u0000${d.source ?? ""}\u0000${d.message}`;
}

interface Ranged {
  from: number;
  to: number;
}

const byRange = (a: Ranged, b: Ranged): number => a.from - b.from || a.to - b.to;

function inOrder(list: readonly Ranged[]): boolean {
  for (let i = 1; i < list.length; i++) if (byRange(list[i - 1], list[i]) > 0) return false;
  return true;
}

/**
 * Whether `state`'s lint state shows exactly `diagnostics` (as a multiset: same ranges, as CodeMirror has
 * mapped them through the edits since, same severities, messages and sources). Both lists are put in range
 * order (usually they already are: CodeMirror yields its markers so, and the session's problems come sorted by
 * position), then compared range by range; only diagnostics sharing a range are compared as strings, sorted.
 * Building and sorting a string per diagnostic, as before, was most of the page's 4–6 ms (p50) per result on
 * GitHub's 859 problems.
 */
export function showsDiagnostics(state: EditorState, diagnostics: readonly Diagnostic[]): boolean {
  const shown: (Ranged & { d: Diagnostic })[] = [];
  forEachDiagnostic(state, (d, from, to) => void shown.push({ from, to, d }));
  const n = shown.length;
  if (n !== diagnostics.length) return false;
  if (!inOrder(shown)) shown.sort(byRange);
  const fresh = inOrder(diagnostics) ? diagnostics : [...diagnostics].sort(byRange);
  for (let i = 0; i < n; ) {
    const { from, to } = shown[i];
    let j = i + 1;
    while (j < n && shown[j].from === from && shown[j].to === to) j++;
    for (let k = i; k < j; k++) if (fresh[k].from !== from || fresh[k].to !== to) return false;
    if (j - i === 1) {
      if (look(shown[i].d) !== look(fresh[i])) return false;
    } else {
      const a = shown.slice(i, j).map((s) => look(s.d)).sort();
      const b = fresh.slice(i, j).map(look).sort();
      for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
    }
    i = j;
  }
  return true;
}

/**
 * The transaction that makes `state` show `diagnostics`, or undefined when it already does
 * ({@link showsDiagnostics}): the caller then dispatches nothing, and CodeMirror redraws nothing.
 */
export function diagnosticsUpdate(state: EditorState, diagnostics: readonly Diagnostic[]): TransactionSpec | undefined {
  return showsDiagnostics(state, diagnostics) ? undefined : setDiagnostics(state, diagnostics);
}
