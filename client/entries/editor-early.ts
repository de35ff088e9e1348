/**
 * @module The editor page's first script (a few KB): requests the definition and paints its first part before
 * the editor bundle (`data-script` on `#editor-root`) is loaded and run, then loads it (client/editor/early.ts).
 */
import { startEarly } from "../editor/early";

const root = document.getElementById("editor-root");
if (root?.dataset.script) {
  const script = root.dataset.script;
  // A variable specifier: the bundler leaves it to the browser (the editor is its own bundle, preloaded by the page).
  startEarly(root, () => void import(/* @vite-ignore */ script));
}
