/**
 * @module "Same as X above" placeholders expand in place: when the reader opens one, the first expansion of that
 * schema (marked `data-b`) is cloned into it, with ids dropped and radio groups renamed so both copies work.
 */
let copies = 0;

/** Replaces a `.same` placeholder by a copy of the schema body its link points to. Returns whether it did. */
export function expandRepeat(placeholder: Element): boolean {
  const link = placeholder.querySelector<HTMLAnchorElement>("a[data-same]");
  if (!link) return false;
  const source = document.querySelector(`[data-b="${CSS.escape(link.dataset.same ?? "")}"]`);
  if (!source) return false;
  const copy = source.cloneNode(true) as HTMLElement;
  const suffix = `-c${++copies}`;
  copy.removeAttribute("data-b");
  for (const el of copy.querySelectorAll("[id]")) {
    const id = el.id;
    el.removeAttribute("id");
    if (el instanceof HTMLInputElement) el.id = id + suffix;
  }
  for (const el of copy.querySelectorAll<HTMLInputElement>("input[type=radio]")) el.name += suffix;
  for (const el of copy.querySelectorAll<HTMLLabelElement>("label[for]")) el.htmlFor += suffix;
  for (const el of copy.querySelectorAll("[data-b]")) el.removeAttribute("data-b");
  placeholder.replaceWith(copy);
  return true;
}

/** Listens for `<details>` being opened anywhere on the page. */
export function installExpandRepeat(root: Document = document): void {
  root.addEventListener("toggle", (e) => {
    const d = e.target;
    const placeholder = d instanceof HTMLDetailsElement && d.open ? d.querySelector(":scope > .same") : null;
    if (placeholder) expandRepeat(placeholder);
  }, true);
  // A placeholder's link clicked directly (e.g. in a variant panel, not inside <details>): expand, don't jump.
  root.addEventListener("click", (e) => {
    const placeholder = (e.target as Element).closest?.(".same");
    if (placeholder && expandRepeat(placeholder)) e.preventDefault();
  });
}
