/**
 * @module Island `ask-ai`: the top bar's "Ask AI" button (and Ctrl/Cmd-I) opening the assistant panel: a question box,
 * the answer streaming in (`POST {base}/assistant/ask` with `Accept: text/event-stream`: `sources`, `delta`, `done`),
 * its numbered sources (kind, title, section, link), follow-ups in the same thread, "New thread", thumbs up/down per
 * answer (`{base}/assistant/feedback`) and the line naming the model and where it runs. Without script the button is
 * hidden and the search page's "Ask AI" form answers instead (server-rendered).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { AskAiProps } from "../islands/types";
import { answerHtml } from "./markdown";

interface Source {
  kind: string;
  title: string;
  url: string;
  section?: string;
  api?: string;
}
interface Turn {
  question: string;
  answer: string;
  sources: Source[];
  answered?: boolean;
  turn?: number;
  model?: { id: string; provider: string; region: string };
  results?: Array<{ title: string; url: string }>;
  streaming: boolean;
  helpful?: boolean;
  error?: string;
}

const KIND: Record<string, string> = { operation: "Endpoint", guide: "Guide", step: "Steps", changelog: "Changelog", glossary: "Glossary" };

/** Reads an event stream body, calling `on` per event. */
async function readEvents(res: Response, on: (event: string, data: any) => void): Promise<void> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let at: number;
    while ((at = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, at);
      buf = buf.slice(at + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      try {
        on(event, JSON.parse(data));
      } catch {
        // a malformed event is skipped; `done` carries the whole answer anyway
      }
    }
  }
}

/** The button and the panel. */
export default function AskAi({ base }: AskAiProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [threadId, setThreadId] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const open = () => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    input.current?.focus();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "i") {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const update = (i: number, patch: Partial<Turn>) => setTurns((ts) => ts.map((t, k) => (k === i ? { ...t, ...patch } : t)));

  const ask = async (e: Event) => {
    e.preventDefault();
    const question = input.current?.value.trim() ?? "";
    if (!question || busy) return;
    const i = turns.length;
    setTurns((ts) => [...ts, { question, answer: "", sources: [], streaming: true }]);
    input.current!.value = "";
    setBusy(true);
    try {
      const res = await fetch(`${base}/assistant/ask`, {
        method: "POST", credentials: "same-origin",
        headers: { "content-type": "application/json", accept: "text/event-stream" },
        body: JSON.stringify({ question, ...(threadId ? { threadId } : {}) }),
      });
      if (!res.ok || !(res.headers.get("content-type") ?? "").includes("text/event-stream")) {
        const body = (await res.json().catch(() => ({}))) as { error?: { message?: string } };
        if (res.status === 404 && threadId) setThreadId(undefined);
        update(i, { streaming: false, error: body?.error?.message ?? `The assistant answered ${res.status}.` });
        return;
      }
      let text = "";
      await readEvents(res, (event, data) => {
        if (event === "sources") update(i, { sources: data.sources, turn: data.turn });
        else if (event === "delta") update(i, { answer: (text += data.text) });
        else if (event === "done") {
          setThreadId(data.threadId);
          update(i, { answer: data.answer, sources: data.sources, answered: data.answered, turn: data.turn, model: data.model, results: data.results, streaming: false });
        }
      });
    } catch {
      update(i, { streaming: false, error: "The assistant could not be reached. Try again." });
    } finally {
      setBusy(false);
      input.current?.focus();
    }
  };

  const feedback = async (i: number, helpful: boolean) => {
    const t = turns[i];
    if (!t?.turn || !threadId) return;
    update(i, { helpful });
    await fetch(`${base}/assistant/feedback`, { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify({ threadId, turn: t.turn, helpful }) }).catch(() => undefined);
  };

  const model = turns.findLast((t) => t.model)?.model;
  return (
    <>
      <button type="button" class="ask-btn needs-js" onClick={open} aria-haspopup="dialog" aria-keyshortcuts="Control+I Meta+I">
        Ask AI
      </button>
      <dialog ref={dialog} class="ask-panel" aria-labelledby="ask-title">
        <div class="ask-head">
          <h2 id="ask-title">Ask AI</h2>
          <button type="button" class="ask-new" onClick={() => { setTurns([]); setThreadId(undefined); input.current?.focus(); }}>New thread</button>
          <button type="button" class="ask-close" onClick={() => dialog.current?.close()} aria-label="Close">×</button>
        </div>
        <p class="ask-model">
          {model ? <>Answered by {model.id} · {model.provider} · runs in: {model.region}.</> : <>Answers come only from the pages you can open, with their sources.</>}{" "}
          <a href="/legal/subprocessors">Sub-processors</a>
        </p>
        <div class="ask-turns" aria-live="polite" aria-busy={busy ? "true" : "false"}>
          {turns.map((t, i) => (
            <article class="ask-turn" aria-label={`Question ${i + 1}`}>
              <p class="ask-q">{t.question}</p>
              {t.error ? <p class="ask-error" role="alert">{t.error}</p> : (
                <div class="ask-a" dangerouslySetInnerHTML={{ __html: answerHtml(t.answer || (t.streaming ? "…" : ""), t.sources, `ask-${i}-src`) }} />
              )}
              {t.sources.length > 0 && (
                <ol class="ask-sources" aria-label="Sources">
                  {t.sources.map((s, n) => (
                    <li id={`ask-${i}-src-${n + 1}`}>
                      <span class={`sr-badge sr-${s.kind}`}>{KIND[s.kind] ?? s.kind}</span> <a href={s.url}>{s.title}</a>
                      {s.section && <span class="ask-section"> · {s.section}</span>}
                    </li>
                  ))}
                </ol>
              )}
              {t.answered === false && t.results && t.results.length > 0 && (
                <p class="ask-results">Closest pages: {t.results.map((r, n) => <>{n > 0 && ", "}<a href={r.url}>{r.title}</a></>)}</p>
              )}
              {!t.streaming && !t.error && t.turn && (
                <p class="ask-thumbs">
                  <button type="button" aria-pressed={t.helpful === true ? "true" : "false"} onClick={() => feedback(i, true)}>▲ Helpful</button>{" "}
                  <button type="button" aria-pressed={t.helpful === false ? "true" : "false"} onClick={() => feedback(i, false)}>▼ Not helpful</button>
                </p>
              )}
            </article>
          ))}
        </div>
        <form class="ask-form" onSubmit={ask}>
          <label for="ask-input">{turns.length ? "Ask a follow-up" : "Your question"}</label>
          <textarea id="ask-input" ref={input} rows={2} maxLength={2000} placeholder="How do I …?"
            onKeyDown={(e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); (e.currentTarget.form as HTMLFormElement).requestSubmit(); } }} />
          <button type="submit" disabled={busy}>{busy ? "Answering…" : "Ask"}</button>
        </form>
      </dialog>
    </>
  );
}
