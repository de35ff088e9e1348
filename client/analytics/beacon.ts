/**
 * @module Analytics events from the reader's page (issue 29, docs/analytics.md): batched to
 * `POST {base}/analytics/events` with `navigator.sendBeacon` (it survives the page being left), or `fetch` with
 * `keepalive` where there is no beacon. Nothing is sent when the reader asked not to be tracked (Do Not Track or
 * Global Privacy Control); the server checks the headers again. No identifier of the reader is sent.
 */

/** One event as the endpoint takes it. */
export type AnalyticsEvent =
  | { type: "search"; queryId: string; q: string; results: number }
  | { type: "click"; queryId: string; position: number; url: string }
  | { type: "feedback"; url: string; helpful: boolean; comment?: string; title?: string };

/** True when the browser says the reader opted out (`navigator.doNotTrack` or `globalPrivacyControl`). */
export function trackingRefused(nav: Navigator = navigator): boolean {
  const n = nav as Navigator & { globalPrivacyControl?: boolean; doNotTrack?: string | null };
  return n.globalPrivacyControl === true || n.doNotTrack === "1";
}

/** Sends `events` (at most 50) for the portal at `base`; false when nothing was sent. */
export function sendEvents(base: string, events: AnalyticsEvent[]): boolean {
  if (events.length === 0 || typeof navigator === "undefined" || trackingRefused()) return false;
  const url = `${base}/analytics/events`;
  const body = JSON.stringify(events.slice(0, 50));
  try {
    if (navigator.sendBeacon?.(url, new Blob([body], { type: "application/json" }))) return true;
  } catch {
    // a beacon refused (too large, or the page is gone): fall through to fetch
  }
  void fetch(url, { method: "POST", body, keepalive: true, headers: { "content-type": "application/json" } }).catch(() => undefined);
  return true;
}

/** A query answered, as `search.json` gave it. */
export interface Answered {
  queryId: string;
  q: string;
  results: number;
}

/**
 * One typing session of a search box or the quick switcher: every answer replaces the last, and only the final
 * query is reported, when the session ends (a result opened, the box left, the page hidden), never per keystroke.
 */
export class SearchSession {
  private last?: Answered;
  private reported = new Set<string>();

  constructor(private readonly base: string, private readonly send: (base: string, events: AnalyticsEvent[]) => boolean = sendEvents) {}

  /** The latest answer of the session (a query with no id, e.g. no secret configured, is not counted). */
  answered(a: Partial<Answered> & { q: string; results: number }): void {
    if (a.queryId && a.q.trim()) this.last = { queryId: a.queryId, q: a.q, results: a.results };
  }

  /** A result at `position` (1-based) was opened: the final query and the click go out together. */
  clicked(position: number, url: string): void {
    const last = this.last;
    if (!last) return;
    const events: AnalyticsEvent[] = this.reported.has(last.queryId) ? [] : [{ type: "search", ...last }];
    events.push({ type: "click", queryId: last.queryId, position, url });
    this.reported.add(last.queryId);
    this.send(this.base, events);
  }

  /** The session ended without a click: its final query is reported once. */
  end(): void {
    const last = this.last;
    if (!last || this.reported.has(last.queryId)) return;
    this.reported.add(last.queryId);
    this.send(this.base, [{ type: "search", ...last }]);
  }

  /** The query went to the no-script results page, which counts it itself: not reported from here. */
  handedToServer(): void {
    if (this.last) this.reported.add(this.last.queryId);
  }
}
