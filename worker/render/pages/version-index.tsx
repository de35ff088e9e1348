/** @module A version's index: intro, servers, authentication, every operation grouped by tag, webhooks. */
import { renderToString } from "preact-render-to-string";
import type { OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import { plainSummary } from "../components/document";
import { H } from "../components/heading";
import { OpLink } from "../components/op-link";
import { callbacksByParent, TagSection } from "../components/operation-list";
import { ReferenceSidebar } from "../components/reference-sidebar";
import { VersionIntro } from "../components/version-intro";
import { buildTagTree, webhooksLabel } from "../tag-tree";
import type { PageProps } from "../types";
import { operationUrl } from "../urls";
import { shellDocument } from "../shell/document";
import { ReaderShell } from "../shell/reader-shell";
import { apiTab, chromeOf } from "./reference-shell";

/** Props of {@link renderVersionIndex}. */
export type VersionIndexProps = PageProps & { header: ReferenceHeader; operations: OperationSummary[] };

/** A full HTML document listing all operations; legacy bookmark fragments are mapped by /assets/anchors.js. */
export function renderVersionIndex(p: VersionIndexProps): string {
  const href = (o: OperationSummary) => operationUrl(p.basePath, p.api, p.version.label, o.slug);
  const list = { href, callbacksOf: callbacksByParent(p.operations) };
  const tree = buildTagTree(p.header.tags, p.operations);
  const webhooks = p.operations.filter((o) => o.kind === "webhook");
  const chrome = chromeOf(p);
  const crumbs = [{ title: "Home", href: `${p.basePath}/` }, { title: `${p.header.info.title} ${p.version.label}` }];
  const body = renderToString(
    <ReaderShell chrome={chrome} tab={apiTab(p)} crumbs={crumbs} sidebar={<ReferenceSidebar page={p} header={p.header} operations={p.operations} samePage />}>
      <VersionIntro header={p.header} versionLabel={p.version.label} />
      <section class="blk" aria-labelledby="operations"><H level={2} id="operations">Operations</H>
        {tree.map((n) => <TagSection node={n} level={3} p={list} />)}
      </section>
      {webhooks.length > 0 && (
        <section class="blk" id="webhooks" aria-labelledby="webhooks-h"><H level={2} id="webhooks-h">{webhooksLabel(tree.map((n) => n.tag.name))}</H>
          <ul class="oplist">{webhooks.map((o) => <li><OpLink op={o} href={href(o)} /></li>)}</ul>
        </section>
      )}
    </ReaderShell>,
  );
  const title = `${p.header.info.title} ${p.version.label} · API reference · ${chrome.name}`;
  const description = plainSummary(typeof p.header.info.description === "string" ? p.header.info.description : undefined)
    ?? `API reference for ${p.header.info.title} ${p.version.label}: ${p.header.counts.operations} operations.`;
  return shellDocument(chrome, { title, description, canonicalUrl: p.canonicalUrl, anchors: true, og: { title: `${p.header.info.title} API reference`, description, siteName: chrome.name, type: "website" } }, body);
}
