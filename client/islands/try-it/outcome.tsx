/** @module The Try-it panel's answer view: status and meaning, timing, headers and body, or the portal's refusal. */
import { bodyView, formatSize, fromBase64, statusMeaning } from "./response";

/** The proxy's answer (docs/playground.md). */
export interface Answer {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string;
  bodyEncoding: "utf8" | "base64";
  size: number;
  truncated?: boolean;
  timing: { totalMs: number; upstreamMs: number };
}

export type Outcome = { answer: Answer; ms: number } | { error: { code: string; message: string }; status: number; ms: number };

/**
 * The answer to one send: the upstream's response, or why the portal did not send it. A `no-token` refusal (an
 * OAuth scheme the Worker holds no token for) ends in a button to the scheme's sign-in, `onAuthorize`.
 */
export function OutcomeView({ outcome, download, onAuthorize }: { outcome: Outcome; download: { current?: string }; onAuthorize: () => void }) {
  if ("error" in outcome) {
    const { code, message } = outcome.error;
    // The Worker's message ends "authorize first" or "authorize again" (routes/playground.ts): that part becomes the button.
    const ask = code === "no-token" ? /:\s*authori[sz]e (first|again)\.?$/i.exec(message) : null;
    const button = code === "no-token" ? `Authorize ${ask?.[1]?.toLowerCase() ?? "first"}` : undefined;
    return (
      <div class="try-res" role="status">
        <p class="try-err">Not sent by the portal{outcome.status ? ` (${outcome.status})` : ""}: <code>{code}</code> {ask ? message.slice(0, ask.index) : message}
          {button && <> <button type="button" class="try-auth-first" onClick={onAuthorize}>{button}</button></>}</p>
        <p class="fa try-timing">Total {outcome.ms} ms</p>
      </div>
    );
  }
  const a = outcome.answer;
  const view = bodyView(a.body, a.bodyEncoding, a.headers["content-type"]);
  let href: string | undefined;
  if (view.kind === "download") {
    if (download.current) URL.revokeObjectURL(download.current);
    href = download.current = URL.createObjectURL(new Blob([fromBase64(a.body)], { type: view.type }));
  }
  return (
    <div class="try-res" role="status">
      <p class="try-status"><span class={`s${String(a.status)[0]}`}>{a.status}</span> {a.statusText ? <code>{a.statusText}</code> : null} {statusMeaning(a.status)}</p>
      <p class="fa try-timing">
        Total {outcome.ms} ms (portal {a.timing.totalMs} ms, of which upstream {a.timing.upstreamMs} ms) · {formatSize(a.size)}{a.truncated ? " (truncated)" : ""}
      </p>
      <details class="try-headers" open>
        <summary>Headers ({Object.keys(a.headers).length})</summary>
        <dl>{Object.entries(a.headers).map(([k, v]) => <><dt>{k}</dt><dd>{v}</dd></>)}</dl>
      </details>
      {view.kind === "text" && <pre class="try-out" tabIndex={0}><code data-lang={view.lang}>{view.text}</code></pre>}
      {view.kind === "image" && <img class="try-img" src={view.src} alt="Response image" />}
      {view.kind === "download" && <p><a href={href} download="response">Download the body</a> <span class="fa">({view.type})</span></p>}
      {view.kind === "empty" && <p class="fa">No body.</p>}
    </div>
  );
}
