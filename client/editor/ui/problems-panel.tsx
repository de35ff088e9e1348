/** @module The problems panel: severity, rule, message and line of every problem; selecting one reveals it. */
import { memo } from "preact/compat";
import { useState } from "preact/hooks";
import type { EditorProblem, Severity } from "../protocol";

/** Rows rendered at most; the counts in the header always cover all problems. */
const MAX_ROWS = 1000;
const LABEL: Record<Severity, string> = { error: "Error", warn: "Warning", info: "Info", hint: "Hint" };

export function ProblemsPanel({ problems, errors, warnings, stale, onSelect }: { problems: EditorProblem[]; errors: number; warnings: number; stale: boolean; onSelect: (p: EditorProblem) => void }) {
  const [open, setOpen] = useState(true);
  const others = problems.length - problems.filter((p) => p.severity === "error" || p.severity === "warn").length;
  return (
    <section class={open ? "ed-problems" : "ed-problems ed-collapsed"} aria-label="Problems">
      <header>
        <button type="button" class="ed-twisty" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? "▾" : "▸"} Problems
        </button>
        <span class="ed-sev-error" data-count="errors">{errors} error{errors === 1 ? "" : "s"}</span>
        <span class="ed-sev-warn" data-count="warnings">{warnings} warning{warnings === 1 ? "" : "s"}</span>
        {others > 0 && <span class="ed-muted">{others} info</span>}
        {stale && <span class="ed-muted" role="status">checking…</span>}
      </header>
      {open && <ProblemTable problems={problems} onSelect={onSelect} />}
    </section>
  );
}

/** The rows; memoised so typing (which changes only the version) does not re-render a long list. */
const ProblemTable = memo(function ProblemTable({ problems, onSelect }: { problems: EditorProblem[]; onSelect: (p: EditorProblem) => void }) {
  return (
    <div class="ed-problems-scroll">
      <table>
        <thead>
          <tr>
            <th scope="col">Severity</th>
            <th scope="col">Rule</th>
            <th scope="col">Message</th>
            <th scope="col">Line</th>
          </tr>
        </thead>
        <tbody>
          {problems.slice(0, MAX_ROWS).map((p, i) => (
            <tr key={`${p.rule}:${p.line}:${p.column}:${i}`} class="ed-problem" data-rule={p.rule} data-line={p.line} tabIndex={0} onClick={() => onSelect(p)} onKeyDown={(e) => e.key === "Enter" && onSelect(p)}>
              <td class={`ed-sev-${p.severity}`}>{LABEL[p.severity]}</td>
              <td>
                <code>{p.rule}</code>
              </td>
              <td>{p.message}</td>
              <td>{p.line}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {problems.length > MAX_ROWS && <p class="ed-muted">{problems.length - MAX_ROWS} more not listed.</p>}
      {problems.length === 0 && <p class="ed-muted">No problems.</p>}
    </div>
  );
});
