/** @module The API editor page's script: mounts the editor app into the server-rendered shell. */
import { h, render } from "preact";
import { App } from "../editor/ui/app";

const root = document.getElementById("editor-root");
if (root) {
  root.textContent = "";
  render(h(App, { portal: root.dataset.portal ?? "", api: root.dataset.api || undefined, workerUrl: root.dataset.worker ?? "/assets/lint-worker.js" }), root);
}
