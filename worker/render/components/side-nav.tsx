/** @module The sidebar: tag tree (3.2 nesting) linking to the index, with the current tag's operations listed. */
import type { ComponentChildren } from "preact";
import type { OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import { buildTagTree, hasOperations, webhooksLabel, type TagNode } from "../tag-tree";
import type { PageProps } from "../types";
import { operationUrl, tagAnchor, versionUrl } from "../urls";
import { OpLink } from "./op-link";

interface NavProps {
  page: PageProps;
  header: ReferenceHeader;
  /** Operations listed in full (same tag on an operation page; all of them on a single page). */
  operations: OperationSummary[];
  /** Slug of the page's operation, highlighted. */
  currentSlug?: string;
  /** Tag whose operations are listed (operation page); all tags list theirs when undefined and `listAll`. */
  currentTag?: string;
  /** Single page and index: links are fragments on this page. */
  samePage?: boolean;
  listAll?: boolean;
  /** Shown first inside the landmark (the API and version switchers). */
  top?: ComponentChildren;
}

/** On an operation page, at most this many operations of its tag are listed (a window around the current one). */
export const NAV_WINDOW = 30;

function windowAround(ops: OperationSummary[], current: string | undefined): { shown: OperationSummary[]; more: boolean } {
  if (ops.length <= NAV_WINDOW) return { shown: ops, more: false };
  const at = Math.max(0, ops.findIndex((o) => o.slug === current));
  const start = Math.max(0, Math.min(at - Math.floor(NAV_WINDOW / 2), ops.length - NAV_WINDOW));
  return { shown: ops.slice(start, start + NAV_WINDOW), more: true };
}

function TagItem({ node, p }: { node: TagNode; p: NavProps }) {
  if (p.listAll && !hasOperations(node)) return null;
  // Operation pages sit inside the version's directory, so "./" is the version index.
  const base = p.samePage ? "" : p.page.api.layout !== "single-page" && p.currentSlug ? "./" : versionUrl(p.page.basePath, p.page.api.slug, p.page.version.label);
  const listOps = p.listAll || node.tag.name === p.currentTag;
  // Sibling operation pages share a directory: a bare slug is a complete relative link from one to another.
  const sibling = !p.samePage && p.page.api.layout !== "single-page";
  const href = (o: OperationSummary) => sibling ? encodeURIComponent(o.slug)
    : p.samePage && p.page.api.layout === "single-page" ? `#${o.slug}` : operationUrl(p.page.basePath, p.page.api, p.page.version.label, o.slug);
  const { shown, more } = p.listAll ? { shown: node.operations, more: false } : windowAround(node.operations, p.currentSlug);
  return (
    <li>
      <a href={`${base}#${tagAnchor(node.tag.name)}`} class="tg">{node.tag.summary || node.tag.name}</a>
      {listOps && node.operations.length > 0 && (
        <ul class="ops">
          {shown.map((o) => <li><OpLink op={o} href={href(o)} current={o.slug === p.currentSlug} compact bare={!p.samePage} /></li>)}
          {more && <li><a class="more" href={`${base}#${tagAnchor(node.tag.name)}`}>All {node.operations.length} operations of {node.tag.name}</a></li>}
        </ul>
      )}
      {node.children.length > 0 && <ul>{node.children.map((c) => <TagItem node={c} p={p} />)}</ul>}
    </li>
  );
}

/** Sidebar navigation; operations appear only for the tags asked for, keeping operation pages small. */
export function SideNav(p: NavProps) {
  const tree = buildTagTree(p.header.tags, p.operations);
  const index = versionUrl(p.page.basePath, p.page.api.slug, p.page.version.label);
  const webhooks = p.operations.filter((o) => o.kind === "webhook");
  return (
    <nav class="side" aria-label="API reference">
      {p.top}
      <a class="home" href={index}>{p.header.info.title}</a>
      <ul class="tags">{tree.map((n) => <TagItem node={n} p={p} />)}</ul>
      {p.header.counts.webhooks > 0 && (
        <p><a class="tg" href={`${p.samePage ? "" : index}#webhooks`}>{webhooksLabel(tree.map((n) => n.tag.name))}</a></p>
      )}
      {webhooks.length > 0 && p.listAll && (
        <ul class="ops">{webhooks.map((o) => <li><OpLink op={o} href={p.samePage && p.page.api.layout === "single-page" ? `#${o.slug}` : operationUrl(p.page.basePath, p.page.api, p.page.version.label, o.slug)} compact /></li>)}</ul>
      )}
      {Object.keys(p.header.securitySchemes).length > 0 && <p><a class="tg" href={`${p.samePage ? "" : index}#security`}>Authentication</a></p>}
    </nav>
  );
}
