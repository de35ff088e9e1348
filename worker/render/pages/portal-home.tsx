/** @module A portal's home (without guides): its APIs with live version and operation count. */
import { renderToString } from "preact-render-to-string";
import { minimalChrome } from "../shell/chrome";
import { shellDocument } from "../shell/document";
import { ReaderShell } from "../shell/reader-shell";
import type { ShellChrome } from "../shell/types";
import type { ApiRef, PortalRef } from "../types";
import { apiUrl } from "../urls";

/** Props of {@link renderPortalHome}. */
export interface PortalHomeProps {
  portal: PortalRef;
  basePath: string;
  apis: Array<ApiRef & { liveVersion?: string; operations?: number }>;
  chrome?: ShellChrome;
}

/** A full HTML document listing the portal's APIs. */
export function renderPortalHome(p: PortalHomeProps): string {
  const chrome = p.chrome ?? minimalChrome(p.portal.name, p.basePath);
  const body = renderToString(
    <ReaderShell chrome={chrome} mainClass="home">
      <h1>{chrome.name}</h1>
      {p.apis.length === 0 ? <p>No API has been published yet.</p> : (
        <ul class="apis">
          {p.apis.map((a) => (
            <li>
              <a href={apiUrl(p.basePath, a.slug)}><strong>{a.title}</strong></a>
              <p class="fa">
                {a.liveVersion && <span class="ch">version {a.liveVersion}</span>}
                {a.operations !== undefined && <span class="ch">{a.operations} {a.operations === 1 ? "operation" : "operations"}</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </ReaderShell>,
  );
  return shellDocument(chrome, { title: `${chrome.name} · API documentation`, description: `API documentation of ${chrome.name}: ${p.apis.map((a) => a.title).join(", ")}`.slice(0, 200) }, body);
}
