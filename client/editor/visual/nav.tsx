/** @module The Visual view's navigation: sections, operations, webhooks and schemas, with problem counts. */
import { useMemo, useState } from "preact/hooks";
import { worstSeverity } from "../problems";
import type { EditorProblem, OutlineEntry } from "../protocol";

/** Entries shown at most before the filter must narrow them (large definitions have thousands). */
const MAX_SHOWN = 600;

export function Nav({ outline, selected, problemsBySection, onSelect }: { outline: OutlineEntry[]; selected: string; problemsBySection: Map<string, EditorProblem[]>; onSelect: (pointer: string) => void }) {
  const [filter, setFilter] = useState("");
  const groups = useMemo(() => {
    const f = filter.trim().toLowerCase();
    const match = (e: OutlineEntry) => !f || `${e.label} ${e.method ?? ""} ${e.path ?? ""}`.toLowerCase().includes(f);
    return [
      { title: "", entries: outline.filter((e) => e.kind === "general" || e.kind === "servers" || e.kind === "tags" || e.kind === "security") },
      { title: "Operations", entries: outline.filter((e) => e.kind === "operation" && match(e)) },
      { title: "Webhooks", entries: outline.filter((e) => e.kind === "webhook" && match(e)) },
      { title: "Callbacks", entries: outline.filter((e) => e.kind === "callback" && match(e)) },
      { title: "Schemas", entries: outline.filter((e) => e.kind === "schema" && match(e)) },
    ];
  }, [outline, filter]);
  let shown = 0;
  return (
    <nav class="ed-nav" aria-label="Definition outline">
      <input type="search" placeholder="Filter" aria-label="Filter operations and schemas" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      {groups.map((g) =>
        g.entries.length === 0 ? null : (
          <div key={g.title}>
            {g.title && <h4>{g.title} <span class="ed-muted">{g.entries.length}</span></h4>}
            <ul>
              {g.entries.map((e) => {
                if (++shown > MAX_SHOWN) return null;
                const problems = problemsBySection.get(e.pointer);
                const worst = problems && worstSeverity(problems);
                return (
                  <li key={e.pointer}>
                    <button type="button" class={e.pointer === selected ? "ed-nav-item ed-selected" : "ed-nav-item"} aria-current={e.pointer === selected} data-entry={e.pointer} onClick={() => onSelect(e.pointer)}>
                      {e.method && <span class={`ed-method ed-m-${e.method}`}>{e.method.toUpperCase()}</span>}
                      <span class={e.deprecated ? "ed-deprecated" : ""}>{e.kind === "operation" || e.kind === "webhook" ? e.path : e.kind === "callback" ? `${e.label}: ${e.path}` : e.label}</span>
                      {worst && <span class={`ed-count ed-sev-${worst}`}>{problems!.length}</span>}
                    </button>
                  </li>
                );
              })}
            </ul>
          </div>
        ),
      )}
      {shown > MAX_SHOWN && <p class="ed-muted">{shown - MAX_SHOWN} more: type to filter.</p>}
    </nav>
  );
}
