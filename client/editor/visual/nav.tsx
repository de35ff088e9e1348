/**
 * @module The Visual view's navigation: sections, operations, webhooks and schemas, with problem counts.
 * Virtualised: a large outline (GitHub's has 1,223 operations and about 900 schemas) keeps only the rows in
 * view (plus a margin) in the DOM, in a scroller as tall as all rows; small outlines render every row.
 */
import { useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import { worstSeverity } from "../problems";
import type { EditorProblem, OutlineEntry } from "../protocol";
import { visibleRange, useViewport, type RowLayout } from "../ui/virtual-rows";

/** Row height in CSS pixels; `.ed-nav-row` in editor.css has the same height (rows must not vary). */
export const NAV_ROW_PX = 26;
/** Outlines with at most this many rows render them all (nothing to gain; tests and find-in-page see every row). */
export const NAV_VIRTUAL_FROM = 200;
/** Rows kept above and below the visible ones (15), so fast scrolling rarely shows blank space. */
const LAYOUT: RowLayout = { rowPx: NAV_ROW_PX, virtualFrom: NAV_VIRTUAL_FROM, overscan: 15 };

type Row = { kind: "head"; title: string; count: number } | { kind: "entry"; entry: OutlineEntry };

/** The rows to render for a scroll position: [first, last) of `total`, all of them for small outlines. */
export function visibleRows(total: number, scrollTop: number, height: number): [number, number] {
  return visibleRange(LAYOUT, total, scrollTop, height);
}

export function Nav({ outline, selected, problemsBySection, onSelect }: { outline: OutlineEntry[]; selected: string; problemsBySection: Map<string, EditorProblem[]>; onSelect: (pointer: string) => void }) {
  const [filter, setFilter] = useState("");
  const rows = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const match = (e: OutlineEntry) => !f || `${e.label} ${e.method ?? ""} ${e.path ?? ""}`.toLowerCase().includes(f);
    const groups = [
      { title: "", entries: outline.filter((e) => e.kind === "general" || e.kind === "servers" || e.kind === "tags" || e.kind === "security") },
      { title: "Operations", entries: outline.filter((e) => e.kind === "operation" && match(e)) },
      { title: "Webhooks", entries: outline.filter((e) => e.kind === "webhook" && match(e)) },
      { title: "Callbacks", entries: outline.filter((e) => e.kind === "callback" && match(e)) },
      { title: "Schemas", entries: outline.filter((e) => e.kind === "schema" && match(e)) },
    ];
    const out: Row[] = [];
    for (const g of groups) {
      if (g.entries.length === 0) continue;
      if (g.title) out.push({ kind: "head", title: g.title, count: g.entries.length });
      for (const entry of g.entries) out.push({ kind: "entry", entry });
    }
    return out;
  }, [outline, filter]);

  const scroller = useRef<HTMLDivElement>(null);
  const { view, measure } = useViewport(scroller, 800);

  // The selected entry (chosen here, or revealed from a problem) is scrolled into view.
  useLayoutEffect(() => {
    const el = scroller.current;
    const index = rows.findIndex((r) => r.kind === "entry" && r.entry.pointer === selected);
    if (!el || index < 0) return;
    const top = index * NAV_ROW_PX;
    if (top < el.scrollTop || top + NAV_ROW_PX > el.scrollTop + el.clientHeight) {
      el.scrollTop = Math.max(0, top - el.clientHeight / 2);
      measure();
    }
  }, [selected, rows]);

  const [first, last] = visibleRows(rows.length, view.top, view.height);
  const virtual = rows.length > NAV_VIRTUAL_FROM;
  return (
    <nav class="ed-nav" aria-label="Definition outline">
      <input type="search" placeholder="Filter" aria-label="Filter operations and schemas" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <div class="ed-nav-scroll" ref={scroller} onScroll={measure} data-rows={rows.length}>
        {/* Styles set through the DOM (CSSOM), which the page's CSP allows; no style attribute is parsed. */}
        <div class="ed-nav-rows" style={virtual ? { height: `${rows.length * NAV_ROW_PX}px` } : undefined}>
          <ul style={virtual ? { transform: `translateY(${first * NAV_ROW_PX}px)` } : undefined}>
            {rows.slice(first, last).map((row, i) =>
              row.kind === "head" ? (
                <li key={`h:${row.title}`} class="ed-nav-row ed-nav-head" aria-posinset={first + i + 1} aria-setsize={rows.length}>
                  <h4>
                    {row.title} <span class="ed-muted">{row.count}</span>
                  </h4>
                </li>
              ) : (
                <li key={row.entry.pointer} class="ed-nav-row" aria-posinset={first + i + 1} aria-setsize={rows.length}>
                  <EntryButton entry={row.entry} selected={row.entry.pointer === selected} problems={problemsBySection.get(row.entry.pointer)} onSelect={onSelect} />
                </li>
              ),
            )}
          </ul>
        </div>
      </div>
    </nav>
  );
}

function EntryButton({ entry: e, selected, problems, onSelect }: { entry: OutlineEntry; selected: boolean; problems: EditorProblem[] | undefined; onSelect: (pointer: string) => void }) {
  const worst = problems && worstSeverity(problems);
  return (
    <button type="button" class={selected ? "ed-nav-item ed-selected" : "ed-nav-item"} aria-current={selected} data-entry={e.pointer} onClick={() => onSelect(e.pointer)}>
      {e.method && <span class={`ed-method ed-m-${e.method}`}>{e.method.toUpperCase()}</span>}
      <span class={e.deprecated ? "ed-deprecated" : ""}>{e.kind === "operation" || e.kind === "webhook" ? e.path : e.kind === "callback" ? `${e.label}: ${e.path}` : e.label}</span>
      {worst && <span class={`ed-count ed-sev-${worst}`}>{problems!.length}</span>}
    </button>
  );
}
