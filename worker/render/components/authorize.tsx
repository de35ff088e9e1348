/**
 * @module The Authorize control of the top bar ("API key once"): a disclosure with a form that stores the
 * reader's API key (POST, works without script), or, once stored, the key's last characters and a Clear button.
 * The key itself is never printed here: the code samples carry it, this control only says that they do.
 */
import type { AuthorizeState } from "../types";

/** `sk_live_…abcd`: enough to recognise one's own key, not enough to read it over a shoulder. */
export function maskApiKey(key: string): string {
  return key.length <= 8 ? "•".repeat(key.length) : `${"•".repeat(6)}${key.slice(-4)}`;
}

export function Authorize({ state }: { state: AuthorizeState }) {
  const set = state.apiKey !== undefined;
  return (
    <details class="authz" data-authorized={set ? "true" : "false"}>
      <summary>{set ? "Authorized" : "Authorize"}</summary>
      <div class="authz-p">
        {set ? (
          <form method="post" action={state.clearAction}>
            <p>Code samples carry your API key <code>{maskApiKey(state.apiKey!)}</code>.</p>
            <input type="hidden" name="return" value={state.returnTo} />
            <button type="submit" name="clear" value="1">Clear API key</button>
          </form>
        ) : (
          <form method="post" action={state.action}>
            <label>Your API key <input type="password" name="key" autocomplete="off" spellcheck={false} required maxLength={2048} /></label>
            <input type="hidden" name="return" value={state.returnTo} />
            <button type="submit">Use in code samples</button>
            <p class="fa">Kept encrypted in a cookie of this portal only, never sent elsewhere.</p>
          </form>
        )}
      </div>
    </details>
  );
}
