/**
 * @module The editor's early Source view (issue 12): before the 514 KB editor bundle has been parsed and run,
 * a small script (client/entries/editor-early.ts) requests the definition and paints its first part as a
 * read-only, line-numbered view in the Source pane's place, with the editing screen's toolbar and problems
 * panel around it (same classes, so the same layout). The editor bundle then claims the request (no second
 * fetch) and replaces that view in the same task with CodeMirror, at the same scroll position.
 *
 * The hand-over is one object on `globalThis` (two bundles share no module state). Text reaches the DOM only
 * through `textContent` (hostile definitions), and only the first part (`FIRST_CHARS`) is shown: the rest is
 * held once, by the stream, until the editor takes it.
 */
import { afterNextFrame, ApiClient, storedToken } from "./api-client";
import type { DefinitionStream } from "./api-client";

/** Characters shown before the rest of a large definition has arrived (a few screens' worth). */
export const FIRST_CHARS = 64 * 1024;

/** The definition request begun by the early script, as the editor bundle takes it over. */
export interface EarlyDefinition {
  portal: string;
  api: string;
  token: string;
  /** The streamed definition (undefined: the API has no live version); rejects as `ApiClient` calls do. */
  stream: Promise<DefinitionStream | undefined>;
  /**
   * Lets the stream read the rest of the definition, after the next frame. Until then it reads nothing past
   * the first part: reading and decoding 13 MB would compete with the editor bundle's run and first frame, so
   * the editor calls this once it shows the text.
   */
  beginRest: () => void;
  /** Set once `stream` has resolved, so the editor can start on it synchronously (no "Loading…" frame). */
  settled?: { value: DefinitionStream | undefined };
  /**
   * The early view's scroll offsets when it was claimed, its line height and top padding, and how far below a
   * line's top its glyphs start (`glyphInset`; CodeMirror scrolls by a character's box); CSS pixels. Absent if
   * no early view was shown.
   */
  scroll?: { top: number; left: number; lineHeight: number; paddingTop: number; glyphInset: number };
}

interface EarlyState extends EarlyDefinition {
  /** The early view's scroller while it is in the page. */
  view?: HTMLElement;
  claimed: boolean;
  /** `performance.now()` of the first frame painted with the early view's text (for the benchmark). */
  paintAt?: number;
}

const KEY = "__porticoEarly";
type Holder = { [KEY]?: EarlyState };

/** The view mode the editor will open in (URL `?view=`, else the stored choice), as EditorShell decides it. */
export function storedViewMode(): "source" | "visual" | "split" {
  const fromUrl = new URLSearchParams(location.search).get("view");
  let stored = fromUrl;
  try {
    stored ??= localStorage.getItem("portico:editor:view");
  } catch {
    // Storage disabled: the default view.
  }
  return stored === "visual" || stored === "split" ? stored : "source";
}

/**
 * Starts the definition request for the page's API when a token is stored, and paints the early view when the
 * editor opens in the Source view. Calls `loadEditor` once the first part has been painted (or at once when
 * there is nothing to paint, or when the request fails: the editor reports that).
 */
export function startEarly(root: HTMLElement, loadEditor: () => void): void {
  const portal = root.dataset.portal ?? "";
  const api = root.dataset.api || undefined;
  const token = storedToken(portal);
  if (!api || !token) return loadEditor();
  let begin!: () => void;
  const restAfter = new Promise<void>((resolve) => (begin = resolve));
  const beginRest = () => void afterNextFrame().then(begin);
  const state: EarlyState = { portal, api, token, stream: new ApiClient(token).streamDefinition(api, FIRST_CHARS, restAfter), beginRest, claimed: false };
  (globalThis as Holder)[KEY] = state;
  const paint = storedViewMode() === "source";
  state.stream.then(
    (value) => {
      state.settled = { value };
      if (!paint || !value || state.claimed) return loadEditor();
      state.view = renderEarlyView(root, api, value.first);
      // A frame callback runs just before that frame is painted; the bundle runs in a task after it.
      requestAnimationFrame(() => {
        state.paintAt = performance.now();
        setTimeout(loadEditor, 0);
      });
    },
    () => loadEditor(),
  );
}

/**
 * Takes over the early request if it is for this portal, API and token (once; later calls get undefined),
 * noting the early view's scroll offsets. The caller then replaces the early view (in the same task, so it is
 * never painted without either).
 */
export function claimEarly(portal: string, api: string | undefined, token: string | undefined): EarlyDefinition | undefined {
  const state = (globalThis as Holder)[KEY];
  if (!state || state.claimed || state.portal !== portal || state.api !== api || state.token !== token) return undefined;
  state.claimed = true;
  const view = state.view;
  state.view = undefined;
  let scroll: EarlyDefinition["scroll"];
  if (view?.isConnected) {
    const text = view.querySelector<HTMLElement>(".ed-early-text");
    const style = text ? getComputedStyle(text) : undefined;
    scroll = { top: view.scrollTop, left: view.scrollLeft, lineHeight: parseFloat(style?.lineHeight ?? "") || 19.5, paddingTop: parseFloat(style?.paddingTop ?? "") || 0, glyphInset: glyphInset(text?.querySelector(".ed-early-active") ?? null) };
  }
  return { portal: state.portal, api: state.api, token: state.token, stream: state.stream, beginRest: state.beginRest, settled: state.settled, scroll };
}

/** How far below the top of `line` (a block one line high) its first character's box starts, in CSS pixels. */
function glyphInset(line: Element | null): number {
  const node = line?.firstChild;
  if (!line || !node || node.nodeType !== Node.TEXT_NODE || !(node as Text).length) return 0;
  const range = document.createRange();
  range.setStart(node, 0);
  range.setEnd(node, 1);
  return range.getBoundingClientRect().top - line.getBoundingClientRect().top;
}

/** When the early view was first painted (ms since navigation), for the benchmark; undefined if it was not. */
export function earlyPaintAt(): number | undefined {
  return (globalThis as Holder)[KEY]?.paintAt;
}

type Child = Node | string;

function el(tag: string, attrs: Record<string, string>, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  // Strings become text nodes: nothing here is parsed as HTML.
  for (const c of children) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  return e;
}

/**
 * Replaces `root`'s content with the editing screen as EditorShell first renders it in the Source view (toolbar
 * as it looks while loading, the problems panel still checking; its buttons act once the editor has replaced it) and the first part of the text
 * in the Source pane: line numbers, fold and lint gutters of CodeMirror's widths, its font and line height
 * (client/static/editor.css `.ed-early-*`). Returns the view's scroller.
 */
function renderEarlyView(root: HTMLElement, api: string, first: string): HTMLElement {
  const json = /^\s*[{[]/.test(first.slice(0, 200));
  const lines = first.endsWith("\n") ? first.slice(0, -1).split("\n") : first.split("\n");
  const numbers = Array.from({ length: lines.length }, (_, i) => String(i + 1));
  const firstLineEnd = first.indexOf("\n");
  // The first line keeps its line break (a break ending a block adds no line), so the text reads as it came.
  const head = firstLineEnd < 0 ? first : first.slice(0, firstLineEnd + 1);
  const tail = firstLineEnd < 0 ? "" : first.slice(firstLineEnd + 1);
  const button = (label: string, attrs: Record<string, string> = {}) => el("button", { type: "button", ...attrs }, label);
  const toolbar = el(
    "header",
    { class: "ed-toolbar" },
    el("a", { class: "ed-home", href: `/p/${encodeURIComponent(root.dataset.portal ?? "")}/editor/` }, "Portico editor"),
    el("span", { class: "ed-api" }, api),
    el("div", { class: "ed-modes", role: "group", "aria-label": "View" }, button("Source", { "aria-pressed": "true" }), button("Visual", { "aria-pressed": "false" }), button("Split", { "aria-pressed": "false" })),
    button(`Convert to ${json ? "YAML" : "JSON"}`, { disabled: "" }),
    el("span", { class: "ed-spacer" }),
    el("span", { class: "ed-muted", role: "status", "data-loading": "" }, "Loading the rest of the definition…"),
    button("Save and publish", { class: "ed-primary", disabled: "" }),
    button("Sign out", { class: "ed-link" }),
  );
  const view = el(
    "div",
    { class: "ed-early", "data-early-source": "", tabindex: "0", "aria-label": "Source (loading, read-only)" },
    el(
      "div",
      { class: "ed-early-gutters", "aria-hidden": "true" },
      el("pre", { class: "ed-early-numbers" }, el("span", { class: "ed-early-active" }, `${numbers[0] ?? "1"}\n`), numbers.slice(1).join("\n")),
      // The fold gutter is as wide as CodeMirror's open-fold marker; the lint gutter is 1.4em wide.
      el("div", { class: "ed-early-fold" }, el("span", {}, "⌄")),
      el("div", { class: "ed-early-lint" }),
    ),
    // `elementtiming`: the browser reports when this text was actually painted (Element Timing; bench/editor.mjs).
    // Chromium attributes text to the block that lays it out: the first line is the block span's, which the
    // pre's attribute does not cover (a one-line definition, all in that span, gave no entry), so it carries one.
    el("pre", { class: "ed-early-text", elementtiming: "portico-early-source" }, el("span", { class: "ed-early-active", elementtiming: "portico-early-source" }, head), tail),
  );
  const problems = el(
    "section",
    { class: "ed-problems", "aria-label": "Problems" },
    el("header", {}, button("▾ Problems", { class: "ed-twisty", "aria-expanded": "true" }), el("span", { class: "ed-sev-error" }, "0 errors"), el("span", { class: "ed-sev-warn" }, "0 warnings"), el("span", { class: "ed-muted" }, "checking…")),
    el(
      "div",
      { class: "ed-problems-scroll" },
      el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "ed-col-sev" }, "Severity"), el("th", { scope: "col", class: "ed-col-rule" }, "Rule"), el("th", { scope: "col" }, "Message"), el("th", { scope: "col", class: "ed-col-line" }, "Line"))), el("tbody", {})),
      el("p", { class: "ed-muted" }, "No problems."),
    ),
  );
  const app = el("div", { class: "ed-app ed-mode-source" }, toolbar, el("main", { class: "ed-main" }, el("section", { class: "ed-source", "aria-label": "Source" }, el("div", { class: "ed-source-host" }, view))), problems);
  root.replaceChildren(app);
  return view;
}
