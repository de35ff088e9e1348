/**
 * @module Where reader routes hand analytics their events: the privacy check (`DNT: 1` / `Sec-GPC: 1` readers are
 * not recorded), whether the reader holds a gated audience, query ids for answers, and the server-side records of
 * searches no script reports (the no-script search page, the assistant's questions). Each record is one call to the
 * portal's PortalAnalytics, after the answer (waitUntil), and a data point to Workers Analytics Engine when bound.
 */
import type { Context } from "hono";
import type { ReaderContext } from "../access/reader";
import type { AppEnv } from "../env";
import type { IngestBatch } from "./events";
import { dayOf } from "./events";
import { portalAnalytics } from "./portal-analytics";
import { normalizeQuery, signQueryId, type AnalyticsKind } from "./query-id";

/** True when the reader asked not to be tracked (`DNT: 1`, or Global Privacy Control's `Sec-GPC: 1`). */
export function optedOut(headers: Headers): boolean {
  return headers.get("dnt")?.trim() === "1" || headers.get("sec-gpc")?.trim() === "1";
}

/** Whether what this reader searches may name gated material (they hold an audience other than `public`). */
export function gatedReader(reader: ReaderContext): boolean {
  return reader.audiences.some((a) => a !== "public");
}

/** The signed query id for an answer to `q` (undefined for an empty query or without `SESSION_SECRET`). */
export async function queryIdFor(env: Env, portalId: number, kind: AnalyticsKind, reader: ReaderContext, q: string, results: number, nowMs = Date.now()): Promise<string | undefined> {
  const stored = normalizeQuery(q);
  if (!stored) return undefined;
  return signQueryId(env.SESSION_SECRET, { portalId, kind, gated: gatedReader(reader), issuedAt: Math.floor(nowMs / 1000), results, q: stored });
}

/** Raw events to Workers Analytics Engine ([env.production] only): one data point per event, no reader identity. */
export function sinkToAnalyticsEngine(env: Env, portalId: number, batch: IngestBatch): void {
  const dataset = (env as { ANALYTICS_EVENTS?: AnalyticsEngineDataset }).ANALYTICS_EVENTS;
  if (!dataset) return;
  const index = [String(portalId)];
  for (const s of batch.searches) dataset.writeDataPoint({ indexes: index, blobs: ["search", s.kind, s.q], doubles: [s.results, s.gated ? 1 : 0] });
  for (const k of batch.clicks) dataset.writeDataPoint({ indexes: index, blobs: ["click", k.kind, k.q], doubles: [k.position, k.gated ? 1 : 0] });
  for (const r of batch.ratings) dataset.writeDataPoint({ indexes: index, blobs: ["feedback", r.url], doubles: [r.helpful ? 1 : 0, r.gated ? 1 : 0] });
}

/**
 * Records one search the server saw whole (the no-script results page, an assistant question), after the answer;
 * nothing for an opted-out reader or an empty query. Failures are logged, never surfaced to the reader.
 */
export function recordServerSearch(c: Context<AppEnv>, portalId: number, kind: AnalyticsKind, reader: ReaderContext, q: string, results: number): void {
  if (optedOut(c.req.raw.headers)) return;
  const stored = normalizeQuery(q);
  if (!stored) return;
  const batch: IngestBatch = { day: dayOf(Date.now()), searches: [{ kind, q: stored, gated: gatedReader(reader), results }], clicks: [], ratings: [] };
  const work = (async () => {
    try {
      sinkToAnalyticsEngine(c.env, portalId, batch);
      await portalAnalytics(c.env, portalId).ingest(batch);
    } catch (e) {
      console.warn("analytics: a search was not recorded", e instanceof Error ? e.message : String(e));
    }
  })();
  try {
    c.executionCtx.waitUntil(work);
  } catch {
    // No execution context (a unit test calling the app directly): the promise runs on its own.
  }
}
