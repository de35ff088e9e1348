/**
 * @module CodeMirror 6 extensions for the Source view: a basic setup assembled from @codemirror/* (the
 * `codemirror` package installed here is the legacy 5.x line), YAML/JSON modes, folding, search, lint gutter.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { yaml } from "@codemirror/lang-yaml";
import { bracketMatching, defaultHighlightStyle, foldGutter, foldKeymap, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, lintKeymap } from "@codemirror/lint";
import { highlightSelectionMatches, searchKeymap } from "@codemirror/search";
import { Compartment, EditorState } from "@codemirror/state";
import type { Extension } from "@codemirror/state";
import {
  crosshairCursor,
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from "@codemirror/view";
import { plainHighlight } from "./plain-highlight";
import type { SourceFormat } from "./protocol";

/** Swapped when the writer converts between YAML and JSON. */
export const languageCompartment = new Compartment();

/**
 * The language support of the Source view: the Lezer parser for `format`, or, for a document of
 * `LARGE_DOC_CHARS` and more (`large`), the viewport-only highlighter (no whole-document syntax tree; see
 * plain-highlight.ts).
 */
export function languageFor(format: SourceFormat, large = false): Extension {
  if (large) return plainHighlight(format);
  return format === "json" ? json() : yaml();
}

const THEME = EditorView.theme({
  "&": { height: "100%", fontSize: "13px" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.5" },
  ".cm-content": { paddingBottom: "40vh" },
});

/**
 * CodeMirror mounts its styles as `<style>` elements at run time; the editor page's CSP admits them only with
 * the per-response nonce the server puts on `#editor-root` (worker/routes/editor.ts).
 */
function styleNonce(): Extension[] {
  const nonce = typeof document === "undefined" ? undefined : document.getElementById("editor-root")?.dataset.styleNonce;
  return nonce ? [EditorView.cspNonce.of(nonce)] : [];
}

/** Extensions of the Source view; `onSave` binds Mod-s. */
export function editorExtensions(format: SourceFormat, onSave: () => void, extra: Extension[], large = false): Extension[] {
  return [
    ...styleNonce(),
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    foldGutter(),
    drawSelection(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    indentOnInput(),
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    bracketMatching(),
    closeBrackets(),
    autocompletion(),
    rectangularSelection(),
    crosshairCursor(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    lintGutter(),
    keymap.of([
      { key: "Mod-s", preventDefault: true, run: () => (onSave(), true) },
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...searchKeymap,
      ...historyKeymap,
      ...foldKeymap,
      ...completionKeymap,
      ...lintKeymap,
      indentWithTab,
    ]),
    languageCompartment.of(languageFor(format, large)),
    EditorState.tabSize.of(2),
    THEME,
    ...extra,
  ];
}
