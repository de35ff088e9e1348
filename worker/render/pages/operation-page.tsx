/** @module One operation's page (page-per-operation layout). */
import { renderToString } from "preact-render-to-string";
import type { OperationSlice, OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import { createRenderContext } from "../components/context";
import { documentEnd, documentStart, plainSummary } from "../components/document";
import { operationTitle, OperationArticle } from "../components/operation-article";
import { buildOperationModel } from "../components/operation-model";
import { SideNav } from "../components/side-nav";
import { TopBar } from "../components/top-bar";
import type { PageProps } from "../types";
import { Footer } from "./frame";

/**
 * Props of {@link renderOperationPage}. `nav`: the operations of the same tag (the sidebar lists only those);
 * `guides`: the guides and code steps that link to this operation (already filtered for the reader).
 */
export type OperationPageProps = PageProps & { header: ReferenceHeader; slice: OperationSlice; nav: OperationSummary[]; guides?: { title: string; href: string }[] };

/** A full HTML document for one operation, webhook or callback; readable without scripts. */
export function renderOperationPage(p: OperationPageProps): string {
  const ctx = createRenderContext();
  const model = buildOperationModel(p.slice, p.header, ctx);
  const op = p.slice.summary;
  const title = `${operationTitle(op)} · ${p.header.info.title} ${p.version.label} · ${p.portal.name}`;
  const rawDescription = typeof p.slice.operation.description === "string" ? p.slice.operation.description : op.summary;
  const description = plainSummary(rawDescription) ?? `${op.method.toUpperCase()} ${op.path} in ${p.header.info.title}`;
  const body = renderToString(
    <>
      <TopBar page={p} slug={op.slug} />
      <div class="shell">
        <SideNav page={p} header={p.header} operations={p.nav} currentSlug={op.slug} currentTag={op.tags[0]} />
        <main id="main">
          <OperationArticle model={model} header={p.header} page={p} ctx={ctx} hl={1} idPrefix="op-" />
          {p.guides && p.guides.length > 0 && (
            <section class="blk" aria-labelledby="op-guides"><h2 id="op-guides">Guides</h2>
              <ul>{p.guides.map((g) => <li><a href={g.href}>{g.title}</a></li>)}</ul>
            </section>
          )}
        </main>
      </div>
      <Footer />
    </>,
  );
  return documentStart({
    title, description, canonicalUrl: p.canonicalUrl,
    og: { title: `${operationTitle(op)} · ${p.header.info.title}`, description, siteName: p.portal.name },
  }) + body + documentEnd();
}
