/**
 * @module The Visual view: navigation plus the form of the selected entry. Asks the session for the model of
 * the nodes on screen; moves to a problem's field when one is selected.
 */
import { memo } from "preact/compat";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { fieldForPointer, problemFieldPointer, sectionFinder, sectionForPointer } from "../problems";
import type { EditorProblem, OutlineEntry, VisualModel } from "../protocol";
import type { EditorSession, SessionState } from "../session";
import { FormContext } from "./form-context";
import type { FormContextValue } from "./form-context";
import { GeneralForm } from "./general-form";
import { AddEntry } from "./add-entry";
import { Nav } from "./nav";
import { OperationForm } from "./operation-form";
import { SchemaForm } from "./schema-form";
import { ServersForm } from "./servers-form";
import { TagsForm } from "./tags-form";
import { SecurityForm, schemesPointer } from "./security-form";

/** The nodes an outline entry's form reads. */
export function pointersFor(entry: Pick<OutlineEntry, "kind" | "pointer"> | undefined, spec: VisualModel["specVersion"]): string[] {
  if (!entry || entry.kind === "general") return ["/info"];
  if (entry.kind === "servers") return spec === "2.0" ? ["/host", "/basePath", "/schemes"] : ["/servers"];
  // Security: the schemes and the document's default requirements; operations: their node and the scheme
  // names their requirements can choose from.
  if (entry.kind === "security") return [schemesPointer(spec), "/security"];
  if (entry.kind === "operation" || entry.kind === "webhook" || entry.kind === "callback") return [entry.pointer, schemesPointer(spec)];
  return [entry.pointer];
}

export interface VisualViewProps {
  session: EditorSession;
  model: SessionState["model"];
  problems: SessionState["problems"];
  reveal: SessionState["reveal"];
  followInSource: boolean;
}

/** Memoised: keystrokes change the text version, not these props, so forms re-render only with a new model. */
export const VisualView = memo(function VisualView({ session, model, problems, reveal, followInSource }: VisualViewProps) {
  const [selected, setSelected] = useState("/info");
  const pendingFocus = useRef<string | undefined>(undefined);
  const formRef = useRef<HTMLDivElement>(null);
  const entry = model?.outline.find((e) => e.pointer === selected) ?? (model?.outline.length ? model.outline[0] : undefined);
  const pointers = pointersFor(entry ?? { kind: "general", pointer: "/info" }, model?.specVersion);
  const pointersKey = pointers.join("\n");

  useEffect(() => {
    session.setVisual(true, pointers);
  }, [pointersKey]);
  useEffect(() => () => session.setVisual(false, []), []);

  const { problemsByField, problemsBySection } = useMemo(() => group(problems, model?.outline ?? []), [problems, model?.outline]);

  // A selected problem: open its section, then focus its field once the section's model has arrived.
  useEffect(() => {
    if (!reveal || !model) return;
    const section = sectionForPointer(model.outline, reveal.pointer);
    if (section) setSelected(section.pointer);
    pendingFocus.current = reveal.pointer;
  }, [reveal?.seq]);
  useEffect(() => {
    const target = pendingFocus.current;
    if (!target || !formRef.current || !model || model.pointers.join("\n") !== pointersKey) return;
    // After collapsed parts have opened (their state updates render before a timeout fires).
    const timer = setTimeout(() => {
      const root = formRef.current;
      if (!root || pendingFocus.current !== target) return;
      const fields = [...root.querySelectorAll<HTMLElement>("[data-pointer]")];
      const best = fieldForPointer(fields.map((f) => f.dataset.pointer!), target);
      const el = best ? fields.find((f) => f.dataset.pointer === best) : undefined;
      if (!el) return;
      pendingFocus.current = undefined;
      el.scrollIntoView({ block: "center" });
      el.dataset.revealing = "1";
      el.focus({ preventScroll: true });
      delete el.dataset.revealing;
      el.classList.add("ed-flash");
      setTimeout(() => el.classList.remove("ed-flash"), 1200);
    }, 0);
    return () => clearTimeout(timer);
  });

  if (!model) return <p class="ed-status" role="status">Reading the definition…</p>;
  const ctx: FormContextValue = { session, model, problemsByField, navigate: setSelected, followInSource, revealPointer: reveal?.pointer };
  const sectionProblems = entry ? problemsBySection.get(entry.pointer) ?? [] : [];
  return (
    <FormContext.Provider value={ctx}>
      <div class="ed-visual-inner">
        <div class="ed-nav-col">
          <Nav outline={model.outline} selected={entry?.pointer ?? ""} problemsBySection={problemsBySection} onSelect={setSelected} />
          <AddEntry />
        </div>
        <div class="ed-form" ref={formRef}>
          {model.parseError && (
            <p class="ed-error" role="alert">
              Line {model.parseError.line}: {model.parseError.message}. The forms show the last part that parsed.
            </p>
          )}
          <h2>
            {entry?.method && <span class={`ed-method ed-m-${entry.method}`}>{entry.method.toUpperCase()}</span>} {entry?.kind === "operation" || entry?.kind === "webhook" || entry?.kind === "callback" ? entry.path : entry?.label}
            {sectionProblems.length > 0 && <span class="ed-muted"> · {sectionProblems.length} problem{sectionProblems.length === 1 ? "" : "s"}</span>}
          </h2>
          {/* Forms read only a model built for their own nodes: never show a section with another section's values. */}
          {model.pointers.join("\n") === pointersKey ? <Form entry={entry} /> : <p class="ed-status" role="status">Reading…</p>}
        </div>
      </div>
    </FormContext.Provider>
  );
});

function Form({ entry }: { entry: OutlineEntry | undefined }) {
  switch (entry?.kind) {
    case undefined:
    case "general":
      return <GeneralForm />;
    case "servers":
      return <ServersForm />;
    case "tags":
      return <TagsForm />;
    case "operation":
    case "webhook":
    case "callback":
      return <OperationForm key={entry.pointer} pointer={entry.pointer} />;
    case "schema":
      return <SchemaForm key={entry.pointer} pointer={entry.pointer} />;
    case "security":
      return <SecurityForm />;
    default:
      return null;
  }
}

function group(problems: readonly EditorProblem[], outline: readonly OutlineEntry[]) {
  const problemsByField = new Map<string, EditorProblem[]>();
  const problemsBySection = new Map<string, EditorProblem[]>();
  const sectionOf = sectionFinder(outline);
  for (const p of problems) {
    const field = problemFieldPointer(p);
    const list = problemsByField.get(field) ?? [];
    if (list.length === 0) problemsByField.set(field, list);
    list.push(p);
    const section = sectionOf(field);
    if (!section) continue;
    const inSection = problemsBySection.get(section.pointer) ?? [];
    if (inSection.length === 0) problemsBySection.set(section.pointer, inSection);
    inSection.push(p);
  }
  return { problemsByField, problemsBySection };
}
