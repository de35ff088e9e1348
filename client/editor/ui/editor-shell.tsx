/** @module The editing screen: toolbar (views, YAML ⇄ JSON, save), Source and/or Visual view, problems panel. */
import type { LintRuleset } from "../../../worker/openapi/lint/ruleset";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { ApiClient } from "../api-client";
import type { RestOfText } from "../api-client";
import { storedViewMode } from "../early";
import type { EarlyDefinition } from "../early";
import type { EditorProblem } from "../protocol";
import { EditorSession } from "../session";
import type { ViewMode } from "../session";
import { useStore } from "../store";
import { VisualView } from "../visual/visual-view";
import { ProblemsPanel } from "./problems-panel";
import { SourcePane } from "./source-pane";

export interface EditorShellProps {
  portal: string;
  api: string;
  token: string;
  initialText: string;
  /** The rest of the definition, still arriving (the view shows `initialText` read-only until then). */
  rest?: Promise<RestOfText>;
  /** The API has no live version: the text is a template. */
  fresh: boolean;
  workerUrl: string;
  lintRuleset?: LintRuleset;
  /** Where the early Source view had been scrolled to (client/editor/early.ts): the Source view opens there. */
  initialScroll?: EarlyDefinition["scroll"];
  onSignOut: () => void;
}

const MODES: { mode: ViewMode; label: string }[] = [
  { mode: "source", label: "Source" },
  { mode: "visual", label: "Visual" },
  { mode: "split", label: "Split" },
];

export function EditorShell({ portal, api, token, initialText, rest, fresh, workerUrl, lintRuleset, initialScroll, onSignOut }: EditorShellProps) {
  const saveRef = useRef<() => void>(() => {});
  const session = useMemo(() => new EditorSession(initialText, workerUrl, () => saveRef.current(), lintRuleset, rest), []);
  const state = useStore(session.store);
  const [mode, setMode] = useState<ViewMode>(storedViewMode);
  const [saving, setSaving] = useState(false);
  const [published, setPublished] = useState<{ version?: string; url?: string } | undefined>();
  const client = useMemo(() => new ApiClient(token), [token]);

  useEffect(() => {
    (globalThis as { __porticoEditor?: EditorSession }).__porticoEditor = session;
    const warn = (e: BeforeUnloadEvent) => {
      if (session.store.state.dirty) e.preventDefault();
    };
    addEventListener("beforeunload", warn);
    return () => {
      removeEventListener("beforeunload", warn);
      session.destroy();
    };
  }, [session]);

  const choose = (m: ViewMode) => {
    setMode(m);
    localStorage.setItem("portico:editor:view", m);
  };

  saveRef.current = async () => {
    if (saving || session.store.state.loading) return;
    setSaving(true);
    const text = session.text();
    try {
      const answer = await client.publish(api, text, state.format);
      if (answer.status === 201) {
        session.markSaved(text);
        setPublished({ version: answer.version, url: answer.url });
        session.store.set({ notice: { kind: "info", text: `Published version ${answer.version ?? ""}.` } });
      } else if (answer.status === 200 && answer.unchanged) {
        session.markSaved(text);
        session.store.set({ notice: { kind: "info", text: "Nothing to publish: the live version has the same content." } });
      } else if (answer.status === 401) {
        onSignOut();
      } else {
        session.store.set({ notice: { kind: "error", text: `Not published: ${answer.error?.message ?? `HTTP ${answer.status}`}` } });
      }
    } catch (e) {
      session.store.set({ notice: { kind: "error", text: `Not published: ${e instanceof Error ? e.message : String(e)}` } });
    } finally {
      setSaving(false);
    }
  };

  const modeRef = useRef(mode);
  modeRef.current = mode;
  const selectProblem = useCallback((p: EditorProblem) => session.revealProblem(p, modeRef.current === "source"), [session]);
  const other = state.format === "yaml" ? "json" : "yaml";
  return (
    <div class={`ed-app ed-mode-${mode}`}>
      <header class="ed-toolbar">
        <a class="ed-home" href={`/p/${encodeURIComponent(portal)}/editor/`}>Portico editor</a>
        <span class="ed-api">{api}{fresh && !published ? " (new)" : ""}</span>
        <div class="ed-modes" role="group" aria-label="View">
          {MODES.map((m) => (
            <button key={m.mode} type="button" aria-pressed={mode === m.mode} onClick={() => choose(m.mode)}>
              {m.label}
            </button>
          ))}
        </div>
        <button type="button" disabled={state.loading} onClick={() => void session.convert(other)} title="Convert the whole definition">
          Convert to {other.toUpperCase()}
        </button>
        <span class="ed-spacer" />
        {state.loading && <span class="ed-muted" role="status" data-loading>Loading the rest of the definition…</span>}
        {state.dirty && <span class="ed-muted" data-dirty>Unsaved changes</span>}
        {published?.url && (
          <a href={published.url} class="ed-published">
            View version {published.version}
          </a>
        )}
        <button type="button" class="ed-primary" disabled={saving || state.loading} onClick={() => saveRef.current()}>
          {saving ? "Publishing…" : "Save and publish"}
        </button>
        <button type="button" class="ed-link" onClick={onSignOut}>Sign out</button>
      </header>
      {state.notice && (
        <p class={`ed-notice ed-notice-${state.notice.kind}`} role={state.notice.kind === "error" ? "alert" : "status"}>
          {state.notice.text}
          <button type="button" class="ed-link" aria-label="Dismiss" onClick={() => session.store.set({ notice: undefined })}>×</button>
        </p>
      )}
      <main class="ed-main">
        <section class="ed-source" aria-label="Source" hidden={mode === "visual"}>
          <SourcePane session={session} visible={mode !== "visual"} initialScroll={initialScroll} />
        </section>
        {mode !== "source" && (
          <section class="ed-visual" aria-label="Visual">
            <VisualView session={session} model={state.model} problems={state.problems} reveal={state.reveal} followInSource={mode === "split"} />
          </section>
        )}
      </main>
      <ProblemsPanel
        problems={state.problems}
        errors={state.errors}
        warnings={state.warnings}
        stale={state.problemsVersion !== state.version}
        onSelect={selectProblem}
      />
    </div>
  );
}
