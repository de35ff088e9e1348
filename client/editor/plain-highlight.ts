/**
 * @module Highlighting for very large definitions without a syntax tree (issue 12). CodeMirror's Lezer
 * parsers keep a whole-document tree: on GitHub's 13 MB description the parser catching up behind the
 * viewport (after the cursor jumps, in background slices of up to ~100 ms) took about 30 % of the page's
 * main thread during typing and delayed the lint worker's answers. Past `LARGE_DOC_CHARS` the Source view
 * instead colours only the lines in view, one line at a time, with a small tokenizer: JSON strings cannot
 * span lines, so for JSON that is exact; for YAML it is an approximation (block scalars are coloured as
 * plain text). What goes with the tree: syntax folding and language-aware indentation on Enter.
 */
import type { Extension } from "@codemirror/state";
import { RangeSetBuilder } from "@codemirror/state";
import { Decoration, EditorView, ViewPlugin } from "@codemirror/view";
import type { DecorationSet, ViewUpdate } from "@codemirror/view";
import type { SourceFormat } from "./protocol";

/** Documents of this many characters and more get `plainHighlight` instead of the Lezer language (4 Mi). */
export const LARGE_DOC_CHARS = 4 * 1024 * 1024;

/** Characters tokenized at most per visible range (a minified file is one line of megabytes). */
const MAX_RANGE_CHARS = 256 * 1024;

/** A token of one line: offsets relative to the line's start, and its class. */
export interface PlainToken {
  from: number;
  to: number;
  kind: "key" | "string" | "number" | "atom" | "comment";
}

const JSON_TOKEN = /"(?:[^"\\]|\\.)*(?:"|$)|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b/g;
const YAML_KEY = /^(\s*(?:-\s+)*)((?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#:'"\-][^#:]*?|-[^\s#:][^#:]*?))\s*:(?=\s|$)/;
const YAML_VALUE = /#.*$|"(?:[^"\\]|\\.)*(?:"|$)|'(?:[^']|'')*(?:'|$)|(?<![\w.-])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.-])|(?<![\w.-])(?:true|false|null|~)(?![\w.-])/g;

/**
 * Tokens of one line of JSON or YAML (`text` is the line, or a part of it starting at `offset` 0 of a token
 * boundary as far as the caller knows). A JSON string followed by `:` is a key; in YAML a `#` after a space
 * (or at the start) begins a comment.
 */
export function tokenizeLine(text: string, format: SourceFormat): PlainToken[] {
  const out: PlainToken[] = [];
  if (format === "json") {
    JSON_TOKEN.lastIndex = 0;
    for (let m; (m = JSON_TOKEN.exec(text)); ) {
      const from = m.index;
      const to = from + m[0].length;
      const c = m[0][0];
      let kind: PlainToken["kind"] = c === '"' ? "string" : c === "t" || c === "f" || c === "n" ? "atom" : "number";
      if (kind === "string" && /^\s*:/.test(text.slice(to, to + 16))) kind = "key";
      out.push({ from, to, kind });
    }
    return out;
  }
  let start = 0;
  const key = YAML_KEY.exec(text);
  if (key) {
    const from = key[1].length;
    out.push({ from, to: from + key[2].length, kind: "key" });
    start = key[0].length;
  }
  YAML_VALUE.lastIndex = start;
  for (let m; (m = YAML_VALUE.exec(text)); ) {
    const c = m[0][0];
    // `#` starts a comment only at the line's start or after whitespace (`a#b` is plain text).
    if (c === "#" && m.index > 0 && !/\s/.test(text[m.index - 1])) {
      YAML_VALUE.lastIndex = m.index + 1;
      continue;
    }
    const kind: PlainToken["kind"] = c === "#" ? "comment" : c === '"' || c === "'" ? "string" : /[-\d]/.test(c) ? "number" : "atom";
    out.push({ from: m.index, to: m.index + m[0].length, kind });
    if (kind === "comment") break;
  }
  return out;
}

const MARKS: Record<PlainToken["kind"], Decoration> = {
  key: Decoration.mark({ class: "cm-plain-key" }),
  string: Decoration.mark({ class: "cm-plain-string" }),
  number: Decoration.mark({ class: "cm-plain-number" }),
  atom: Decoration.mark({ class: "cm-plain-atom" }),
  comment: Decoration.mark({ class: "cm-plain-comment" }),
};

function decorate(view: EditorView, format: SourceFormat): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  const doc = view.state.doc;
  let last = 0;
  for (const range of view.visibleRanges) {
    const end = Math.min(range.to, range.from + MAX_RANGE_CHARS);
    for (let pos = Math.max(range.from, last); pos <= end; ) {
      const line = doc.lineAt(pos);
      const from = Math.max(line.from, pos);
      const to = Math.min(line.to, end);
      for (const t of tokenizeLine(doc.sliceString(from, to), format)) builder.add(from + t.from, from + t.to, MARKS[t.kind]);
      last = line.to + 1;
      pos = line.to + 1;
    }
  }
  return builder.finish();
}

const THEME = EditorView.baseTheme({
  ".cm-plain-key": { color: "#1a5fb4" },
  ".cm-plain-string": { color: "#a11" },
  ".cm-plain-number": { color: "#164" },
  ".cm-plain-atom": { color: "#219" },
  ".cm-plain-comment": { color: "#940" },
});

/** The viewport-only highlighter for `format` (see the module comment); recomputed when the text or viewport moves. */
export function plainHighlight(format: SourceFormat): Extension {
  const plugin = ViewPlugin.fromClass(
    class {
      decorations: DecorationSet;
      constructor(view: EditorView) {
        this.decorations = decorate(view, format);
      }
      update(u: ViewUpdate) {
        if (u.docChanged || u.viewportChanged) this.decorations = decorate(u.view, format);
      }
    },
    { decorations: (v) => v.decorations },
  );
  return [plugin, THEME];
}
