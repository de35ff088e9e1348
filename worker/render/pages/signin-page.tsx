/** @module The reader sign-in page (`/p/{portal}/auth/signin`): one form per enabled way in, script-free. */
import { renderToString } from "preact-render-to-string";
import { minimalChrome } from "../shell/chrome";
import { shellDocument } from "../shell/document";
import { ReaderShell } from "../shell/reader-shell";
import type { ShellChrome } from "../shell/types";

/** Props of {@link renderSignInPage}. */
export interface SignInPageProps {
  portalName: string;
  basePath: string;
  /** Same-portal path to return to after signing in (already checked). */
  returnTo: string;
  methods: { password: boolean; magicLink: boolean; saml: boolean; jwt: boolean };
  /** Shown above the forms (a wrong password, a link sent, a refused token). */
  notice?: { kind: "error" | "info"; text: string };
  /** Signed in already: who, and a sign-out form. */
  signedInAs?: string;
  chrome?: ShellChrome;
}

/** A full HTML document; every value is escaped text. Forms post to the same origin (CSP `form-action 'self'`). */
export function renderSignInPage(p: SignInPageProps): string {
  const auth = `${p.basePath}/auth`;
  const chrome = p.chrome ?? minimalChrome(p.portalName, p.basePath);
  const body = renderToString(
    <ReaderShell chrome={chrome} mainClass="err signin" crumbs={[{ title: "Home", href: `${p.basePath}/` }, { title: "Sign in" }]}>
      <p class="eb">{chrome.name}</p>
      <h1>Sign in</h1>
      {p.notice && <p role={p.notice.kind === "error" ? "alert" : "status"} class={`notice notice-${p.notice.kind}`}>{p.notice.text}</p>}
      {p.signedInAs !== undefined && (
        <form method="post" action={`${auth}/signout`}>
          <p>Signed in as <strong>{p.signedInAs}</strong>. <a href={p.returnTo}>Continue</a></p>
          <button type="submit">Sign out</button>
        </form>
      )}
      {p.methods.password && (
        <form method="post" action={`${auth}/password`}>
          <input type="hidden" name="return" value={p.returnTo} />
          <label for="signin-password">Password</label>{" "}
          <input id="signin-password" name="password" type="password" autocomplete="current-password" required maxLength={256} />{" "}
          <button type="submit">Sign in</button>
        </form>
      )}
      {p.methods.magicLink && (
        <form method="post" action={`${auth}/magic-link`}>
          <input type="hidden" name="return" value={p.returnTo} />
          <label for="signin-email">Email</label>{" "}
          <input id="signin-email" name="email" type="email" autocomplete="email" required maxLength={320} />{" "}
          <button type="submit">Email me a sign-in link</button>
        </form>
      )}
      {p.methods.saml && <p><a href={`${auth}/saml/login?return=${encodeURIComponent(p.returnTo)}`}>Sign in with your company account (SSO)</a></p>}
      {p.methods.jwt && !p.methods.saml && <p>Readers of your company's own site are signed in from there.</p>}
    </ReaderShell>,
  );
  return shellDocument(chrome, { title: `Sign in · ${chrome.name}`, noindex: true }, body);
}
