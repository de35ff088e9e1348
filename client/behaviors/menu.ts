/**
 * @module The phone menu (reader shell): the banner's Menu button opens what it controls (`aria-controls`, one id
 * or several): the banner's tabs and controls, folded on phones, and the sidebar over the page below them. While it
 * is open, focus stays between the button and those panels (Tab and Shift-Tab wrap; focus that lands elsewhere is
 * brought back); Escape or the button closes it and focus returns to the button; following a link closes it.
 * Without script the sidebar opens from a checkbox instead (worker/render/shell/reader-shell.tsx).
 */

import { inOpenDisclosure } from "./disclosure";

const FOCUSABLE = "a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex='-1'])";

/** Wires the menu button of `doc`, if the page has one; returns whether it did. */
export function installMenu(doc: Document = document): boolean {
  const button = doc.querySelector<HTMLButtonElement>(".menu-btn[aria-controls]");
  const panels = (button?.getAttribute("aria-controls") ?? "").split(/\s+/).map((id) => (id ? doc.getElementById(id) : null)).filter((p): p is HTMLElement => !!p);
  if (!button || panels.length === 0) return false;
  const isOpen = () => button.getAttribute("aria-expanded") === "true";
  const inPanels = (node: Node) => panels.some((p) => p.contains(node));
  // Only what is rendered counts: closed <details> and hidden switcher lists hold links that Tab skips.
  const focusables = () => [button, ...panels.flatMap((p) => [...p.querySelectorAll<HTMLElement>(FOCUSABLE)])].filter((el) => el.getClientRects().length > 0);

  const onKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      // Escape in an open Authorize or switcher closes that first (behaviors/disclosure.ts); the menu stays open.
      if (inOpenDisclosure(doc.activeElement)) return;
      e.preventDefault();
      close(true);
    } else if (e.key === "Tab") {
      const list = focusables();
      const at = list.indexOf(doc.activeElement as HTMLElement);
      const next = e.shiftKey ? (at <= 0 ? list.length - 1 : at - 1) : (at === -1 || at === list.length - 1 ? 0 : at + 1);
      e.preventDefault();
      list[next]?.focus();
    }
  };
  const onFocusIn = (e: FocusEvent) => {
    const target = e.target as Node | null;
    if (target && target !== button && !inPanels(target)) (focusables()[1] ?? button).focus();
  };
  const open = () => {
    for (const p of panels) p.classList.add("open");
    // Panels inside the banner open first; a panel outside it (the sidebar) starts below the banner as it is then.
    const top = Math.max(0, button.closest("header")?.getBoundingClientRect().bottom ?? 0);
    for (const p of panels) p.style.setProperty("--menu-top", `${Math.round(top)}px`);
    button.setAttribute("aria-expanded", "true");
    doc.addEventListener("keydown", onKey, true);
    doc.addEventListener("focusin", onFocusIn);
    // The current page in the sidebar when there is one (where the reader is), else the first control.
    const sidebarCurrent = panels.filter((p) => !p.closest("header")).map((p) => p.querySelector<HTMLElement>("[aria-current]")).find(Boolean);
    (sidebarCurrent ?? focusables()[1])?.focus();
  };
  const close = (returnFocus: boolean) => {
    if (!isOpen()) return;
    for (const p of panels) p.classList.remove("open");
    button.setAttribute("aria-expanded", "false");
    doc.removeEventListener("keydown", onKey, true);
    doc.removeEventListener("focusin", onFocusIn);
    if (returnFocus) button.focus();
  };
  button.addEventListener("click", () => (isOpen() ? close(true) : open()));
  for (const p of panels) {
    p.addEventListener("click", (e) => {
      if ((e.target as Element).closest("a[href]")) close(false);
    });
  }
  // Past phone width the panels are always shown: a menu left open would keep trapping focus.
  doc.defaultView?.matchMedia("(min-width: 801px)").addEventListener("change", (e) => e.matches && close(false));
  return true;
}
