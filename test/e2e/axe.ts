/** @module axe-core in Chromium: injects the npm package's script into a page and runs WCAG 2.1 AA + best practices. */
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_PATH = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The rule sets the shell is judged by (issue 33): WCAG 2.0/2.1 A and AA, and axe's best practices. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** One violated rule on a page: its id, impact, how many elements and the first few selectors. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: number;
  targets: string[];
}

/**
 * Runs axe on the page as it is now. The page's context must be created with `bypassCSP: true`: the pages' CSP
 * (script-src 'self') refuses the injected script otherwise.
 */
export async function runAxe(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async (tags) => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)) }));
  }, AXE_TAGS);
}
