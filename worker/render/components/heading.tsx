/** @module A heading whose level is chosen by the page (operation page: sections are h2; single page: h3). */
import { h, type ComponentChildren } from "preact";

/** `<h{level}>`, clamped to 1..6. */
export function H({ level, id, children, class: cls }: { level: number; id?: string; children?: ComponentChildren; class?: string }) {
  return h(`h${Math.max(1, Math.min(6, level))}`, { id, class: cls }, children);
}
