/**
 * @module Deferred schema bodies and long examples (worker/render/components/defer.tsx) load in place: opening the `<details>` that
 * holds a `.df` placeholder, or clicking its link, fetches the fragment page and puts its body where the
 * placeholder was. Without script the link opens the fragment page itself.
 */

/** Same-origin fragment pages only: a placeholder's URL comes from our own markup, but check before fetching. */
function fragmentUrl(placeholder: Element): URL | undefined {
  const raw = placeholder.getAttribute("data-frag");
  if (!raw) return undefined;
  const url = new URL(raw, location.href);
  return url.origin === location.origin ? url : undefined;
}

/**
 * Replaces `placeholder` by the body of its fragment page, then calls `loaded` with the new box (the island reviver
 * hydrates the islands it holds: a deferred example's copy button); on failure leaves the link, which still works.
 */
export async function loadFragment(placeholder: HTMLElement, loaded?: (box: HTMLElement) => void): Promise<boolean> {
  const url = fragmentUrl(placeholder);
  if (!url || placeholder.dataset.loading) return false;
  placeholder.dataset.loading = "true";
  placeholder.setAttribute("aria-busy", "true");
  try {
    const res = await fetch(url, { credentials: "same-origin", headers: { accept: "text/html" } });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const doc = new DOMParser().parseFromString(await res.text(), "text/html");
    const body = doc.querySelector("[data-frag-body]");
    if (!body) throw new Error("no fragment body");
    const box = document.createElement("div");
    box.className = "fb";
    for (const n of Array.from(body.childNodes)) box.appendChild(document.importNode(n, true));
    placeholder.replaceWith(box);
    loaded?.(box);
    return true;
  } catch (error) {
    console.warn("fragment could not load", error);
    delete placeholder.dataset.loading;
    placeholder.removeAttribute("aria-busy");
    return false;
  }
}

/**
 * Loads a details' placeholder when the reader opens it, and a placeholder whose link is clicked (only the link:
 * a deferred example's preview is text a reader selects). `loaded` is called with each body put in place.
 */
export function installLoadFragment(root: Document = document, loaded?: (box: HTMLElement) => void): void {
  root.addEventListener("toggle", (e) => {
    const d = e.target;
    const placeholder = d instanceof HTMLDetailsElement && d.open ? d.querySelector<HTMLElement>(":scope > .df") : null;
    if (placeholder) void loadFragment(placeholder, loaded);
  }, true);
  root.addEventListener("click", (e) => {
    const link = (e.target as Element).closest?.("a");
    const placeholder = link?.closest<HTMLElement>(".df");
    if (!placeholder || !fragmentUrl(placeholder)) return;
    e.preventDefault();
    void loadFragment(placeholder, loaded);
  });
}
