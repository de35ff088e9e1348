/**
 * @module Island `code-samples`: the request in every language of the lazy registry, for the server the reader
 * picks. cURL is bundled (it is also what the server renders, so hydration matches); other generators load on
 * first use.
 */
import { shellCurl } from "@scalar/snippetz/plugins/shell/curl";
import { useEffect, useState } from "preact/hooks";
import { SAMPLE_LANGUAGES, type SnippetPlugin } from "../../worker/openapi/samples/languages";
import { withBodyFromCode } from "../../worker/openapi/samples/body-in-code";
import { printSample } from "../../worker/openapi/samples/print";
import { serverUrl } from "../../worker/openapi/samples/servers";
import { toHar } from "../../worker/openapi/samples/to-har";
import CopyButton from "./copy";
import type { HarRequest } from "../../worker/openapi/samples/types";
import { STORAGE_KEYS, TRY_SENT_EVENT, type CodeSamplesProps } from "./types";

const loaded = new Map<string, SnippetPlugin>([["shell/curl", shellCurl as unknown as SnippetPlugin]]);

function savedLanguage(): string | undefined {
  try {
    return localStorage.getItem(STORAGE_KEYS.language) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Language tabs, server picker with variables, the code, and a copy button. */
export default function CodeSamples({ input: given, id, bodyInCode }: CodeSamplesProps) {
  // The body left out of the props is read back from the cURL code the server rendered, before it re-renders.
  const [input] = useState(() => (bodyInCode && typeof document !== "undefined" ? withBodyFromCode(given, document.getElementById(`${id}-code`)?.textContent) : given));
  const [lang, setLang] = useState(SAMPLE_LANGUAGES[0].id);
  const [server, setServer] = useState(0);
  const [vars, setVars] = useState<Record<string, string>>({});
  const [plugin, setPlugin] = useState<SnippetPlugin | undefined>(loaded.get(lang));
  const [error, setError] = useState<string | undefined>(undefined);
  // The request the Try-it panel last sent from this operation (its TRY_SENT_EVENT), shown until "Back to the example".
  const [sent, setSent] = useState<HarRequest | undefined>(undefined);

  useEffect(() => {
    const saved = savedLanguage();
    if (saved && saved !== lang && SAMPLE_LANGUAGES.some((l) => l.id === saved)) setLang(saved);
  }, []);
  useEffect(() => {
    const onSent = (e: Event) => {
      const detail = (e as CustomEvent<{ id: string; har: HarRequest }>).detail;
      if (detail?.id === id) setSent(detail.har);
    };
    window.addEventListener(TRY_SENT_EVENT, onSent);
    return () => window.removeEventListener(TRY_SENT_EVENT, onSent);
  }, [id]);
  useEffect(() => {
    const known = loaded.get(lang);
    if (known) { setPlugin(known); return; }
    let live = true;
    const entry = SAMPLE_LANGUAGES.find((l) => l.id === lang);
    entry?.load().then((p) => { loaded.set(lang, p); if (live) { setPlugin(p); setError(undefined); } },
      () => { if (live) setError(`Could not load the ${entry.label} generator.`); });
    return () => { live = false; };
  }, [lang]);

  const choose = (next: string) => {
    setLang(next);
    try { localStorage.setItem(STORAGE_KEYS.language, next); } catch { /* not persisted */ }
  };
  const current = input.servers[server];
  const code = plugin && plugin === loaded.get(lang) ? printSample(plugin, sent ?? toHar(input, { server, variables: vars })) : "";
  const codeId = `${id}-code`;
  const active = SAMPLE_LANGUAGES.find((l) => l.id === lang) ?? SAMPLE_LANGUAGES[0];
  return (
    <div class="cs">
      <div class="cs-tabs needs-js" role="tablist" aria-label="Language">
        {SAMPLE_LANGUAGES.map((l) => (
          <button type="button" role="tab" aria-selected={l.id === lang ? "true" : "false"} onClick={() => choose(l.id)}>{l.label}</button>
        ))}
      </div>
      {sent && (
        <p class="cs-sent fa">The request you sent from Try it. <button type="button" class="try-link" onClick={() => setSent(undefined)}>Back to the example</button></p>
      )}
      {!sent && (input.servers.length > 1 || Object.keys(current?.variables ?? {}).length > 0) ? (
        <div class="cs-server needs-js">
          <label>
            Server{" "}
            <select value={String(server)} onChange={(e) => { setServer(Number((e.target as HTMLSelectElement).value)); setVars({}); }}>
              {input.servers.map((s, i) => <option value={String(i)}>{serverUrl(s)}{s.description ? ` (${s.description})` : ""}</option>)}
            </select>
          </label>
          {Object.entries(current?.variables ?? {}).map(([name, v]) => (
            <label>
              {name}{" "}
              {v.enum ? (
                <select value={vars[name] ?? v.default} onChange={(e) => setVars({ ...vars, [name]: (e.target as HTMLSelectElement).value })}>
                  {v.enum.map((o) => <option value={o}>{o}</option>)}
                </select>
              ) : (
                <input value={vars[name] ?? v.default} onInput={(e) => setVars({ ...vars, [name]: (e.target as HTMLInputElement).value })} />
              )}
            </label>
          ))}
        </div>
      ) : null}
      <div class="cs-code">
        <p class="cs-lang">{active.label}</p>
        <pre tabIndex={0}><code id={codeId} data-lang={active.syntax}>{error ?? code}</code></pre>
        <CopyButton target={codeId} />
      </div>
    </div>
  );
}
