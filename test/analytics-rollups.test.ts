/**
 * @module The search report's week and month rollups and its top-K pass (issue 29, docs/analytics.md) against the
 * real PortalAnalytics object: for random ranges (starting and ending mid-week and mid-month, and at the retention
 * edge, where the oldest week and month are partly deleted), the top and no-hit lists and the backlog's input equal
 * a brute-force sum over the daily rows; the week rows of an object from before them are summed from its days.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { dayOf } from "../worker/analytics/events";
import { PortalAnalytics, portalAnalytics, rangeSegments, REPORT_ROWS, retentionCutoff, weekOf, type ReportRange } from "../worker/analytics/portal-analytics";
import type { AnalyticsKind } from "../worker/analytics/query-id";

/** mulberry32 (as scripts/lib/demo-analytics.mjs, which imports node:http): the same stream from run to run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
const NOW = Date.parse("2026-09-30T12:00:00Z");
const day = (back: number) => dayOf(NOW - back * DAY);

interface DayRow {
  day: string;
  kind: AnalyticsKind;
  gated: number;
  q: string;
  searches: number;
  no_hit: number;
  clicks: number;
  position_sum: number;
}

/** The report's lists computed the slow way: every daily row of the range summed per query, then sorted. */
function bruteForce(rows: DayRow[], range: ReportRange, kinds: AnalyticsKind[], byKind: boolean) {
  const sums = new Map<string, { q: string; kind: AnalyticsKind; searches: number; noHit: number; clicks: number; positionSum: number; lastNoHit: string | null; gated: number }>();
  for (const r of rows) {
    if (r.day < range.from || r.day > range.to || !kinds.includes(r.kind) || (r.gated === 1 && !range.includeGated)) continue;
    const key = byKind ? `${r.kind} ${r.q}` : r.q;
    const t = sums.get(key) ?? { q: r.q, kind: r.kind, searches: 0, noHit: 0, clicks: 0, positionSum: 0, lastNoHit: null, gated: 0 };
    t.searches += r.searches;
    t.noHit += r.no_hit;
    t.clicks += r.clicks;
    t.positionSum += r.position_sum;
    if (r.no_hit > 0 && (t.lastNoHit === null || r.day > t.lastNoHit)) t.lastNoHit = r.day;
    t.gated = Math.max(t.gated, r.gated);
    sums.set(key, t);
  }
  return [...sums.values()];
}

const avg = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);

describe("week and month rollups, top-K pass", () => {
  const stub = () => portalAnalytics(env, 990_101);
  let rows: DayRow[] = [];

  beforeAll(async () => {
    // 200 days of a Zipf-like stream (s = 1 over 300 queries): both kinds, gated readers, no-hit queries, clicks.
    const random = prng(29);
    const queries = Array.from({ length: 300 }, (_, i) => `query ${i}`);
    const noHit = queries.map(() => random() < 0.15);
    const weights = queries.map((_, i) => 1 / (i + 1));
    const total = weights.reduce((a, b) => a + b, 0);
    const pick = () => {
      let x = random() * total;
      for (let i = 0; i < weights.length; i++) if ((x -= weights[i]) <= 0) return i;
      return weights.length - 1;
    };
    for (let back = 199; back >= 0; back--) {
      const searches = [];
      const clicks = [];
      for (let i = 0; i < 120; i++) {
        const r = pick();
        const kind: AnalyticsKind = random() < 0.2 ? "assistant" : "search";
        const gated = random() < 0.1;
        searches.push({ kind, q: queries[r], gated, results: noHit[r] && random() < 0.9 ? 0 : 5 });
        if (random() < 0.4) clicks.push({ kind, q: queries[r], gated, position: 1 + Math.floor(random() * 6) });
      }
      await stub().ingest({ day: day(back), searches, clicks, ratings: [] });
    }
    await runInDurableObject(stub(), (instance: PortalAnalytics, state) => {
      instance.prune(NOW);
      rows = state.storage.sql.exec<DayRow & Record<string, SqlStorageValue>>("SELECT * FROM query_days").toArray();
    });
  }, 120_000);

  it("cuts a range into whole months, whole ISO weeks and days", () => {
    const keys = (from: string, to: string) => rangeSegments(from, to).map((s) => `${s.column}:${s.key}`);
    // 2026-09-30 is a Wednesday; 2026-06-01 a Monday.
    expect(weekOf("2026-09-30")).toBe("2026-09-28");
    expect(weekOf("2026-09-28")).toBe("2026-09-28");
    expect(weekOf("2026-10-04")).toBe("2026-09-28");
    expect(keys("2026-05-29", "2026-07-15")).toEqual([
      "month:2026-06", "day:2026-05-29", "day:2026-05-30", "day:2026-05-31",
      "day:2026-07-01", "day:2026-07-02", "day:2026-07-03", "day:2026-07-04", "day:2026-07-05", "week:2026-07-06", "day:2026-07-13", "day:2026-07-14", "day:2026-07-15",
    ]);
    expect(keys("2026-09-01", "2026-09-30")).toEqual(["month:2026-09"]);
    expect(keys("2026-09-02", "2026-09-22")).toEqual(["day:2026-09-02", "day:2026-09-03", "day:2026-09-04", "day:2026-09-05", "day:2026-09-06", "week:2026-09-07", "week:2026-09-14", "day:2026-09-21", "day:2026-09-22"]);
    // Every day of a range is in exactly one segment.
    const random = prng(7);
    for (let i = 0; i < 50; i++) {
      const a = Math.floor(random() * 183);
      const b = Math.floor(random() * (a + 1));
      const covered: string[] = [];
      for (const s of rangeSegments(day(a), day(b))) {
        const first = s.column === "month" ? `${s.key}-01` : s.key;
        const last = s.column === "day" ? s.key : s.column === "week" ? dayOf(Date.parse(`${s.key}T00:00:00Z`) + 6 * DAY) : dayOf(Date.UTC(Number(s.key.slice(0, 4)), Number(s.key.slice(5, 7)), 0));
        for (let t = Date.parse(`${first}T00:00:00Z`); t <= Date.parse(`${last}T00:00:00Z`); t += DAY) covered.push(dayOf(t));
      }
      const expected: string[] = [];
      for (let k = a; k >= b; k--) expected.push(day(k));
      expect(covered.sort()).toEqual(expected);
    }
  });

  it("answers random ranges exactly as the daily rows add up, at the retention edge too", async () => {
    const cutoff = retentionCutoff(NOW);
    expect(rows.every((r) => r.day >= cutoff)).toBe(true);
    const random = prng(2029);
    const ranges: ReportRange[] = [
      { from: cutoff, to: day(0), includeGated: true },
      { from: cutoff, to: day(100), includeGated: false },
      { from: day(29), to: day(0), includeGated: true },
    ];
    for (let i = 0; i < 22; i++) {
      const a = Math.floor(random() * 184);
      const b = Math.floor(random() * (a + 1));
      ranges.push({ from: day(a), to: day(b), includeGated: random() < 0.7 });
    }
    await runInDurableObject(stub(), (instance: PortalAnalytics) => {
      for (const range of ranges) {
        for (const kind of ["search", "assistant"] as const) {
          const sums = bruteForce(rows, range, [kind], false);
          const top = [...sums].sort((a, b) => b.searches - a.searches || (a.q < b.q ? -1 : 1)).slice(0, REPORT_ROWS);
          const noHit = sums.filter((s) => s.noHit > 0).sort((a, b) => b.noHit - a.noHit || (a.q < b.q ? -1 : 1)).slice(0, REPORT_ROWS);
          const report = instance.searchReport(range, kind);
          const where = `${kind} ${range.from}..${range.to}${range.includeGated ? "" : " public"}`;
          expect(report.topQueries, where).toEqual(top.map((s) => ({ q: s.q, count: s.searches, noHit: s.noHit, clicks: s.clicks, avgClickPosition: avg(s.positionSum, s.clicks), gated: s.gated === 1 })));
          expect(report.noHitQueries, where).toEqual(noHit.map((s) => ({ q: s.q, count: s.noHit, lastSeen: s.lastNoHit, gated: s.gated === 1 })));
        }
        const backlog = bruteForce(rows, range, ["search", "assistant"], true)
          .filter((s) => s.noHit > 0)
          .sort((a, b) => b.noHit - a.noHit || (a.q < b.q ? -1 : a.q > b.q ? 1 : a.kind < b.kind ? -1 : 1))
          .map((s) => ({ q: s.q, kind: s.kind, count: s.noHit, lastSeen: s.lastNoHit, gated: s.gated === 1 }));
        expect(instance.noHitQueries(range), `backlog ${range.from}..${range.to}`).toEqual(backlog);
        expect(instance.noHitQueries(range, 7)).toEqual(backlog.slice(0, 7));
      }
    });
  });

  it("keeps the week rows equal to their days' sums, and sums them from the days in an object from before them", async () => {
    await runInDurableObject(stub(), (_instance: PortalAnalytics, state) => {
      const sql = state.storage.sql;
      const fromDays = () =>
        sql.exec(
          `SELECT date(day, '-6 days', 'weekday 1') AS week, kind, gated, q, SUM(searches) AS searches, SUM(no_hit) AS no_hit, SUM(clicks) AS clicks, SUM(position_sum) AS position_sum,
             MAX(CASE WHEN no_hit > 0 THEN day END) AS last_no_hit FROM query_days WHERE day >= (SELECT MIN(week) FROM query_weeks WHERE week >= ?) GROUP BY 1, kind, gated, q ORDER BY 1, kind, gated, q`, retentionCutoff(NOW)).toArray();
      const weeks = () => sql.exec("SELECT * FROM query_weeks WHERE week >= ? ORDER BY week, kind, gated, q", retentionCutoff(NOW)).toArray();
      const before = weeks();
      expect(before.length).toBeGreaterThan(1000);
      expect(before).toEqual(fromDays());
      sql.exec("DELETE FROM query_weeks");
      new PortalAnalytics(state as unknown as DurableObjectState, env);
      expect(weeks()).toEqual(before);
    });
  });
});
