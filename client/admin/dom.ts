/**
 * DOM builders of the writers' token-holding pages (client/entries/changelog-admin.ts, analytics-admin.ts). Text
 * goes in as textContent, never parsed as HTML: drafts and queries come from readers and models.
 */

/** An element with optional text (as textContent) and class. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/** Appends children (text or nodes) in order (appendChild: the Workers types shadow the DOM's append). */
export function add(parent: Node, ...children: (Node | string)[]): void {
  for (const child of children) parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
}

/** Replaces a container's children. */
export function show(parent: HTMLElement, ...children: (Node | string)[]): void {
  parent.textContent = "";
  add(parent, ...children);
}

/**
 * A draft's editable title (an input labelled "Title") and Markdown body (a textarea of `rows` rows labelled
 * `bodyLabel`), filled with the draft's text: the fields of every draft card (changelog entries, backlog guides).
 */
export function draftFields(draft: { title: string; body: string }, rows: number, bodyLabel: string): { title: HTMLInputElement; body: HTMLTextAreaElement } {
  const title = el("input");
  title.value = draft.title;
  title.setAttribute("aria-label", "Title");
  const body = el("textarea");
  body.value = draft.body;
  body.rows = rows;
  body.setAttribute("aria-label", bodyLabel);
  return { title, body };
}
