/** @module The single-page layout, streamed: head and navigation first, then one section per operation as slices arrive. */
import { renderToString } from "preact-render-to-string";
import { SeeAlso } from "../shell/see-also";
import type { OperationSlice, OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import { VIEW_BUDGET } from "../../openapi/budgets";
import { createViewBudget } from "../../openapi/schema-view/view-budget";
import { createRenderContext } from "../components/context";
import { documentEnd, esc, plainSummary } from "../components/document";
import { OperationArticle } from "../components/operation-article";
import { buildOperationModel } from "../components/operation-model";
import { ReferenceSidebar } from "../components/reference-sidebar";
import { VersionIntro } from "../components/version-intro";
import { UNTAGGED } from "../tag-tree";
import type { PageProps } from "../types";
import { tagAnchor } from "../urls";
import { shellDocument } from "../shell/document";
import { shellParts } from "../shell/reader-shell";
import { apiTab, chromeOf } from "./reference-shell";

/** Props of {@link renderSinglePage}; `slices` should come in the order of `operations`. */
export type SinglePageProps = PageProps & {
  header: ReferenceHeader;
  operations: OperationSummary[];
  slices: AsyncIterable<OperationSlice>;
  /** Operation slug → the guides linking to it (routes/content-links.ts guidesByOperation), shown at its section's end. */
  guides?: Map<string, { title: string; href: string }[]>;
};

interface Group { key: string; label: string; id: string; tag?: string }

// Webhooks and callbacks get their own groups, keyed apart from any tag that happens to share their name.
function groupOf(op: OperationSummary, tagLabel: (name: string) => string): Group {
  if (op.kind === "webhook") return { key: "\0webhooks", label: "Webhooks", id: "webhooks" };
  if (op.kind === "callback") return { key: "\0callbacks", label: "Callbacks", id: "callbacks" };
  const tag = op.tags[0] ?? UNTAGGED;
  return { key: tag, label: tagLabel(tag), id: tagAnchor(tag), tag };
}

/**
 * Streams the whole reference as one document. Each operation section has the slug as its id, so
 * `#slug` links work; a tag heading is written before the first operation of each tag in stream order.
 * A slice that fails to render becomes a short notice; the stream continues.
 */
export function renderSinglePage(p: SinglePageProps): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = p.slices[Symbol.asyncIterator]();
  const seenGroups = new Set<string>();
  // One budget for the whole page: past it, later operations show their schemas cut with a note.
  const pageBudget = createViewBudget(VIEW_BUDGET.maxNodesPerSinglePage);
  const tagInfo = new Map(p.header.tags.map((t) => [t.name, t]));
  let started = false;
  let lastGroup: string | undefined;

  const chrome = chromeOf(p);
  const shell = shellParts({
    chrome, tab: apiTab(p), crumbs: [{ title: "Home", href: `${p.basePath}/` }, { title: `${p.header.info.title} ${p.version.label}` }],
    sidebar: <ReferenceSidebar page={p} header={p.header} operations={p.operations} samePage listAll />,
  });
  const head = () => {
    const title = `${p.header.info.title} ${p.version.label} · API reference · ${chrome.name}`;
    const description = plainSummary(typeof p.header.info.description === "string" ? p.header.info.description : undefined)
      ?? `API reference for ${p.header.info.title} ${p.version.label}.`;
    // The document is streamed: its end (documentEnd) is written after the last section, not here.
    const start = shellDocument(chrome, { title, description, canonicalUrl: p.canonicalUrl, anchors: true, og: { title: `${p.header.info.title} API reference`, description, siteName: chrome.name, type: "website" } }, "");
    return start.slice(0, start.length - documentEnd().length) + shell.start + renderToString(<VersionIntro header={p.header} versionLabel={p.version.label} />);
  };

  const section = (slice: OperationSlice) => {
    const op = slice.summary;
    const group = groupOf(op, (name) => tagInfo.get(name)?.summary || name);
    let out = "";
    if (group.key !== lastGroup) {
      const first = !seenGroups.has(group.key);
      seenGroups.add(group.key);
      lastGroup = group.key;
      out += first
        ? `<h2 class="tag-h" id="${esc(group.id)}"${group.tag !== undefined ? ` data-tag="${esc(group.tag)}"` : ""}>${esc(group.label)}</h2>`
        : `<h2 class="tag-h">${esc(group.label)}</h2>`;
    }
    try {
      const ctx = createRenderContext(`${op.slug}-`, pageBudget);
      const model = buildOperationModel(slice, p.header, ctx);
      // Every operation has its "Parameters", "Responses"…: as named regions they would repeat one name dozens of
      // times (axe landmark-unique); on this page they are plain sections under their operation's heading.
      const article = renderToString(<OperationArticle model={model} header={p.header} page={p} ctx={ctx} hl={3} idPrefix={`${op.slug}-`} id={op.slug} />)
        .replace(/<section class="blk" aria-labelledby="[^"]*">/g, '<section class="blk">');
      // The operation's guides close its own article, where an operation page has them (end of <main>).
      const links = p.guides?.get(op.slug);
      out += links?.length && article.endsWith("</article>")
        ? article.slice(0, -"</article>".length) + renderToString(<SeeAlso id={`${op.slug}-guides`} title="Guides" links={links} level={4} />) + "</article>"
        : article;
    } catch {
      out += `<section class="op" id="${esc(op.slug)}"><h3>${esc(op.summary ?? op.path)}</h3><p>This operation could not be rendered.</p></section>`;
    }
    return out;
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(head()));
        return;
      }
      let next: IteratorResult<OperationSlice>;
      try {
        next = await iterator.next();
      } catch {
        controller.enqueue(encoder.encode('<p class="cf" role="alert">The rest of this reference could not be loaded.</p>' + shell.end + documentEnd()));
        controller.close();
        return;
      }
      if (next.done) {
        controller.enqueue(encoder.encode(shell.end + documentEnd()));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(section(next.value)));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}
