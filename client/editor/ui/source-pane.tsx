/** @module Hosts the session's CodeMirror view (created once, kept alive while hidden so the text stays in it). */
import { EditorView } from "@codemirror/view";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { EarlyDefinition } from "../early";
import type { EditorSession } from "../session";

export function SourcePane({ session, visible, initialScroll }: { session: EditorSession; visible: boolean; initialScroll?: EarlyDefinition["scroll"] }) {
  const host = useRef<HTMLDivElement>(null);
  // A layout effect: the text is in the first frame painted (an effect would run after that paint).
  useLayoutEffect(() => {
    host.current?.appendChild(session.view.dom);
    if (initialScroll) keepScroll(session.view, initialScroll);
    session.mounted();
  }, [session]);
  useEffect(() => {
    if (visible) session.view.requestMeasure();
  }, [visible]);
  return <div class="ed-source-host" ref={host} />;
}

/**
 * Opens the view where the early Source view had been scrolled to: the line at its top edge, at the same
 * offset within that line (both views have the same line height and top padding). A scroll effect, not a
 * `scrollTop`: CodeMirror resolves it in its first measure, with real line heights, before that frame is painted.
 * It places the character's box, which starts `glyphInset` below its line's top, `yMargin` below the edge.
 */
function keepScroll(view: EditorView, scroll: NonNullable<EarlyDefinition["scroll"]>): void {
  if (scroll.left > 0) view.scrollDOM.scrollLeft = scroll.left;
  const below = scroll.top - scroll.paddingTop;
  if (below <= 0) return;
  const index = Math.floor(below / scroll.lineHeight);
  const doc = view.state.doc;
  if (index + 1 > doc.lines) return;
  const offset = below - index * scroll.lineHeight;
  view.dispatch({ effects: EditorView.scrollIntoView(doc.line(index + 1).from, { y: "start", yMargin: scroll.glyphInset - offset }) });
}
