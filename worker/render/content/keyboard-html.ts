/** @module Stored content HTML made usable from the keyboard when a page is rendered (releases already published included). */

/**
 * Code blocks take focus, so a reader without a mouse can scroll one that overflows (WCAG 2.1.1; axe
 * `scrollable-region-focusable`), and heading permalinks, hidden from assistive technology, leave the tab order
 * (axe `aria-hidden-focus`). `html` is sanitised at publish time, so `<pre` and the permalink's opening tag only
 * ever occur as real tags (text carries `&lt;`), and neither carries a tabindex of its own.
 */
export function keyboardHtml(html: string): string {
  return html.replace(/<pre(?=[\s>])/g, '<pre tabindex="0"').replace(/<a class="header-anchor"/g, '<a tabindex="-1" class="header-anchor"');
}
