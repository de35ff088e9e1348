/** @module The API editor page's script: mounts the editor app into the server-rendered shell. */
import { h, render } from "preact";
import { App } from "../editor/ui/app";
import type { LintRuleset } from "../../worker/openapi/lint/ruleset";

const root = document.getElementById("editor-root");
if (root) {
  root.textContent = "";
  render(h(App, { portal: root.dataset.portal ?? "", api: root.dataset.api || undefined, workerUrl: root.dataset.worker ?? "/assets/lint-worker.js", lintRuleset: readRuleset(root.dataset.lintRuleset) }), root);
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
