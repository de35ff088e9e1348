/** @module Error pages (404 and friends): full, script-free documents inside the reader shell. */
import { renderToString } from "preact-render-to-string";
import { minimalChrome } from "../shell/chrome";
import { shellDocument } from "../shell/document";
import { ReaderShell } from "../shell/reader-shell";
import type { ShellChrome } from "../shell/types";

/** Props of {@link renderErrorPage}; `chrome` is the portal's when the error is on one of its pages. */
export interface ErrorPageProps {
  status: number;
  title: string;
  message: string;
  chrome?: ShellChrome;
}

/** A full HTML document for an error status; the message is escaped text. */
export function renderErrorPage(p: ErrorPageProps): string {
  const chrome = p.chrome ?? minimalChrome();
  const body = renderToString(
    <ReaderShell chrome={chrome} mainClass="err" crumbs={[{ title: "Home", href: `${chrome.basePath}/` }, { title: `Error ${p.status}` }]}>
      <p class="eb">Error {p.status}</p>
      <h1>{p.title}</h1>
      <p>{p.message}</p>
      <p><a href={`${chrome.basePath}/`}>Home</a></p>
    </ReaderShell>,
  );
  return shellDocument(chrome, { title: `${p.status} ${p.title}`, noindex: true }, body);
}
