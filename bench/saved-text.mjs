// The editor's "text differs from the saved one" check per keystroke (issue 12, eighth round), in Node: CodeMirror's
// Text.eq against the saved text, as the editor did, and SavedText (client/editor/saved-text.ts), which decides
// from the edits since the save. GitHub's REST description (13 MB) is loaded as the page loads it (the first
// 64 KB, then the rest appended), then a character is typed and deleted again at 20 places spread over it (the
// Backspace makes the text as long as the saved one, so Text.eq has to compare). Prints figures only.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";

const ROOT = new URL("..", import.meta.url).pathname;
const FILE = process.env.BENCH_FILE ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");

export async function main() {
  const { EditorState } = await import("@codemirror/state");
  const { SavedText } = await tsImport("../client/editor/saved-text.ts", import.meta.url);
  const src = readFileSync(FILE, "utf8");
  const cut = src.indexOf("\n", 65536) + 1 || src.length;
  let state = EditorState.create({ doc: src.slice(0, cut) });
  state = state.update({ changes: { from: state.doc.length, insert: src.slice(cut) } }).state;
  const saved = state.doc;
  const tracker = new SavedText(saved);
  const eq = [];
  const edits = [];
  for (let i = 0; i < 20; i++) {
    const at = Math.floor((src.length * (i + 0.5)) / 20);
    for (const spec of [{ from: at, insert: "x" }, { from: at, to: at + 1 }]) {
      const tr = state.update({ changes: spec });
      state = tr.state;
      let t0 = performance.now();
      const a = !state.doc.eq(saved);
      eq.push(performance.now() - t0);
      t0 = performance.now();
      const b = tracker.edit(tr.changes, state.doc);
      edits.push(performance.now() - t0);
      if (a !== b) throw new Error(`the two checks disagree after edit ${eq.length}`);
    }
  }
  const pct = (xs, p) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(2);
  const line = (name, xs) => `  ${name} p50 ${pct(xs, 0.5)} ms  p95 ${pct(xs, 0.95)} ms  max ${Math.max(...xs).toFixed(2)} ms`;
  console.log(`saved-text: "differs from the saved text" after each of 40 one-character edits on ${FILE.split("/").pop()} (${(src.length / 1048576).toFixed(1)} MB)`);
  console.log(line("Text.eq (before)", eq));
  console.log(line("SavedText.edit  ", edits));
  console.log(`  Text.eq after each Backspace, first place to last: ${eq.filter((_, i) => i % 2).map((x) => x.toFixed(1)).join(" ")} ms`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
