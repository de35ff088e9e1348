/** @module One operation's page (page-per-operation layout). */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import type { OperationSlice, OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import { createRenderContext } from "../components/context";
import { documentEnd, documentStart, plainSummary } from "../components/document";
import { DegradedArticle, operationTitle, OperationArticle } from "../components/operation-article";
import { buildOperationModel } from "../components/operation-model";
import { SideNav } from "../components/side-nav";
import { TopBar } from "../components/top-bar";
import type { PageProps } from "../types";
import { Footer } from "./frame";

/**
 * Props of {@link renderOperationPage}. `nav`: the operations of the same tag (the sidebar lists only those);
 * `guides`: the guides and code steps that link to this operation (already filtered for the reader).
 */
export type OperationPageProps = PageProps & {
  header: ReferenceHeader;
  slice: OperationSlice;
  nav: OperationSummary[];
  guides?: { title: string; href: string }[];
  /** Badges from approved changelog entries ("New in v2.1.0"), each linking to its entry. */
  history?: { kind: string; label: string; href?: string }[];
};

/** A full HTML document for one operation, webhook or callback; readable without scripts. */
export function renderOperationPage(p: OperationPageProps): string {
  const op = p.slice.summary;
  const title = `${operationTitle(op)} · ${p.header.info.title} ${p.version.label} · ${p.portal.name}`;
  const described = p.slice.operation as { description?: unknown } | null;
  const rawDescription = typeof described?.description === "string" ? described.description : op.summary;
  const description = plainSummary(rawDescription) ?? `${op.method.toUpperCase()} ${op.path} in ${p.header.info.title}`;
  const frame = (article: ComponentChildren) => renderToString(
    <>
      <TopBar page={p} slug={op.slug} />
      <div class="shell">
        <SideNav page={p} header={p.header} operations={p.nav} currentSlug={op.slug} currentTag={op.tags[0]} />
        <main id="main">
          {p.history && p.history.length > 0 && (
            <p class="history">{p.history.map((h) => (h.href ? <a class={`hb hb-${h.kind}`} href={h.href}>{h.label}</a> : <span class={`hb hb-${h.kind}`}>{h.label}</span>))}</p>
          )}
          {article}
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
  let body: string;
  try {
    const ctx = createRenderContext();
    const model = buildOperationModel(p.slice, p.header, ctx);
    body = frame(<OperationArticle model={model} header={p.header} page={p} ctx={ctx} hl={1} idPrefix="op-" />);
  } catch {
    // Budgets keep every step bounded; should a definition still trip one, readers get the page without the
    // operation's details rather than an error.
    body = frame(<DegradedArticle op={op} />);
  }
  return documentStart({
    title, description, canonicalUrl: p.canonicalUrl,
    og: { title: `${operationTitle(op)} · ${p.header.info.title}`, description, siteName: p.portal.name },
  }) + body + documentEnd();
}
