/** @module The index's operation list: tags as nested sections (3.2 parent/kind), each operation a link, callbacks under their parent. */
import type { OperationSummary } from "../../openapi/model/types";
import { hasOperations, type TagNode } from "../tag-tree";
import { tagAnchor } from "../urls";
import { H } from "./heading";
import { Markdown } from "./markdown";
import { OpLink } from "./op-link";

interface ListProps {
  href: (op: OperationSummary) => string;
  callbacksOf: Map<string, OperationSummary[]>;
}

function OpItem({ op, p }: { op: OperationSummary; p: ListProps }) {
  const cbs = p.callbacksOf.get(op.slug);
  return (
    <li>
      <OpLink op={op} href={p.href(op)} />
      {op.deprecated && <span class="bd dp">deprecated</span>}
      {cbs && <ul class="ol-cb">{cbs.map((c) => <li><span class="fl">callback {c.callbackName}</span> <OpLink op={c} href={p.href(c)} /></li>)}</ul>}
    </li>
  );
}

/** One tag section with its description, operations and child tags one heading level down. */
export function TagSection({ node, level, p }: { node: TagNode; level: number; p: ListProps }) {
  if (!hasOperations(node)) return null;
  const t = node.tag;
  return (
    <section class="tag" id={tagAnchor(t.name)} data-tag={t.name} aria-labelledby={`${tagAnchor(t.name)}-h`}>
      <H level={level} id={`${tagAnchor(t.name)}-h`}>{t.summary || t.name}{t.kind ? <span class="bd">{t.kind}</span> : null}</H>
      <Markdown text={t.description} />
      {node.operations.length > 0 && <ul class="oplist">{node.operations.map((o) => <OpItem op={o} p={p} />)}</ul>}
      {node.children.map((c) => <TagSection node={c} level={level + 1} p={p} />)}
    </section>
  );
}

/** Callback operations grouped by their parent's slug. */
export function callbacksByParent(ops: OperationSummary[]): Map<string, OperationSummary[]> {
  const map = new Map<string, OperationSummary[]>();
  for (const o of ops) if (o.kind === "callback" && o.parentSlug) map.set(o.parentSlug, [...(map.get(o.parentSlug) ?? []), o]);
  return map;
}
