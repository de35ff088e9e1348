/**
 * @module The API editor page's script (loaded by client/entries/editor-early.ts): mounts the editor app into the
 * server-rendered shell, taking over the definition request and early Source view the first script began.
 */
import { h, render } from "preact";
import { storedToken } from "../editor/api-client";
import { claimEarly } from "../editor/early";
import { App } from "../editor/ui/app";
import type { LintRuleset } from "../../worker/openapi/lint/ruleset";

const root = document.getElementById("editor-root");
if (root) {
  const portal = root.dataset.portal ?? "";
  const api = root.dataset.api || undefined;
  // Claimed before the early view is cleared (its scroll offsets are read here); the app renders in this task,
  // so no frame is painted between the two views.
  const early = claimEarly(portal, api, storedToken(portal));
  root.textContent = "";
  render(h(App, { portal, api, early, workerUrl: root.dataset.worker ?? "/assets/lint-worker.js", lintRuleset: readRuleset(root.dataset.lintRuleset) }), root);
}

/** The portal's lint ruleset, as the page carries it (JSON in `data-lint-ruleset`); absent or unreadable: none. */
function readRuleset(json: string | undefined): LintRuleset | undefined {
  if (!json) return undefined;
  try {
    return JSON.parse(json) as LintRuleset;
  } catch {
    return undefined;
  }
}
