/** @module One operation's page (page-per-operation layout). */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import type { OperationSlice, OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import { createDeferState, createRenderContext } from "../components/context";
import { documentEnd, documentStart, plainSummary } from "../components/document";
import { BoundedCache } from "../../lib/bounded-cache";
import { DegradedArticle, operationTitle, OperationArticle, OperationArticleBody } from "../components/operation-article";
import { buildOperationModel } from "../components/operation-model";
import { ReferenceSidebar } from "../components/reference-sidebar";
import { shellDocument } from "../shell/document";
import { ReaderShell } from "../shell/reader-shell";
import { SeeAlso } from "../shell/see-also";
import type { PageProps } from "../types";
import { tagAnchor, versionUrl } from "../urls";
import { apiTab, chromeOf, referenceCrumbs } from "./reference-shell";

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
  /**
   * Where deferred schema bodies load from (`id` → URL; see components/defer.tsx). Absent, every body is inlined
   * (tests, previews); the reader route always sets it so pages stay light.
   */
  fragmentHref?: (id: string) => string;
  /**
   * The slice's identity (model key and operation slug): given, the article's HTML is kept per isolate and reused
   * for the next reader with the same inputs ({@link articleMemoKey}). Models are immutable under their key.
   */
  articleKey?: string;
};

/**
 * Rendered operation articles (the part inside `<article>`), in characters: the article is most of a page's
 * work (schema views, samples in 18 languages) and the same for every reader with the same key and variables.
 * About 8 MB of the isolate's 128 MB at most.
 */
const ARTICLES = new BoundedCache<string, string>({ maxSize: 4_000_000, maxEntrySize: 1_000_000 });

/** Everything the article reads besides the slice (see OperationArticleBody), with the slice's identity. */
function articleMemoKey(p: OperationPageProps & { articleKey: string }): string {
  return JSON.stringify([p.articleKey, p.basePath, p.api.slug, p.api.layout, p.version.label, p.fragmentHref?.("") ?? null, p.authorize?.apiKey ?? null, p.variables ?? null]);
}

/** A full HTML document for one operation, webhook or callback; readable without scripts. */
export function renderOperationPage(p: OperationPageProps): string {
  const op = p.slice.summary;
  const chrome = chromeOf(p);
  const title = `${operationTitle(op)} · ${p.header.info.title} ${p.version.label} · ${chrome.name}`;
  const described = p.slice.operation as { description?: unknown } | null;
  const rawDescription = typeof described?.description === "string" ? described.description : op.summary;
  const description = plainSummary(rawDescription) ?? `${op.method.toUpperCase()} ${op.path} in ${p.header.info.title}`;
  const tag = op.tags[0];
  const crumbs = referenceCrumbs(p, ...(tag ? [{ title: tag, href: `${versionUrl(p.basePath, p.api.slug, p.version.label)}#${tagAnchor(tag)}` }] : []), { title: operationTitle(op) });
  const frame = (article: ComponentChildren) => renderToString(
    <ReaderShell chrome={chrome} tab={apiTab(p)} crumbs={crumbs}
      sidebar={<ReferenceSidebar page={p} header={p.header} operations={p.nav} currentSlug={op.slug} currentTag={tag} />}>
      {p.history && p.history.length > 0 && (
        <p class="history">{p.history.map((h) => (h.href ? <a class={`hb hb-${h.kind}`} href={h.href}>{h.label}</a> : <span class={`hb hb-${h.kind}`}>{h.label}</span>))}</p>
      )}
      {article}
      <SeeAlso id="op-guides" title="Guides" links={p.guides ?? []} />
    </ReaderShell>,
  );
  let body: string;
  try {
    const key = p.articleKey === undefined ? undefined : articleMemoKey({ ...p, articleKey: p.articleKey });
    let inner = key === undefined ? undefined : ARTICLES.get(key);
    if (inner === undefined) {
      const ctx = createRenderContext();
      if (p.fragmentHref) ctx.defer = createDeferState(p.fragmentHref);
      const model = buildOperationModel(p.slice, p.header, ctx);
      inner = renderToString(<OperationArticleBody model={model} header={p.header} page={p} ctx={ctx} hl={1} idPrefix="op-" />);
      if (key !== undefined) ARTICLES.set(key, inner, inner.length);
    }
    // The markup OperationArticle gives, around HTML rendered (and escaped) by the same components.
    body = frame(<article class="op" aria-labelledby="op-title" dangerouslySetInnerHTML={{ __html: inner }} />);
  } catch {
    // Budgets keep every step bounded; should a definition still trip one, readers get the page without the
    // operation's details rather than an error.
    body = frame(<DegradedArticle op={op} />);
  }
  return shellDocument(chrome, {
    title, description, canonicalUrl: p.canonicalUrl,
    og: { title: `${operationTitle(op)} · ${p.header.info.title}`, description, siteName: chrome.name },
  }, body);
}

/**
 * Deferred schema body `id` (`3`, `3.1`) or deferred example `id` (`x0`) of an operation page, as a small HTML document of its own (the body inside
 * `<main class="frag">`, a link back to the operation): what a reader without script opens, and what the page's
 * script inserts on expand. `undefined` when the page has no body `id` (a stale or made-up number). Renders the
 * page's model the same way the page does, so numbering matches for the same slice.
 */
export function renderOperationFragment(p: OperationPageProps & { fragmentHref: (id: string) => string; operationHref: string }, id: string): string | undefined {
  const op = p.slice.summary;
  const ctx = createRenderContext();
  const capture: { target: string; html?: string } = { target: id };
  ctx.defer = createDeferState(p.fragmentHref, capture);
  const model = buildOperationModel(p.slice, p.header, ctx);
  // Deferred schema bodies are all in the article's schema side, numbered before the examples column renders;
  // deferred examples (`x2`) are in the examples column, rendered only when one is asked for.
  renderToString(<OperationArticle model={model} header={p.header} page={p} ctx={ctx} hl={1} idPrefix="op-" examples={id.startsWith("x")} />);
  if (capture.html === undefined) return undefined;
  const title = `${operationTitle(op)} (part) · ${p.header.info.title} ${p.version.label} · ${p.portal.name}`;
  return documentStart({ title }) + renderToString(
    <main id="main" class="frag">
      <p class="eb"><a href={p.operationHref}>← {operationTitle(op)}</a></p>
      <div class="fb" data-frag-body="" dangerouslySetInnerHTML={{ __html: capture.html }} />
    </main>,
  ) + documentEnd();
}
