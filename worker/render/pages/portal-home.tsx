/** @module A portal's home: its APIs with live version and operation count. */
import { renderToString } from "preact-render-to-string";
import { documentEnd, documentStart } from "../components/document";
import SearchBox from "../../../client/islands/search-box";
import { Island } from "../components/island";
import type { ApiRef, PortalRef } from "../types";
import { apiUrl } from "../urls";
import { Footer } from "./frame";

/** Props of {@link renderPortalHome}. */
export interface PortalHomeProps {
  portal: PortalRef;
  basePath: string;
  apis: Array<ApiRef & { liveVersion?: string; operations?: number }>;
}

/** A full HTML document listing the portal's APIs. */
export function renderPortalHome(p: PortalHomeProps): string {
  const body = renderToString(
    <>
      <header class="top"><a class="skip" href="#main">Skip to content</a><a class="brand" href={`${p.basePath}/`}>{p.portal.name}</a><span class="grow" /><Island name="search-box" component={SearchBox} props={{ base: p.basePath }} /></header>
      <main id="main" class="home">
        <h1>{p.portal.name}</h1>
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
      </main>
      <Footer />
    </>,
  );
  return documentStart({ title: `${p.portal.name} · API documentation`, description: `API documentation of ${p.portal.name}: ${p.apis.map((a) => a.title).join(", ")}`.slice(0, 200) })
    + body + documentEnd();
}
