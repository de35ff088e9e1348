/** @module Hosts the session's CodeMirror view (created once, kept alive while hidden so the text stays in it). */
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import type { EditorSession } from "../session";

export function SourcePane({ session, visible }: { session: EditorSession; visible: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  // A layout effect: the text is in the first frame painted (an effect would run after that paint).
  useLayoutEffect(() => {
    host.current?.appendChild(session.view.dom);
    session.mounted();
  }, [session]);
  useEffect(() => {
    if (visible) session.view.requestMeasure();
  }, [visible]);
  return <div class="ed-source-host" ref={host} />;
}
