/**
 * @module Row virtualisation shared by the problems panel and the Visual view's navigation: which rows of a
 * fixed-row-height list to render for a scroll position, and a hook that tracks the scroller's position and size.
 */
import type { RefObject } from "preact";
import { useLayoutEffect, useState } from "preact/hooks";

/** A virtualised list's shape: row height in CSS pixels, the row count from which it virtualises, rows kept around. */
export interface RowLayout {
  rowPx: number;
  virtualFrom: number;
  overscan: number;
}

/**
 * The rows to render: [first, last) of `total` for a scroll position `scrollTop` (CSS pixels from the first row)
 * and a viewport `height`; every row when `total` is at most `layout.virtualFrom`.
 */
export function visibleRange(layout: RowLayout, total: number, scrollTop: number, height: number): [number, number] {
  if (total <= layout.virtualFrom) return [0, total];
  const top = Math.max(0, scrollTop);
  // Clamped to `total`: a list that shrank while scrolled far down must not get a spacer taller than its rows.
  const first = Math.min(total, Math.max(0, Math.floor(top / layout.rowPx) - layout.overscan));
  const last = Math.min(total, Math.ceil((top + Math.max(height, layout.rowPx)) / layout.rowPx) + layout.overscan);
  return [first, Math.max(first, last)];
}

/**
 * The scroller's viewport (`top`: its scrollTop less `offset()`, e.g. a sticky table head; `height`: its client
 * height), starting from `initialHeight` until measured. `measure` re-reads it: call it on scroll; it also runs
 * on mount and whenever the scroller is resized (ResizeObserver, where the browser has one).
 */
export function useViewport(scroller: RefObject<HTMLElement | null>, initialHeight: number, offset: () => number = () => 0): { view: { top: number; height: number }; measure: () => void } {
  const [view, setView] = useState({ top: 0, height: initialHeight });
  const measure = () => {
    const el = scroller.current;
    if (!el) return;
    const top = el.scrollTop - offset();
    const height = el.clientHeight;
    setView((v) => (v.top === top && v.height === height ? v : { top, height }));
  };
  useLayoutEffect(() => {
    measure();
    const el = scroller.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return { view, measure };
}
