/** @module Tags as a tree (3.2 `parent` nesting) with the operations listed under each. */
import type { OperationSummary, TagInfo } from "../openapi/model/types";

/** A tag with its child tags and the operations tagged with it. */
export interface TagNode {
  tag: TagInfo;
  children: TagNode[];
  operations: OperationSummary[];
}

/** Name of the group for operations without tags. */
export const UNTAGGED = "Other operations";

/**
 * Builds the tree: declared tags in order, then tags only operations mention, then an untagged group.
 * A `parent` that is unknown or would make a loop is ignored (the tag becomes a root). Webhooks and
 * callbacks are left out (they get their own sections); callbacks are listed under their parents elsewhere.
 */
export function buildTagTree(tags: TagInfo[], operations: OperationSummary[]): TagNode[] {
  const nodes = new Map<string, TagNode>();
  for (const t of tags) if (!nodes.has(t.name)) nodes.set(t.name, { tag: t, children: [], operations: [] });
  const ops = operations.filter((o) => o.kind === "operation");
  for (const o of ops) for (const name of o.tags) if (!nodes.has(name)) nodes.set(name, { tag: { name }, children: [], operations: [] });
  const untagged: OperationSummary[] = [];
  for (const o of ops) {
    if (o.tags.length === 0) untagged.push(o);
    for (const name of new Set(o.tags)) nodes.get(name)!.operations.push(o);
  }
  const parentOf = (n: TagNode): TagNode | undefined => {
    const p = n.tag.parent ? nodes.get(n.tag.parent) : undefined;
    if (!p || p === n) return undefined;
    // Walk up to make sure the chain never comes back to n.
    const seen = new Set<TagNode>([n]);
    for (let cur: TagNode | undefined = p; cur; cur = cur.tag.parent ? nodes.get(cur.tag.parent) : undefined) {
      if (seen.has(cur)) return undefined;
      seen.add(cur);
    }
    return p;
  };
  const roots: TagNode[] = [];
  for (const n of nodes.values()) {
    const p = parentOf(n);
    (p ? p.children : roots).push(n);
  }
  if (untagged.length > 0) roots.push({ tag: { name: UNTAGGED }, children: [], operations: untagged });
  return roots;
}

/** Whether a subtree has any operation (empty declared tags are not worth a heading). */
export function hasOperations(node: TagNode): boolean {
  return node.operations.length > 0 || node.children.some(hasOperations);
}

/**
 * Heading of the top-level webhooks section: "Webhooks", or "Webhook events" when a tag already reads
 * "Webhooks" (the demo's subscription endpoints), so navigation never shows the same word twice.
 */
export function webhooksLabel(tagNames: string[]): string {
  return tagNames.some((n) => n.trim().toLowerCase() === "webhooks") ? "Webhook events" : "Webhooks";
}
