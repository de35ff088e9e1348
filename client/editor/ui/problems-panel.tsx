/**
 * @module The problems panel: severity, rule, message and line of every problem; selecting one reveals it.
 * Virtualised: a long list (GitHub's description has 859 problems) keeps only the rows in view (plus a margin)
 * in the DOM, between two spacer rows that give the table its full height, so a new diagnostics version
 * re-renders and lays out a screenful of rows, not hundreds. Rows are reached with the keyboard as before (Tab
 * into the list, Arrow keys, Home/End, Page Up/Down, Enter to reveal); the table states its full row count
 * (`aria-rowcount`) and each row its place (`aria-rowindex`) for screen readers.
 */
import { memo } from "preact/compat";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { EditorProblem, Severity } from "../protocol";
import { visibleRange, useViewport, type RowLayout } from "./virtual-rows";

/** Row height in CSS pixels; `.ed-problem` in editor.css has the same height (rows must not vary). */
export const PROBLEM_ROW_PX = 24;
/** Lists with at most this many problems render every row (tests and find-in-page see them all). */
export const PROBLEMS_VIRTUAL_FROM = 200;
/** Rows kept above and below the visible ones (10), so fast scrolling rarely shows blank space. */
const LAYOUT: RowLayout = { rowPx: PROBLEM_ROW_PX, virtualFrom: PROBLEMS_VIRTUAL_FROM, overscan: 10 };
const LABEL: Record<Severity, string> = { error: "Error", warn: "Warning", info: "Info", hint: "Hint" };

/** The rows to render for a scroll position (`scrollTop` measured from the first row): [first, last) of `total`. */
export function visibleProblemRows(total: number, scrollTop: number, height: number): [number, number] {
  return visibleRange(LAYOUT, total, scrollTop, height);
}

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

/** The rows; memoised so typing (which changes only the version) does not re-render the list. */
const ProblemTable = memo(function ProblemTable({ problems, onSelect }: { problems: EditorProblem[]; onSelect: (p: EditorProblem) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  /** The row to focus once rendered (keyboard navigation may move to a row not in the DOM yet). */
  const pendingFocus = useRef<number | undefined>(undefined);
  const head = () => scroller.current?.querySelector("thead")?.getBoundingClientRect().height ?? 0;
  const { view, measure } = useViewport(scroller, 300, head);
  useLayoutEffect(() => {
    const index = pendingFocus.current;
    if (index === undefined) return;
    const row = scroller.current?.querySelector<HTMLElement>(`tr[data-index="${index}"]`);
    if (row) {
      pendingFocus.current = undefined;
      row.focus({ preventScroll: true });
    }
  });

  const total = problems.length;
  const virtual = total > PROBLEMS_VIRTUAL_FROM;
  const [first, last] = visibleProblemRows(total, view.top, view.height);

  /** Moves the focus to row `index`, scrolling it into view (and into the DOM) first. */
  const focusRow = (index: number) => {
    const el = scroller.current;
    if (!el || total === 0) return;
    const i = Math.max(0, Math.min(total - 1, index));
    const top = head() + i * PROBLEM_ROW_PX;
    const sticky = head();
    if (top - sticky < el.scrollTop) el.scrollTop = top - sticky;
    else if (top + PROBLEM_ROW_PX > el.scrollTop + el.clientHeight) el.scrollTop = top + PROBLEM_ROW_PX - el.clientHeight;
    pendingFocus.current = i;
    const row = el.querySelector<HTMLElement>(`tr[data-index="${i}"]`);
    if (row) {
      pendingFocus.current = undefined;
      row.focus({ preventScroll: true });
    }
    measure();
  };
  const onKeyDown = (e: KeyboardEvent, i: number) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? PROBLEM_ROW_PX) / PROBLEM_ROW_PX) - 1);
    const to = e.key === "ArrowDown" ? i + 1 : e.key === "ArrowUp" ? i - 1 : e.key === "PageDown" ? i + page : e.key === "PageUp" ? i - page : e.key === "Home" ? 0 : e.key === "End" ? total - 1 : undefined;
    if (e.key === "Enter") {
      // Selecting focuses the Source view: the key's default action would then type a line break there.
      e.preventDefault();
      onSelect(problems[i]);
    } else if (to !== undefined) {
      e.preventDefault();
      focusRow(to);
    }
  };

  return (
    <div class="ed-problems-scroll" ref={scroller} onScroll={measure} data-rows={total}>
      <table aria-rowcount={total + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" class="ed-col-sev">Severity</th>
            <th scope="col" class="ed-col-rule">Rule</th>
            <th scope="col">Message</th>
            <th scope="col" class="ed-col-line">Line</th>
          </tr>
        </thead>
        <tbody>
          {/* Spacers: styles set through the DOM (CSSOM), which the page's CSP allows; no style attribute is parsed. */}
          {virtual && first > 0 && <tr class="ed-problems-spacer" aria-hidden="true" style={{ height: `${first * PROBLEM_ROW_PX}px` }} />}
          {problems.slice(first, last).map((p, k) => {
            const i = first + k;
            return (
              <tr key={`${p.rule}:${p.line}:${p.column}:${i}`} class="ed-problem" data-rule={p.rule} data-line={p.line} data-index={i} aria-rowindex={i + 2} tabIndex={0} onClick={() => onSelect(p)} onKeyDown={(e) => onKeyDown(e, i)}>
                <td class={`ed-sev-${p.severity}`}>{LABEL[p.severity]}</td>
                <td title={p.rule}>
                  <code>{p.rule}</code>
                </td>
                <td title={p.message}>{p.message}</td>
                <td>{p.line}</td>
              </tr>
            );
          })}
          {virtual && last < total && <tr class="ed-problems-spacer" aria-hidden="true" style={{ height: `${(total - last) * PROBLEM_ROW_PX}px` }} />}
        </tbody>
      </table>
      {total === 0 && <p class="ed-muted">No problems.</p>}
    </div>
  );
});
