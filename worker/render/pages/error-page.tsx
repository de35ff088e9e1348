/** @module Error pages (404 and friends) as full, script-free documents. */
import { renderToString } from "preact-render-to-string";
import { documentEnd, documentStart } from "../components/document";

/** Props of {@link renderErrorPage}. */
export interface ErrorPageProps {
  status: number;
  title: string;
  message: string;
}

/** A full HTML document for an error status; the message is escaped text. */
export function renderErrorPage(p: ErrorPageProps): string {
  const body = renderToString(
    <main id="main" class="err">
      <p class="eb">Error {p.status}</p>
      <h1>{p.title}</h1>
      <p>{p.message}</p>
      <p><a href="/">Home</a></p>
    </main>,
  );
  return documentStart({ title: `${p.status} ${p.title}` }) + body + documentEnd();
}
