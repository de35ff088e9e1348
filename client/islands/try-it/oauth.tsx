/**
 * @module OAuth 2.0 / OpenID Connect controls of the Try-it panel, per the playground OAuth contract
 * (`{base}/playground/oauth/state|start|token|forget`): tokens stay in the Worker's encrypted cookie, so this
 * only shows whether a scheme is authorized, sends the reader to the authorization endpoint (code + PKCE, done by
 * the Worker), or asks the Worker to exchange client credentials.
 */
import { useState } from "preact/hooks";
import { REOPEN_KEY } from "./oauth-keys";

/** One scheme as `GET …/oauth/state` describes it. */
export interface OAuthSchemeState {
  type: "oauth2" | "openIdConnect";
  flows: string[];
  scopes: Record<string, string>;
  clientId: string | null;
  authorized: boolean;
  grantedScopes: string[];
  expiresAt: string | null;
}

/** `GET …/oauth/state`'s answer. */
export interface OAuthState {
  schemes: Record<string, OAuthSchemeState>;
}

/** Where the panel reaches the OAuth routes, and for which API version. */
export interface OAuthTarget {
  base: string;
  api: string;
  version: string;
}


/** Loads the schemes' state; undefined when the portal answers none (no OAuth routes, an error). */
export async function loadOAuthState(t: OAuthTarget): Promise<OAuthState | undefined> {
  try {
    const res = await fetch(`${t.base}/playground/oauth/state?${new URLSearchParams({ api: t.api, version: t.version })}`, { credentials: "same-origin" });
    if (!res.ok) return undefined;
    const json = (await res.json()) as OAuthState;
    return json && typeof json.schemes === "object" ? json : undefined;
  } catch {
    return undefined;
  }
}

async function postJson(url: string, body: unknown): Promise<{ ok: boolean; json: any }> {
  const res = await fetch(url, { method: "POST", credentials: "same-origin", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  let json: any = {};
  try { json = res.status === 204 ? {} : await res.json(); } catch { /* not JSON */ }
  return { ok: res.ok, json };
}

/** Controls for one OAuth scheme of the chosen requirement; `required` are the scopes the operation asks for. */
export function OAuthControls({ name, required, state, target, reopen, onChanged }: {
  name: string; required: string[]; state: OAuthSchemeState | undefined; target: OAuthTarget;
  /** What marks the panel to reopen after the redirect (its spec URL). */
  reopen: string;
  onChanged: () => void;
}) {
  const [scopes, setScopes] = useState<string[]>(required);
  const [clientId, setClientId] = useState(state?.clientId ?? "");
  const [secret, setSecret] = useState("");
  const [message, setMessage] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!state) return <p class="fa try-oauth" role="note">OAuth sign-in for <code>{name}</code> is not available on this portal.</p>;
  const all = [...new Set([...Object.keys(state.scopes), ...required])];
  const toggle = (s: string) => setScopes(scopes.includes(s) ? scopes.filter((x) => x !== s) : [...scopes, s]);
  const code = state.type === "openIdConnect" || state.flows.includes("authorizationCode");
  const credentials = state.flows.includes("clientCredentials");

  const authorize = async () => {
    try { sessionStorage.setItem(REOPEN_KEY, reopen); } catch { /* the panel stays closed on return */ }
    const q = new URLSearchParams({ api: target.api, version: target.version, scheme: name, scopes: scopes.join(" "), return: location.pathname + location.search });
    if (clientId) q.set("clientId", clientId);
    // Without a secret, a GET navigation: the page's CSP (`form-action 'self'`) would stop a form post from
    // following the Worker's redirect to the authorization server. With one (a confidential client), the secret
    // must not ride in a URL, so a script posts it and then navigates to the authorization URL it gets back.
    if (!secret) return location.assign(`${target.base}/playground/oauth/start?${q}`);
    q.set("clientSecret", secret);
    setBusy(true);
    setMessage(undefined);
    try {
      const res = await fetch(`${target.base}/playground/oauth/start`, { method: "POST", credentials: "same-origin", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: q.toString() });
      const json: any = await res.json().catch(() => ({}));
      if (res.ok && typeof json.location === "string") return location.assign(json.location);
      setMessage(`Sign-in not started: ${json?.error?.message ?? json?.error?.code ?? "the portal refused"}`);
    } catch {
      setMessage("Sign-in not started: the portal did not answer.");
    } finally {
      setBusy(false);
    }
  };
  const exchange = async () => {
    setBusy(true);
    setMessage(undefined);
    try {
      const { ok, json } = await postJson(`${target.base}/playground/oauth/token`, { api: target.api, version: target.version, scheme: name, clientId, clientSecret: secret, scopes });
      setMessage(ok ? undefined : `Token not issued: ${json?.error?.message ?? json?.error?.code ?? "the portal refused"}`);
      if (ok) { setSecret(""); onChanged(); }
    } catch {
      setMessage("Token not issued: the portal did not answer.");
    } finally {
      setBusy(false);
    }
  };
  const forget = async () => {
    await postJson(`${target.base}/playground/oauth/forget`, { api: target.api, version: target.version, scheme: name }).catch(() => undefined);
    onChanged();
  };

  return (
    <div class="try-oauth" data-scheme={name}>
      <p class="fa">
        <code>{name}</code> ({state.type === "openIdConnect" ? "OpenID Connect" : "OAuth 2.0"}):{" "}
        {state.authorized
          ? <span class="try-ok">authorized{state.grantedScopes.length > 0 ? ` for ${state.grantedScopes.join(" ")}` : ""}{state.expiresAt ? `, until ${new Date(state.expiresAt).toLocaleTimeString()}` : ""}</span>
          : "not authorized"}
        {state.authorized && <> <button type="button" class="try-link" onClick={forget}>Forget token</button></>}
      </p>
      {all.length > 0 && (
        <fieldset class="try-scopes">
          <legend>Scopes</legend>
          {all.map((s) => (
            <label title={state.scopes[s] ?? ""}><input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}</label>
          ))}
        </fieldset>
      )}
      <label>Client ID <input value={clientId} autocomplete="off" spellcheck={false} onInput={(e) => setClientId((e.target as HTMLInputElement).value)} /></label>
      {(credentials || code) && <label>Client secret{credentials ? "" : " (confidential clients only)"} <input type="password" value={secret} autocomplete="off" onInput={(e) => setSecret((e.target as HTMLInputElement).value)} /></label>}
      <p class="try-actions">
        {code && <button type="button" onClick={() => void authorize()} disabled={busy || !clientId}>Authorize</button>}
        {credentials && <button type="button" onClick={exchange} disabled={busy || !clientId}>Get token (client credentials)</button>}
      </p>
      {message && <p class="try-err" role="alert">{message}</p>}
      <p class="fa">Tokens stay with the portal (an encrypted cookie); this page never sees them.</p>
    </div>
  );
}
