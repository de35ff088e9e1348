/**
 * @module The OAuth consent page of the MCP endpoint (`/p/{portal}/oauth/authorize`, access/oauth.ts): which client
 * asks to read the docs as the signed-in reader, where it will be sent back, Allow and Deny. Script-free; the form
 * posts to the same URL (the authorization request stays in its query).
 */
import { renderToString } from "preact-render-to-string";
import { minimalChrome } from "../shell/chrome";
import { shellDocument } from "../shell/document";
import { ReaderShell } from "../shell/reader-shell";
import type { ShellChrome } from "../shell/types";

/** Props of {@link renderConsentPage}; every string is shown as escaped text (the client's name is the client's). */
export interface ConsentPageProps {
  portalName: string;
  basePath: string;
  /** The client's registered name, or its id when it gave none. */
  clientName: string;
  /** The host the reader is sent back to (the redirect URI's). */
  redirectHost: string;
  /** The redirect goes to a program on the reader's own computer (a loopback address). */
  local: boolean;
  /** Who is signed in (an email, or how they signed in). */
  signedInAs: string;
  /** The form's action: the authorization request's own URL (path and query). */
  action: string;
  chrome?: ShellChrome;
}

/** A full HTML document. */
export function renderConsentPage(p: ConsentPageProps): string {
  const chrome = p.chrome ?? minimalChrome(p.portalName, p.basePath);
  const body = renderToString(
    <ReaderShell chrome={chrome} mainClass="err signin" crumbs={[{ title: "Home", href: `${p.basePath}/` }, { title: "Connect an AI tool" }]}>
      <p class="eb">{chrome.name}</p>
      <h1>Allow {p.clientName} to read these docs?</h1>
      <p>
        <strong>{p.clientName}</strong> asks to search and read {chrome.name} as you ({p.signedInAs}): everything you may open here, gated
        sections included, for as long as your sign-in lasts. It cannot change anything.
      </p>
      <p>You will be sent back to <strong>{p.redirectHost}</strong>{p.local ? ", a program on this computer" : ""}. Allow it only if you started this from that tool.</p>
      <form method="post" action={p.action}>
        <button type="submit" name="decision" value="allow">Allow</button>{" "}
        <button type="submit" name="decision" value="deny">Deny</button>
      </form>
    </ReaderShell>,
  );
  return shellDocument(chrome, { title: `Allow ${p.clientName}? · ${chrome.name}`, noindex: true }, body);
}
