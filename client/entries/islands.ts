/**
 * @module Island reviver: finds `[data-island]` markers, imports each island once by name, and hydrates it with
 * its JSON props inside an error boundary. Everything else on the page stays static HTML, plus delegated
 * behaviours (repeated schemas expand in place; deferred schema bodies and long examples load on expand; the
 * shell's phone menu; Escape closing Authorize and the switchers).
 */
import { h, hydrate } from "preact";
import { installDisclosureEscape } from "../behaviors/disclosure";
import { installExpandRepeat } from "../behaviors/expand-repeat";
import { installLoadFragment } from "../behaviors/load-fragment";
import { installMenu } from "../behaviors/menu";
import { installPageFeedback } from "../behaviors/page-feedback";
import { IslandBoundary } from "../islands/error-boundary";
import { ISLANDS } from "../islands/registry";
import type { IslandName } from "../islands/types";

document.documentElement.classList.add("js");
installExpandRepeat();
installMenu();
installDisclosureEscape();
installPageFeedback();
// A loaded fragment may hold islands (a deferred example's copy button): revive them like the page's.
installLoadFragment(document, (box) => {
  for (const el of box.querySelectorAll<HTMLElement>("[data-island]")) void revive(el);
});

async function revive(el: HTMLElement): Promise<void> {
  const name = el.dataset.island as IslandName;
  const load = ISLANDS[name];
  if (!load) return;
  let props: unknown = {};
  try {
    props = JSON.parse(el.dataset.props ?? "{}");
  } catch {
    return;
  }
  const fallbackHtml = el.innerHTML;
  try {
    const { default: Island } = await load();
    hydrate(h(IslandBoundary, { name, fallbackHtml }, h(Island, props as object)), el);
  } catch (error) {
    console.warn(`island ${name} could not start`, error);
  }
}

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) void revive(el);
