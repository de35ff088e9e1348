/** @module Form fields of the Visual view: each edits one node by JSON Pointer and shows that node's problems. */
import { useEffect, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { fromPointer } from "../pointer";
import { worstSeverity } from "../problems";
import type { EditorProblem } from "../protocol";
import { useForm } from "./form-context";

/** A problem count badge; its title lists the messages. */
export function Badge({ problems }: { problems: readonly EditorProblem[] | undefined }) {
  if (!problems || problems.length === 0) return null;
  const worst = worstSeverity(problems)!;
  return (
    <span class={`ed-badge ed-sev-${worst}`} title={problems.map((p) => `${p.rule}: ${p.message}`).join("\n")} data-rules={problems.map((p) => p.rule).join(" ")}>
      {problems.length} {problems.length === 1 ? problems[0].rule : "problems"}
    </span>
  );
}

function Label({ label, pointer, children }: { label: string; pointer: string; children: ComponentChildren }) {
  const { problemsByField } = useForm();
  const problems = problemsByField.get(pointer);
  return (
    <div class={`ed-field${problems?.length ? " ed-has-problems" : ""}`}>
      <span class="ed-label">
        {label} <Badge problems={problems} />
      </span>
      {children}
    </div>
  );
}

/** Text input (or textarea) bound to a scalar; writes on every keystroke. */
export function TextField({ label, pointer, value, multiline, placeholder }: { label: string; pointer: string; value: unknown; multiline?: boolean; placeholder?: string }) {
  const { session, followInSource } = useForm();
  const [local, setLocal] = useState<string | null>(null);
  const shown = local ?? (value == null || typeof value === "object" ? "" : String(value));
  const props = {
    "data-pointer": pointer,
    "aria-label": label,
    value: shown,
    placeholder,
    onFocus: (e: FocusEvent) => {
      setLocal(shown);
      // A field focused because a problem was selected must not move the Source cursor off the problem's line.
      if (followInSource && !(e.currentTarget as HTMLElement).dataset.revealing) session.revealPointer(pointer);
    },
    onBlur: () => setLocal(null),
    onInput: (e: Event) => {
      const v = (e.currentTarget as HTMLInputElement).value;
      setLocal(v);
      session.setValue(pointer, v);
    },
  };
  return <Label label={label} pointer={pointer}>{multiline ? <textarea rows={Math.min(12, Math.max(3, shown.split("\n").length + 1))} {...props} /> : <input type="text" {...props} />}</Label>;
}

/**
 * Checkbox bound to a boolean. The click shows at once: until the model read back from the text has the new
 * value (a new key needs a structural edit and a fresh model), the box keeps what was clicked rather than
 * flicking back.
 */
export function CheckField({ label, pointer, value }: { label: string; pointer: string; value: unknown }) {
  const { session } = useForm();
  const [local, setLocal] = useState<boolean | null>(null);
  useEffect(() => setLocal(null), [value]);
  return (
    <Label label={label} pointer={pointer}>
      <input
        type="checkbox"
        data-pointer={pointer}
        aria-label={label}
        checked={local ?? value === true}
        onChange={(e) => {
          const checked = e.currentTarget.checked;
          setLocal(checked);
          session.setValue(pointer, checked);
        }}
      />
    </Label>
  );
}

/** Select bound to a string scalar; an empty choice removes the value. */
export function SelectField({ label, pointer, value, options }: { label: string; pointer: string; value: unknown; options: readonly string[] }) {
  const { session } = useForm();
  const current = typeof value === "string" ? value : "";
  const all = current && !options.includes(current) ? [current, ...options] : options;
  return (
    <Label label={label} pointer={pointer}>
      <select
        data-pointer={pointer}
        aria-label={label}
        value={current}
        onChange={(e) => {
          const v = e.currentTarget.value;
          if (v === "") void session.structural({ op: "delete", path: fromPointer(pointer) });
          else session.setValue(pointer, v);
        }}
      >
        <option value="">—</option>
        {all.map((o) => (
          <option key={o} value={o}>{o}</option>
        ))}
      </select>
    </Label>
  );
}

/**
 * Comma-separated list bound to an array; written when the field is left or Enter is pressed. `numeric`: items
 * that read as numbers are written as numbers (an enum of an integer schema).
 */
export function ListField({ label, pointer, value, placeholder, numeric, keepEmpty }: { label: string; pointer: string; value: unknown; placeholder?: string; numeric?: boolean; keepEmpty?: boolean }) {
  const { session } = useForm();
  const items = Array.isArray(value) ? value.map(String) : [];
  const [local, setLocal] = useState<string | null>(null);
  const commit = () => {
    if (local === null) return;
    const next = local.split(",").map((s) => s.trim()).filter(Boolean);
    setLocal(null);
    if (next.join(",") === items.join(",")) return;
    const typed = numeric ? next.map((s) => (NUMBER.test(s) ? Number(s) : s)) : next;
    // `keepEmpty`: an empty list is a value of its own (a security requirement's scopes), not an absent field.
    void session.structural(next.length || keepEmpty ? { op: "set", path: fromPointer(pointer), value: typed } : { op: "delete", path: fromPointer(pointer) });
  };
  return (
    <Label label={label} pointer={pointer}>
      <input
        type="text"
        data-pointer={pointer}
        aria-label={label}
        placeholder={placeholder}
        value={local ?? items.join(", ")}
        onInput={(e) => setLocal(e.currentTarget.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === "Enter" && commit()}
      />
    </Label>
  );
}

/** A JSON number as written (no hex, no leading `+`, no trailing dot). */
const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Number input bound to a numeric keyword (`minimum`, `maxLength`…): written as a number while it reads as
 * one, removed when emptied; anything else stays in the field, unwritten, marked invalid.
 */
export function NumberField({ label, pointer, value }: { label: string; pointer: string; value: unknown }) {
  const { session, followInSource } = useForm();
  const [local, setLocal] = useState<string | null>(null);
  const shown = local ?? (typeof value === "number" ? String(value) : "");
  const invalid = local !== null && local.trim() !== "" && !NUMBER.test(local.trim());
  return (
    <Label label={label} pointer={pointer}>
      <input
        type="text"
        inputMode="decimal"
        data-pointer={pointer}
        aria-label={label}
        aria-invalid={invalid}
        value={shown}
        onFocus={(e) => {
          setLocal(shown);
          if (followInSource && !(e.currentTarget as HTMLElement).dataset.revealing) session.revealPointer(pointer);
        }}
        onBlur={() => setLocal(null)}
        onInput={(e) => {
          const raw = e.currentTarget.value;
          setLocal(raw);
          const v = raw.trim();
          if (v === "") {
            if (value !== undefined) void session.structural({ op: "delete", path: fromPointer(pointer) });
          } else if (NUMBER.test(v)) session.setValue(pointer, Number(v));
        }}
      />
    </Label>
  );
}

/** A small button that applies a structural edit. */
export function EditButton({ label, onClick, danger }: { label: string; onClick: () => void; danger?: boolean }) {
  return (
    <button type="button" class={danger ? "ed-btn ed-danger" : "ed-btn"} onClick={onClick}>
      {label}
    </button>
  );
}
