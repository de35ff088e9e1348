/**
 * @module The no-script answer page (`GET /p/{portal}/assistant?q=`): the search page's "Ask AI" form lands here and
 * gets the same answer the panel streams, server-rendered in the reader shell: the answer, its numbered sources, the
 * closest pages when it declines, and the model line.
 */
import { renderToString } from "preact-render-to-string";
import { answerHtml } from "../../client/assistant/markdown";
import type { TurnAnswer } from "../assistant/service";
import { minimalChrome } from "./shell/chrome";
import { shellDocument } from "./shell/document";
import { ReaderShell } from "./shell/reader-shell";
import type { ShellChrome } from "./shell/types";

const KIND: Record<string, string> = { operation: "Endpoint", guide: "Guide", step: "Steps", changelog: "Changelog", glossary: "Glossary" };

/** The form asking the assistant (on the search page and on this page). */
export function AskForm({ basePath, question }: { basePath: string; question?: string }) {
  return (
    <form class="sp-form ask-nojs" action={`${basePath}/assistant`} method="get" aria-label="Ask AI">
      <label for="ask-q">Ask AI about these docs</label>{" "}
      <input id="ask-q" type="text" name="q" value={question ?? ""} maxLength={2000} required />
      <button type="submit">Ask</button>
    </form>
  );
}

/** A full HTML document with the answer to `question` (or only the form when there is none yet). */
export function renderAssistantPage(p: { basePath: string; portalName: string; question: string; answer?: TurnAnswer; error?: string; chrome?: ShellChrome }): string {
  const chrome = p.chrome ?? { ...minimalChrome(p.portalName, p.basePath), search: true };
  const a = p.answer;
  const body = renderToString(
    <ReaderShell chrome={chrome} mainClass="search-page" crumbs={[{ title: "Home", href: `${p.basePath}/` }, { title: "Ask AI" }]}>
      <h1>Ask AI</h1>
      <AskForm basePath={p.basePath} question={p.question} />
      {p.error && <p class="sp-error" role="alert">{p.error}</p>}
      {a && (
        <article class="ask-turn">
          <div class="ask-a" dangerouslySetInnerHTML={{ __html: answerHtml(a.answer, a.sources, "src") }} />
          {a.sources.length > 0 && (
            <>
              <h2>Sources</h2>
              <ol class="ask-sources">
                {a.sources.map((s, n) => <li id={`src-${n + 1}`}><span class={`sr-badge sr-${s.kind}`}>{KIND[s.kind] ?? s.kind}</span> <a href={s.url}>{s.title}</a>{s.section && <span class="ask-section"> · {s.section}</span>}</li>)}
              </ol>
            </>
          )}
          {!a.answered && a.results && a.results.length > 0 && <p class="ask-results">Closest pages: {a.results.map((r, n) => <>{n > 0 && ", "}<a href={r.url}>{r.title}</a></>)}</p>}
          <p class="ask-model">Answered by {a.model.id} · {a.model.provider} · runs in: {a.model.region}. <a href="/legal/subprocessors">Sub-processors</a></p>
        </article>
      )}
    </ReaderShell>,
  );
  return shellDocument(chrome, { title: `Ask AI · ${chrome.name}`, noindex: true }, body);
}
