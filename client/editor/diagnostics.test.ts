import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { forEachDiagnostic, setDiagnostics } from "@codemirror/lint";
import type { Diagnostic } from "@codemirror/lint";
import { EditorState } from "@codemirror/state";
import { diagnosticsUpdate, showsDiagnostics } from "./diagnostics";
import { problemRange } from "./problems";

type Problem = { line: number; column: number; severity: Diagnostic["severity"]; message: string; source: string };

/** Diagnostics for problems on `state`'s text, as the session builds them (line/column to the line's end). */
function diagnosticsFor(state: EditorState, problems: Problem[]): Diagnostic[] {
  return problems.map((p) => ({ ...problemRange(state.doc, p), severity: p.severity, message: p.message, source: p.source }));
}

/** What the state shows, sorted: range, severity, message, source. */
function shown(state: EditorState): string[] {
  const out: string[] = [];
  forEachDiagnostic(state, (d, from, to) => void out.push(`${from}-${to} ${d.severity} ${d.source} ${d.message}`));
  return out.sort();
}
const expected = (ds: Diagnostic[]) => ds.map((d) => `${d.from}-${d.to} ${d.severity} ${d.source} ${d.message}`).sort();

/** Applies a result the way the session does: dispatches only when the update is needed. */
function apply(state: EditorState, ds: Diagnostic[]): EditorState {
  const spec = diagnosticsUpdate(state, ds);
  return spec ? state.update(spec).state : state;
}

const TEXT = '{\n  "a": "one",\n  "b": "two",\n  "c": "three"\n}\n';
const P: Problem[] = [
  { line: 2, column: 3, severity: "warning", message: "a is odd", source: "r1" },
  { line: 4, column: 8, severity: "error", message: "c is bad", source: "r2" },
];

describe("diagnosticsUpdate", () => {
  it("dispatches nothing when CodeMirror's mapped markers are already the result", () => {
    let state = apply(EditorState.create({ doc: TEXT }), diagnosticsFor(EditorState.create({ doc: TEXT }), P));
    expect(shown(state)).toEqual(expected(diagnosticsFor(state, P)));
    // Typing on line 3 moves line 4's marker; the worker's result (same lines and columns) maps to the same place.
    state = state.update({ changes: { from: state.doc.line(3).from + 9, insert: "x" } }).state;
    const fresh = diagnosticsFor(state, P);
    expect(showsDiagnostics(state, fresh)).toBe(true);
    expect(diagnosticsUpdate(state, [...fresh].reverse())).toBeUndefined();
  });

  it("dispatches when a range, message, severity or the count differs", () => {
    const base = EditorState.create({ doc: TEXT });
    const state = apply(base, diagnosticsFor(base, P));
    // Text typed right at a marker's start is outside CodeMirror's mapped mark; the fresh result includes it.
    const typed = state.update({ changes: { from: state.doc.line(2).from + 2, insert: "x" } }).state;
    expect(showsDiagnostics(typed, diagnosticsFor(typed, P))).toBe(false);
    expect(showsDiagnostics(state, diagnosticsFor(state, [{ ...P[0], message: "other" }, P[1]]))).toBe(false);
    expect(showsDiagnostics(state, diagnosticsFor(state, [{ ...P[0], severity: "error" }, P[1]]))).toBe(false);
    expect(showsDiagnostics(state, diagnosticsFor(state, [{ ...P[0], source: "r3" }, P[1]]))).toBe(false);
    expect(showsDiagnostics(state, diagnosticsFor(state, [P[0]]))).toBe(false);
    expect(showsDiagnostics(state, diagnosticsFor(state, [P[0], P[0], P[1]]))).toBe(false);
    expect(showsDiagnostics(state, [])).toBe(false);
    expect(showsDiagnostics(base, [])).toBe(true);
  });

  it("always leaves the state showing exactly the latest result (random edits and results)", () => {
    const problem = fc.record({
      line: fc.integer({ min: 1, max: 6 }),
      column: fc.integer({ min: 1, max: 14 }),
      severity: fc.constantFrom<Diagnostic["severity"]>("error", "warning", "info"),
      message: fc.constantFrom("m1", "m2"),
      source: fc.constantFrom("r1", "r2"),
    });
    const step = fc.record({
      at: fc.nat(),
      remove: fc.integer({ min: 0, max: 2 }),
      insert: fc.constantFrom("", "x", "\n", "yz"),
      // Most steps keep the last problems (the case the skip is for); some replace them.
      problems: fc.option(fc.array(problem, { maxLength: 5 }), { freq: 3 }),
    });
    fc.assert(
      fc.property(fc.array(problem, { maxLength: 5 }), fc.array(step, { maxLength: 12 }), (first, steps) => {
        let state = EditorState.create({ doc: TEXT });
        let problems = first;
        state = apply(state, diagnosticsFor(state, problems));
        for (const s of steps) {
          const from = s.at % (state.doc.length + 1);
          state = state.update({ changes: { from, to: Math.min(state.doc.length, from + s.remove), insert: s.insert } }).state;
          if (s.problems) problems = s.problems;
          const fresh = diagnosticsFor(state, problems);
          state = apply(state, fresh);
          // The same as CodeMirror shows after a full setDiagnostics (which itself drops a point at the text's end).
          expect(shown(state)).toEqual(shown(state.update(setDiagnostics(state, fresh)).state));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("compares diagnostics sharing a range as a multiset, in any order (against a string-per-diagnostic reference)", () => {
    const base = EditorState.create({ doc: TEXT });
    const two = [
      { ...P[0], message: "m1" },
      { ...P[0], severity: "error" as const, message: "m2" },
    ];
    const state = apply(base, diagnosticsFor(base, two));
    expect(showsDiagnostics(state, diagnosticsFor(state, [...two].reverse()))).toBe(true);
    // Same range, same severities and messages, paired differently.
    expect(showsDiagnostics(state, diagnosticsFor(state, [{ ...two[0], message: "m2" }, { ...two[1], message: "m1" }]))).toBe(false);
    // Few ranges, so many diagnostics share one; any order on either side.
    const problem = fc.record({
      line: fc.integer({ min: 1, max: 2 }),
      column: fc.integer({ min: 1, max: 2 }),
      severity: fc.constantFrom<Diagnostic["severity"]>("error", "warning"),
      message: fc.constantFrom("m1", "m2"),
      source: fc.constantFrom("r1", "r2"),
    });
    fc.assert(
      fc.property(fc.array(problem, { maxLength: 6 }), fc.array(problem, { maxLength: 6 }), fc.boolean(), (a, b, same) => {
        const state = apply(base, diagnosticsFor(base, a));
        const fresh = diagnosticsFor(state, same ? [...a].reverse() : b);
        expect(showsDiagnostics(state, fresh)).toBe(JSON.stringify(shown(state)) === JSON.stringify(expected(fresh)));
      }),
      { numRuns: 500 },
    );
  });
});
