/**
 * @module The open Try-it panel (island `try-it` loads this module when the reader opens it). It loads the
 * operation's spec (worker/openapi/samples/try-spec.ts): server picker with variables, every parameter
 * prefilled and checked against its schema before sending, the body, the security requirement and its
 * credentials (OAuth through the Worker). Send goes through the portal's proxy (`{base}/playground/send`); the
 * answer shows status and meaning, headers, body, size and timing, the code samples switch to the request sent,
 * and the call joins the operation's history (no credentials kept).
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { serverUrl } from "../../../worker/openapi/samples/servers";
import type { TryParam, TrySpec } from "../../../worker/openapi/samples/try-spec";
import { addHistory, clearHistory, readHistory, type HistoryEntry } from "./history";
import { loadOAuthState, OAuthControls, type OAuthState } from "./oauth";
import { initialFields, LOCAL_MOCK_CREDENTIAL, localMockServer, preferredSecurity } from "./initial-fields";
import { OutcomeView, type Answer, type Outcome } from "./outcome";
import { buildRequest, paramKey, type TryFields } from "./request";
import { checkValue, loadPatternCompiler, needsPatterns, type PatternCompiler } from "./validate";
import { TRY_SENT_EVENT, type TryItProps } from "../types";

const LOCATIONS: TryParam["in"][] = ["path", "query", "header", "cookie"];

/** Why the callback sent the reader back, from `#playground-error=<code>` (contract-oauth.md). */
function oauthErrorFromHash(): string | undefined {
  const m = /(?:^#|&)playground-error=([^&]*)/.exec(location.hash);
  return m ? decodeURIComponent(m[1]!).slice(0, 100) : undefined;
}

function describe(p: TryParam): string {
  const c = p.constraints;
  const bits: string[] = [];
  if (c.type) bits.push(c.type === "array" && c.items?.type ? `${c.items.type}[] (comma-separated)` : c.type);
  if (c.format) bits.push(c.format);
  if (c.minimum !== undefined) bits.push(`≥ ${c.minimum}`);
  if (c.exclusiveMinimum !== undefined) bits.push(`> ${c.exclusiveMinimum}`);
  if (c.maximum !== undefined) bits.push(`≤ ${c.maximum}`);
  if (c.exclusiveMaximum !== undefined) bits.push(`< ${c.exclusiveMaximum}`);
  if (c.minLength !== undefined || c.maxLength !== undefined) bits.push(`${c.minLength ?? 0}…${c.maxLength ?? "∞"} chars`);
  return bits.join(", ");
}

/** The panel's props: the island's, whether the reader came back from an authorization server, and how to close. */
export interface PanelProps extends TryItProps {
  reopened: boolean;
  /** The reader opened it (keyboard or pointer): once the form is there, focus moves to its first control. */
  focusOnLoad?: boolean;
  /** Closes the panel (Close, or Escape inside it); the island gives focus back to its Try it button. */
  onClose: () => void;
}

export default function Panel({ spec: specUrl, base, samples, reopened, focusOnLoad, onClose }: PanelProps) {
  const [spec, setSpec] = useState<TrySpec>();
  const [loadError, setLoadError] = useState<string>();
  const [fields, setFields] = useState<TryFields>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [blocked, setBlocked] = useState<string>();
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [oauth, setOauth] = useState<OAuthState | undefined | "loading">("loading");
  const [oauthError, setOauthError] = useState<string>();
  const compiler = useRef<PatternCompiler | undefined>(undefined);
  const download = useRef<string | undefined>(undefined);
  const root = useRef<HTMLDivElement>(null);
  /** The reader chose a requirement: the OAuth state arriving later no longer re-picks it. */
  const touched = useRef(false);
  /** The OAuth scheme of the last send, and whether the next render should take the reader to its sign-in. */
  const sentAuth = useRef<string | undefined>(undefined);
  const toSignIn = useRef(false);

  const hasOAuth = (s: TrySpec) => Object.values(s.schemes).some((x) => x.type === "oauth2" || x.type === "openIdConnect");
  const refreshOAuth = (s: TrySpec) => { void loadOAuthState({ base, api: s.api, version: s.version }).then(setOauth); };

  const load = async () => {
    try {
      const res = await fetch(specUrl, { credentials: "same-origin", headers: { accept: "application/json" } });
      if (!res.ok) throw new Error(String(res.status));
      const s = (await res.json()) as TrySpec;
      if (s.params.some((p) => needsPatterns(p.constraints))) compiler.current = await loadPatternCompiler().catch(() => undefined);
      // RFC 6761: every name under .localhost is this machine too (npm start's demo.localhost custom domain).
      const local = /^(?:127\.0\.0\.1|localhost|\[::1\])$|\.localhost$/.test(location.hostname);
      setSpec(s);
      setFields(initialFields(s, local));
      setHistory(readHistory(s.api, s.operationId));
      if (hasOAuth(s)) {
        void loadOAuthState({ base, api: s.api, version: s.version }).then((state) => {
          setOauth(state);
          // A scheme the Worker already holds a token for is usable at once (back from signing in, say).
          const authorized = new Set(Object.entries(state?.schemes ?? {}).filter(([, x]) => x.authorized).map(([name]) => name));
          if (authorized.size > 0 && !touched.current) {
            const security = preferredSecurity(s, { mock: localMockServer(s, local) >= 0, authorized });
            setFields((f) => f && { ...f, security });
          }
        });
      }
    } catch {
      setLoadError("Could not load this operation's request form. Reload the page to try again.");
    }
  };

  useEffect(() => {
    if (!toSignIn.current) return;
    const box = root.current?.querySelector<HTMLElement>(".try-oauth");
    if (!box) return;
    toSignIn.current = false;
    box.scrollIntoView({ block: "center" });
    box.querySelector<HTMLElement>("button:not([disabled]), input")?.focus();
  });

  // Keyboard use: the button that opened the panel is gone, so focus goes to the form's first control.
  const focused = useRef(false);
  useEffect(() => {
    if (!focusOnLoad || focused.current || !spec) return;
    focused.current = true;
    root.current?.querySelector<HTMLElement>(".try-form input:not([type=hidden]), .try-form select, .try-form textarea, .try-send")?.focus();
  }, [spec]);

  useEffect(() => {
    // Back from the authorization server: show the callback's error, if it sent one.
    if (reopened) setOauthError(oauthErrorFromHash());
    void load();
    return () => { if (download.current) URL.revokeObjectURL(download.current); };
  }, []);

  if (!spec || !fields) {
    return <div class="try" role="group" aria-label="Try it"><p class={loadError ? "try-err" : "fa"} role={loadError ? "alert" : undefined}>{loadError ?? "Loading…"}</p></div>;
  }

  const set = (patch: Partial<TryFields>) => setFields({ ...fields, ...patch });
  const setValue = (p: TryParam, v: string) => {
    set({ values: { ...fields.values, [paramKey(p)]: v } });
    if (errors[paramKey(p)]) setErrors({ ...errors, [paramKey(p)]: "" });
  };
  const server = spec.servers[fields.server];
  const requirement = fields.security >= 0 ? spec.security[fields.security] ?? [] : [];

  const validate = (): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const p of spec.params) {
      const why = checkValue(fields.values[paramKey(p)] ?? "", p.constraints, p.required, compiler.current);
      if (why) out[paramKey(p)] = `${p.name} ${why}`;
    }
    const b = spec.body;
    if (b?.kind === "json" && (fields.bodyText ?? "").trim() !== "") {
      try { JSON.parse(fields.bodyText!); } catch (e) { out.body = `The body is not valid JSON: ${e instanceof Error ? e.message.slice(0, 120) : "parse error"}`; }
    }
    if (b?.required && (b.kind === "json" || b.kind === "text") && (fields.bodyText ?? "").trim() === "") out.body = "The body is required";
    if (b?.required && b.kind === "binary" && !fields.files?.[""]) out.body = "Choose a file to send as the body";
    return out;
  };

  const send = async () => {
    const found = validate();
    setErrors(found);
    const list = Object.values(found).filter(Boolean);
    if (list.length > 0) {
      setBlocked(`Not sent: ${list.join("; ")}.`);
      return;
    }
    setBlocked(undefined);
    setSending(true);
    const started = performance.now();
    let entry: HistoryEntry;
    try {
      const built = await buildRequest(spec, fields);
      sentAuth.current = built.payload.auth?.scheme;
      const res = await fetch(`${base}/playground/send`, {
        method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify(built.payload),
      });
      const json = (await res.json().catch(() => ({}))) as any;
      const ms = Math.round(performance.now() - started);
      if (res.ok && typeof json.status === "number") {
        setOutcome({ answer: json as Answer, ms });
        entry = { at: new Date().toISOString(), method: spec.method, url: built.safeUrl, status: json.status, ms };
      } else {
        const error = json?.error && typeof json.error.code === "string" ? json.error : { code: `http-${res.status}`, message: `The portal answered ${res.status}.` };
        setOutcome({ error, status: res.status, ms });
        entry = { at: new Date().toISOString(), method: spec.method, url: built.safeUrl, status: 0, error: error.code, ms };
      }
      window.dispatchEvent(new CustomEvent(TRY_SENT_EVENT, { detail: { id: samples, har: built.har } }));
      setHistory(addHistory(spec.api, spec.operationId, entry));
    } catch {
      setOutcome({ error: { code: "network", message: "The portal could not be reached." }, status: 0, ms: Math.round(performance.now() - started) });
    } finally {
      setSending(false);
    }
  };

  /** "Authorize first": the sign-in of the scheme the refused send named, its requirement chosen if need be. */
  const authorizeFirst = () => {
    const scheme = sentAuth.current;
    const i = scheme === undefined ? -1 : spec.security.findIndex((req) => req.some((r) => r.scheme === scheme));
    toSignIn.current = true;
    if (i >= 0 && i !== fields.security) {
      touched.current = true;
      set({ security: i });
    } else setFields({ ...fields }); // a render, for the effect that moves the focus
  };

  const fieldId = (p: TryParam) => `${samples}-try-${p.in}-${p.name}`.replace(/[^A-Za-z0-9_-]/g, "_");

  return (
    <div class="try" role="group" aria-label="Try it" ref={root} onKeyDown={(e) => {
      // Escape closes the panel, unless a control inside used it (an open <details> of the history, say).
      if (e.key === "Escape" && !e.defaultPrevented && !(e.target as Element).closest("details[open]")) {
        e.preventDefault();
        onClose();
      }
    }}>
      <div class="try-head">
        <strong>Try it</strong>
        <button type="button" class="try-link" onClick={onClose}>Close</button>
      </div>
      <form class="try-form" onSubmit={(e) => { e.preventDefault(); void send(); }} noValidate>
        <fieldset>
          <legend>Server</legend>
          <select aria-label="Server" value={String(fields.server)} onChange={(e) => set({ server: Number((e.target as HTMLSelectElement).value), variables: {} })}>
            {spec.servers.map((s, i) => <option value={String(i)}>{serverUrl(s)}{s.description ? ` (${s.description.slice(0, 60)})` : ""}</option>)}
          </select>
          {Object.entries(server?.variables ?? {}).map(([name, v]) => (
            <label>{name}{" "}
              {v.enum ? (
                <select value={fields.variables[name] ?? v.default} onChange={(e) => set({ variables: { ...fields.variables, [name]: (e.target as HTMLSelectElement).value } })}>
                  {v.enum.map((o) => <option value={o}>{o}</option>)}
                </select>
              ) : <input value={fields.variables[name] ?? v.default} onInput={(e) => set({ variables: { ...fields.variables, [name]: (e.target as HTMLInputElement).value } })} />}
            </label>
          ))}
        </fieldset>

        {LOCATIONS.map((loc) => {
          const ps = spec.params.filter((p) => p.in === loc);
          if (ps.length === 0) return null;
          return (
            <fieldset>
              <legend>{loc === "path" ? "Path" : loc === "query" ? "Query" : loc === "header" ? "Headers" : "Cookies"}</legend>
              {ps.map((p) => {
                const key = paramKey(p);
                const c = p.constraints;
                const id = fieldId(p);
                return (
                  <div class="try-field">
                    <label for={id}><code>{p.name}</code>{p.required && <span class="try-req" title="required">*</span>} <span class="fa">{describe(p)}</span></label>
                    {c.enum && c.type !== "array" ? (
                      <select id={id} name={key} value={fields.values[key] ?? ""} onChange={(e) => setValue(p, (e.target as HTMLSelectElement).value)}>
                        {!p.required && <option value="">(not sent)</option>}
                        {c.enum.map((o) => <option value={o}>{o}</option>)}
                      </select>
                    ) : (
                      <input id={id} name={key} value={fields.values[key] ?? ""} placeholder={p.hint ?? ""} spellcheck={false}
                        aria-invalid={errors[key] ? "true" : undefined} onInput={(e) => setValue(p, (e.target as HTMLInputElement).value)} />
                    )}
                    {errors[key] && <p class="try-err">{errors[key]}</p>}
                  </div>
                );
              })}
            </fieldset>
          );
        })}

        {spec.body && spec.method !== "GET" && spec.method !== "HEAD" && (
          <fieldset>
            <legend>Body <code>{spec.body.mediaType}</code>{spec.body.required && <span class="try-req">*</span>}</legend>
            {(spec.body.kind === "json" || spec.body.kind === "text") && (
              <textarea class="try-body" aria-label="Request body" rows={Math.min(20, Math.max(4, (fields.bodyText ?? "").split("\n").length + 1))} spellcheck={false}
                value={fields.bodyText ?? ""} aria-invalid={errors.body ? "true" : undefined}
                onInput={(e) => { set({ bodyText: (e.target as HTMLTextAreaElement).value }); if (errors.body) setErrors({ ...errors, body: "" }); }} />
            )}
            {(spec.body.kind === "form" || spec.body.kind === "multipart") && (spec.body.fields ?? []).map((f) => (
              <div class="try-field">
                <label><code>{f.name}</code>{" "}
                  {f.file
                    ? <input type="file" name={f.name} onChange={(e) => set({ files: { ...fields.files, [f.name]: (e.target as HTMLInputElement).files?.[0] } })} />
                    : <input name={f.name} value={fields.bodyFields?.[f.name] ?? ""} onInput={(e) => set({ bodyFields: { ...fields.bodyFields, [f.name]: (e.target as HTMLInputElement).value } })} />}
                </label>
              </div>
            ))}
            {spec.body.kind === "binary" && (
              <label>File <input type="file" aria-label="Body file" onChange={(e) => set({ files: { ...fields.files, "": (e.target as HTMLInputElement).files?.[0] } })} /></label>
            )}
            {errors.body && <p class="try-err">{errors.body}</p>}
          </fieldset>
        )}

        {spec.security.length > 0 && (
          <fieldset>
            <legend>Authorization</legend>
            <select aria-label="Security requirement" value={String(fields.security)} onChange={(e) => { touched.current = true; set({ security: Number((e.target as HTMLSelectElement).value) }); }}>
              {spec.security.map((req, i) => <option value={String(i)}>{req.length === 0 ? "No authorization" : req.map((r) => r.scheme).join(" + ")}</option>)}
            </select>
            {requirement.map((r) => {
              const s = spec.schemes[r.scheme];
              const cred = fields.credentials[r.scheme] ?? {};
              const setCred = (patch: object) => set({ credentials: { ...fields.credentials, [r.scheme]: { ...cred, ...patch } } });
              if (!s || s.type === "unknown" || s.type === "mutualTLS") return <p class="fa">{r.scheme}: not supported by the panel{s?.type === "mutualTLS" ? " (mutual TLS needs a client certificate)" : ""}.</p>;
              if (s.type === "oauth2" || s.type === "openIdConnect") {
                if (oauth === "loading") return <p class="fa">Checking {r.scheme}…</p>;
                return <OAuthControls name={r.scheme} required={r.scopes} state={oauth?.schemes[r.scheme]} target={{ base, api: spec.api, version: spec.version }} reopen={specUrl} onChanged={() => refreshOAuth(spec)} />;
              }
              if (s.type === "http" && s.scheme === "basic") {
                return (
                  <div class="try-field" data-scheme={r.scheme}>
                    <label>{r.scheme}: user <input autocomplete="off" value={cred.user ?? ""} onInput={(e) => setCred({ user: (e.target as HTMLInputElement).value })} /></label>
                    <label>password <input type="password" autocomplete="off" value={cred.password ?? ""} onInput={(e) => setCred({ password: (e.target as HTMLInputElement).value })} /></label>
                  </div>
                );
              }
              const label = s.type === "apiKey" ? `API key (${s.in} ${s.name})` : `${s.scheme === "bearer" ? "Bearer" : s.scheme} token`;
              return (
                <div class="try-field" data-scheme={r.scheme}>
                  <label>{r.scheme}: {label} <input type="password" autocomplete="off" spellcheck={false} value={cred.value ?? ""} onInput={(e) => setCred({ value: (e.target as HTMLInputElement).value })} /></label>
                  {spec.apiKey && cred.value === spec.apiKey && <p class="fa">Your API key from Authorize.</p>}
                  {!spec.apiKey && cred.value === LOCAL_MOCK_CREDENTIAL && <p class="fa">Any value works on the local mock.</p>}
                </div>
              );
            })}
            {oauthError && <p class="try-err" role="alert">Authorization failed: {oauthError}</p>}
          </fieldset>
        )}

        <p class="try-actions">
          <button type="submit" class="try-send" disabled={sending}>{sending ? "Sending…" : `Send ${spec.method}`}</button>
        </p>
        {blocked && <p class="try-err try-blocked" role="alert">{blocked}</p>}
      </form>

      {outcome && <OutcomeView outcome={outcome} download={download} onAuthorize={authorizeFirst} />}

      {history.length > 0 && (
        <details class="try-history">
          <summary>Your last calls ({history.length})</summary>
          <ol>
            {history.map((h) => (
              <li><span class={`s${String(h.status)[0]}`}>{h.status || h.error}</span> <code>{h.method} {h.url}</code> <span class="fa">{h.ms} ms, {new Date(h.at).toLocaleTimeString()}</span></li>
            ))}
          </ol>
          <button type="button" class="try-link" onClick={() => { clearHistory(spec.api, spec.operationId); setHistory([]); }}>Clear history</button>
        </details>
      )}
    </div>
  );
}
