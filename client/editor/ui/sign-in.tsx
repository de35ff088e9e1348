/** @module The sign-in form: the portal token, kept in sessionStorage for this tab. */
import { useState } from "preact/hooks";

export function SignIn({ portal, error, onSignIn }: { portal: string; error?: string; onSignIn: (token: string) => void }) {
  const [value, setValue] = useState("");
  return (
    <form
      class="ed-panel ed-signin"
      onSubmit={(e) => {
        e.preventDefault();
        if (value.trim()) onSignIn(value.trim());
      }}
    >
      <h1>Sign in to edit {portal}</h1>
      <p>Paste the portal token (the upload token printed when the portal was created).</p>
      {error && <p class="ed-error" role="alert">{error}</p>}
      <label>
        Portal token
        <input name="token" type="password" autocomplete="off" required value={value} onInput={(e) => setValue(e.currentTarget.value)} />
      </label>
      <button type="submit">Sign in</button>
    </form>
  );
}
