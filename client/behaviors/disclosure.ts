/**
 * @module Escape closes the banner's disclosures (Authorize, the API and version switchers: `<details>` elements),
 * and focus returns to their summary, as it does for the phone menu and Try it. A native `<details>` has no Escape.
 */

/** The disclosures Escape closes: the top bar's Authorize and the reference sidebar's switchers. */
const DISCLOSURES = "details.authz[open], details.sw[open]";

/** Listens on `doc` (bubbling, so a control inside that handles Escape itself, and cancels it, keeps it). */
export function installDisclosureEscape(doc: Document = document): void {
  doc.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || e.defaultPrevented) return;
    const open = (doc.activeElement as Element | null)?.closest<HTMLDetailsElement>(DISCLOSURES);
    if (!open) return;
    e.preventDefault();
    open.open = false;
    open.querySelector<HTMLElement>(":scope > summary")?.focus();
  });
}

/** Whether `el` is inside an open disclosure that {@link installDisclosureEscape} closes first. */
export function inOpenDisclosure(el: Element | null): boolean {
  return !!el?.closest(DISCLOSURES);
}
