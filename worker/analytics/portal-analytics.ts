/**
 * @module The PortalAnalytics Durable Object (issue 29): one per portal, its search analytics, page ratings and
 * backlog drafts in the object's own SQLite storage, out of the shared D1 (docs/analytics.md sizes both). Events
 * arrive as one {@link IngestBatch} per request and are folded into daily rollups (query × day, click position ×
 * day, page × day), the day's totals, and monthly query rollups (query × month, so a six-month report reads six
 * months' rows, not 183 days'), by one upsert per distinct key, all in one transaction: never a write per keystroke
 * or event. A report over a range reads whole months from the monthly rows and the partial months at its ends from
 * the daily ones.
 * An alarm deletes what is older than {@link RETENTION_DAYS} once a day; `prune(nowMs)` takes its clock from the
 * caller so tests can inject it.
 */
import { DurableObject } from "cloudflare:workers";
import { dayOf, type IngestBatch } from "./events";
import type { AnalyticsKind } from "./query-id";

/** Days of rollups kept: the row of the day RETENTION_DAYS days before today is kept, the one before it deleted. */
export const RETENTION_DAYS = 183;
const DAY_MS = 86_400_000;
/** Comments kept per page and day (a flood of comments on one page is cut, its counts are not). */
export const MAX_COMMENTS_PER_PAGE_DAY = 100;
/** Rows in the top and no-hit tables of a report. */
export const REPORT_ROWS = 50;

/** A date range, both ends YYYY-MM-DD inclusive. `includeGated`: count what readers of gated sections did. */
export interface ReportRange {
  from: string;
  to: string;
  includeGated: boolean;
}

/** `GET /v1/analytics/search`'s body (docs/analytics.md). Rates are 0-1, rounded to 4 places. */
export interface SearchReport {
  totals: { searches: number; noHit: number; noHitRate: number; clicks: number; clickThroughRate: number; avgClickPosition: number | null };
  topQueries: Array<{ q: string; count: number; noHit: number; clicks: number; avgClickPosition: number | null; gated: boolean }>;
  noHitQueries: Array<{ q: string; count: number; lastSeen: string; gated: boolean }>;
  daily: Array<{ date: string; searches: number; noHit: number; clicks: number; noHitRate: number; clickThroughRate: number }>;
  /** Clicks per 1-based position (the last bucket holds positions from there on). */
  clickPositions: Array<{ position: number; clicks: number }>;
}

/** One page of `GET /v1/analytics/pages`. */
export interface PageReport {
  url: string;
  title: string | null;
  helpful: number;
  notHelpful: number;
  ratings: number;
  helpfulPct: number | null;
  gated: boolean;
  comments: Array<{ date: string; helpful: boolean; comment: string }>;
}

/** A no-hit query over a range, for the backlog. */
export interface NoHitQuery {
  q: string;
  kind: AnalyticsKind;
  count: number;
  lastSeen: string;
  gated: boolean;
}

/** A backlog draft as stored. `status`: draft (editable) or discarded. */
export interface StoredDraft {
  id: string;
  groupId: string;
  title: string;
  body: string;
  status: "draft" | "discarded";
  createdAt: string;
  updatedAt: string;
}

const rate = (n: number, d: number) => (d > 0 ? Math.round((n / d) * 10_000) / 10_000 : 0);
const avg = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);

/** Every date from `from` to `to` inclusive (YYYY-MM-DD). */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`) && out.length <= 400; t += DAY_MS) out.push(dayOf(t));
  return out;
}

/** The first day kept at `nowMs` (rows of earlier days are deleted). */
export function retentionCutoff(nowMs: number): string {
  return dayOf(nowMs - RETENTION_DAYS * DAY_MS);
}

/**
 * `from`..`to` as the months wholly inside it (`[first, last]` YYYY-MM, or undefined) and the day segments left at
 * either end (at most two `[from, to]` pairs).
 */
export function splitRange(from: string, to: string): { days: Array<[string, string]>; months?: [string, string] } {
  const monthEnd = (m: string) => dayOf(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)), 0));
  const full: string[] = [];
  const days: Array<[string, string]> = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); m = dayOf(Date.parse(`${monthEnd(m)}T00:00:00Z`) + DAY_MS).slice(0, 7)) {
    const start = `${m}-01`;
    const end = monthEnd(m);
    if (start >= from && end <= to) full.push(m);
    else days.push([start > from ? start : from, end < to ? end : to]);
  }
  return { days, ...(full.length ? { months: [full[0], full[full.length - 1]] as [string, string] } : {}) };
}

/** Ranges whose closed days' per-query sums a PortalAnalytics keeps in memory (each up to one row per distinct query). */
export const MEMO_RANGES = 4;

/** One query's sums over a range (`kind` is one of them when the sums are over both kinds). */
interface QueryTotal {
  q: string;
  kind: AnalyticsKind;
  searches: number;
  noHit: number;
  clicks: number;
  positionSum: number;
  lastNoHit: string | null;
  gated: number;
}

/** The best `size` items offered, by `order` (a bounded insertion list: reports keep 50 of 20,000 groups). */
class TopList<T> {
  private items: T[] = [];
  constructor(private readonly size: number, private readonly order: (a: T, b: T) => number) {}
  offer(item: T): void {
    const items = this.items;
    if (items.length === this.size && this.order(item, items[items.length - 1]) >= 0) return;
    let lo = 0;
    let hi = items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.order(items[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    items.splice(lo, 0, item);
    if (items.length > this.size) items.pop();
  }
  sorted(): T[] {
    return this.items;
  }
}

export class PortalAnalytics extends DurableObject<Env> {
  /** SQL statements run by {@link ingest} since the object started (the benchmark's statements per event). */
  private statements = 0;
  /** Closed days' per-query sums by range (see {@link queryTotals}); insertion order is recency. */
  private memo = new Map<string, Map<string, QueryTotal>>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS query_days (day TEXT NOT NULL, kind TEXT NOT NULL, gated INTEGER NOT NULL, q TEXT NOT NULL,
         searches INTEGER NOT NULL DEFAULT 0, no_hit INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
         PRIMARY KEY (day, kind, gated, q)) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS query_months (month TEXT NOT NULL, kind TEXT NOT NULL, gated INTEGER NOT NULL, q TEXT NOT NULL,
         searches INTEGER NOT NULL DEFAULT 0, no_hit INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
         last_no_hit TEXT, PRIMARY KEY (month, kind, gated, q)) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS day_totals (day TEXT NOT NULL, kind TEXT NOT NULL, gated INTEGER NOT NULL,
         searches INTEGER NOT NULL DEFAULT 0, no_hit INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
         PRIMARY KEY (day, kind, gated)) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS position_days (day TEXT NOT NULL, kind TEXT NOT NULL, gated INTEGER NOT NULL, position INTEGER NOT NULL, clicks INTEGER NOT NULL,
         PRIMARY KEY (day, kind, gated, position)) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS page_days (day TEXT NOT NULL, url TEXT NOT NULL, gated INTEGER NOT NULL, helpful INTEGER NOT NULL DEFAULT 0, not_helpful INTEGER NOT NULL DEFAULT 0,
         comments INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (day, url, gated)) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS page_titles (url TEXT PRIMARY KEY, title TEXT NOT NULL) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS comments (id INTEGER PRIMARY KEY, day TEXT NOT NULL, url TEXT NOT NULL, gated INTEGER NOT NULL, helpful INTEGER NOT NULL, comment TEXT NOT NULL);
       CREATE INDEX IF NOT EXISTS comments_day ON comments (day);
       CREATE TABLE IF NOT EXISTS drafts (id TEXT PRIMARY KEY, group_id TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL,
         created_at TEXT NOT NULL, updated_at TEXT NOT NULL);`,
    );
  }

  /**
   * Folds one request's events into the day's rollups: the batch is summed in memory first, then one upsert per
   * distinct (query, day), (position, day) and (page, day), one insert per comment, in one transaction. Returns the
   * statements run. Schedules the retention alarm when none is set.
   */
  async ingest(batch: IngestBatch): Promise<{ statements: number }> {
    const queries = new Map<string, { kind: string; gated: number; q: string; searches: number; noHit: number; clicks: number; positionSum: number }>();
    const row = (kind: string, gated: boolean, q: string) => {
      const key = `${kind}\u0000${gated ? 1 : 0}\u0000${q}`;
      let r = queries.get(key);
      if (!r) queries.set(key, (r = { kind, gated: gated ? 1 : 0, q, searches: 0, noHit: 0, clicks: 0, positionSum: 0 }));
      return r;
    };
    for (const s of batch.searches) {
      const r = row(s.kind, s.gated, s.q);
      r.searches++;
      if (s.results === 0) r.noHit++;
    }
    const positions = new Map<string, { kind: string; gated: number; position: number; clicks: number }>();
    for (const c of batch.clicks) {
      const r = row(c.kind, c.gated, c.q);
      r.clicks++;
      r.positionSum += c.position;
      const key = `${c.kind}\u0000${c.gated ? 1 : 0}\u0000${c.position}`;
      const p = positions.get(key) ?? { kind: c.kind, gated: c.gated ? 1 : 0, position: c.position, clicks: 0 };
      p.clicks++;
      positions.set(key, p);
    }
    const pages = new Map<string, { url: string; gated: number; helpful: number; notHelpful: number; title?: string; comments: { helpful: boolean; comment: string }[] }>();
    for (const r of batch.ratings) {
      const key = `${r.gated ? 1 : 0}\u0000${r.url}`;
      const p = pages.get(key) ?? { url: r.url, gated: r.gated ? 1 : 0, helpful: 0, notHelpful: 0, comments: [] };
      if (r.helpful) p.helpful++;
      else p.notHelpful++;
      if (r.title) p.title = r.title;
      if (r.comment) p.comments.push({ helpful: r.helpful, comment: r.comment });
      pages.set(key, p);
    }
    const sql = this.ctx.storage.sql;
    let n = 0;
    const totals = new Map<string, { kind: string; gated: number; searches: number; noHit: number; clicks: number; positionSum: number }>();
    for (const r of queries.values()) {
      const key = `${r.kind}\u0000${r.gated}`;
      const t = totals.get(key) ?? { kind: r.kind, gated: r.gated, searches: 0, noHit: 0, clicks: 0, positionSum: 0 };
      t.searches += r.searches;
      t.noHit += r.noHit;
      t.clicks += r.clicks;
      t.positionSum += r.positionSum;
      totals.set(key, t);
    }
    const month = batch.day.slice(0, 7);
    this.ctx.storage.transactionSync(() => {
      for (const r of queries.values()) {
        n += 2;
        sql.exec(
          `INSERT INTO query_days (day, kind, gated, q, searches, no_hit, clicks, position_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (day, kind, gated, q) DO UPDATE SET searches = searches + excluded.searches, no_hit = no_hit + excluded.no_hit,
             clicks = clicks + excluded.clicks, position_sum = position_sum + excluded.position_sum`,
          batch.day, r.kind, r.gated, r.q, r.searches, r.noHit, r.clicks, r.positionSum,
        );
        sql.exec(
          `INSERT INTO query_months (month, kind, gated, q, searches, no_hit, clicks, position_sum, last_no_hit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (month, kind, gated, q) DO UPDATE SET searches = searches + excluded.searches, no_hit = no_hit + excluded.no_hit,
             clicks = clicks + excluded.clicks, position_sum = position_sum + excluded.position_sum,
             last_no_hit = CASE WHEN excluded.last_no_hit IS NULL THEN last_no_hit ELSE MAX(COALESCE(last_no_hit, ''), excluded.last_no_hit) END`,
          month, r.kind, r.gated, r.q, r.searches, r.noHit, r.clicks, r.positionSum, r.noHit > 0 ? batch.day : null,
        );
      }
      for (const t of totals.values()) {
        n++;
        sql.exec(
          `INSERT INTO day_totals (day, kind, gated, searches, no_hit, clicks, position_sum) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (day, kind, gated) DO UPDATE SET searches = searches + excluded.searches, no_hit = no_hit + excluded.no_hit,
             clicks = clicks + excluded.clicks, position_sum = position_sum + excluded.position_sum`,
          batch.day, t.kind, t.gated, t.searches, t.noHit, t.clicks, t.positionSum,
        );
      }
      for (const p of positions.values()) {
        n++;
        sql.exec(
          `INSERT INTO position_days (day, kind, gated, position, clicks) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (day, kind, gated, position) DO UPDATE SET clicks = clicks + excluded.clicks`,
          batch.day, p.kind, p.gated, p.position, p.clicks,
        );
      }
      for (const p of pages.values()) {
        n++;
        // The page-day row counts comments too, so the cap needs no extra read.
        const kept = sql.exec<{ comments: number }>(
          `INSERT INTO page_days (day, url, gated, helpful, not_helpful, comments) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (day, url, gated) DO UPDATE SET helpful = helpful + excluded.helpful, not_helpful = not_helpful + excluded.not_helpful,
             comments = MIN(comments + excluded.comments, ${MAX_COMMENTS_PER_PAGE_DAY + 1}) RETURNING comments`,
          batch.day, p.url, p.gated, p.helpful, p.notHelpful, p.comments.length,
        ).one().comments;
        const room = Math.max(0, MAX_COMMENTS_PER_PAGE_DAY - (kept - p.comments.length));
        for (const c of p.comments.slice(0, room)) {
          n++;
          sql.exec("INSERT INTO comments (day, url, gated, helpful, comment) VALUES (?, ?, ?, ?, ?)", batch.day, p.url, p.gated, c.helpful ? 1 : 0, c.comment);
        }
        if (p.title) {
          n++;
          sql.exec("INSERT INTO page_titles (url, title) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET title = excluded.title WHERE title <> excluded.title", p.url, p.title);
        }
      }
    });
    this.statements += n;
    // A past day changed (the local seed route): memoised sums of closed days no longer hold.
    if (batch.day < dayOf(Date.now())) this.memo.clear();
    if (n > 0 && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
    return { statements: n };
  }

  /** Deletes rollups, comments older than {@link RETENTION_DAYS} days at `nowMs` (discarded drafts too); returns the rows deleted. */
  prune(nowMs: number): number {
    const cutoff = retentionCutoff(nowMs);
    const sql = this.ctx.storage.sql;
    let deleted = 0;
    for (const table of ["query_days", "day_totals", "position_days", "page_days", "comments"]) deleted += sql.exec(`DELETE FROM ${table} WHERE day < ?`, cutoff).rowsWritten;
    // A month row goes once its last day is past retention; reports read only months wholly inside their range.
    deleted += sql.exec("DELETE FROM query_months WHERE month < ?", cutoff.slice(0, 7)).rowsWritten;
    deleted += sql.exec("DELETE FROM drafts WHERE status = 'discarded' AND updated_at < ?", cutoff).rowsWritten;
    return deleted;
  }

  /** The retention alarm: prunes by the wall clock and comes back in a day. */
  async alarm(): Promise<void> {
    this.prune(Date.now());
    await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
  }

  /**
   * Per-query sums over `range` (kinds in `kinds`): whole months from `query_months`, the partial months at either end
   * from `query_days`, in one grouped scan. Rows are `[q, kind, searches, noHit, clicks, positionSum, lastNoHit, gated]`.
   */
  private scanQueryTotals(range: ReportRange, kinds: AnalyticsKind[], byKind: boolean): Iterable<QueryTotal> {
    const { days, months } = splitRange(range.from, range.to);
    const gated = range.includeGated ? 1 : 0;
    const kindIn = kinds.map(() => "?").join(", ");
    const parts: string[] = [];
    const args: (string | number)[] = [];
    for (const [a, b] of days) {
      parts.push(`SELECT q, kind, searches, no_hit, clicks, position_sum, CASE WHEN no_hit > 0 THEN day END AS last_no_hit, gated FROM query_days
        WHERE day BETWEEN ? AND ? AND kind IN (${kindIn}) AND gated <= ?`);
      args.push(a, b, ...kinds, gated);
    }
    if (months) {
      parts.push(`SELECT q, kind, searches, no_hit, clicks, position_sum, last_no_hit, gated FROM query_months
        WHERE month BETWEEN ? AND ? AND kind IN (${kindIn}) AND gated <= ?`);
      args.push(months[0], months[1], ...kinds, gated);
    }
    if (!parts.length) return [];
    return this.ctx.storage.sql.exec<QueryTotal & Record<string, SqlStorageValue>>(
      `SELECT q, ${byKind ? "kind" : "MIN(kind) AS kind"}, SUM(searches) AS searches, SUM(no_hit) AS noHit, SUM(clicks) AS clicks, SUM(position_sum) AS positionSum,
         MAX(last_no_hit) AS lastNoHit, MAX(gated) AS gated FROM (${parts.join(" UNION ALL ")}) GROUP BY q${byKind ? ", kind" : ""}`,
      ...args,
    );
  }

  /**
   * {@link scanQueryTotals} with the closed days memoised: days before today never change (events are always
   * counted on the day they arrive), so a range's past part is grouped once per isolate and kept (at most
   * {@link MEMO_RANGES} ranges); today's rows are grouped at each call and added. Seeding a past day clears the memo.
   */
  private queryTotals(range: ReportRange, kinds: AnalyticsKind[], byKind: boolean): Iterable<QueryTotal> {
    const today = dayOf(Date.now());
    const pastTo = range.to < today ? range.to : dayOf(Date.parse(`${today}T00:00:00Z`) - DAY_MS);
    const key = `${kinds.join(",")}|${byKind}|${range.includeGated}|${range.from}|${pastTo}`;
    let past = range.from <= pastTo ? this.memo.get(key) : new Map<string, QueryTotal>();
    if (!past) {
      past = new Map();
      for (const r of this.scanQueryTotals({ ...range, to: pastTo }, kinds, byKind)) past.set(byKind ? `${r.kind}\u0000${r.q}` : r.q, { ...r });
      this.memo.set(key, past);
      if (this.memo.size > MEMO_RANGES) this.memo.delete(this.memo.keys().next().value!);
    } else if (range.from <= pastTo) {
      // Most recently used last.
      this.memo.delete(key);
      this.memo.set(key, past);
    }
    if (range.to < today || range.from > today) return past.values();
    const live = [...this.scanQueryTotals({ ...range, from: today, to: today }, kinds, byKind)];
    if (!live.length) return past.values();
    const merged = new Map(past);
    for (const r of live) {
      const k = byKind ? `${r.kind}\u0000${r.q}` : r.q;
      const p = merged.get(k);
      merged.set(k, p ? { q: r.q, kind: p.kind, searches: p.searches + r.searches, noHit: p.noHit + r.noHit, clicks: p.clicks + r.clicks, positionSum: p.positionSum + r.positionSum, lastNoHit: r.lastNoHit ?? p.lastNoHit, gated: Math.max(p.gated, r.gated) } : r);
    }
    return merged.values();
  }

  /** The search report over `range` for `kind` (docs/analytics.md, `GET /v1/analytics/search`). */
  searchReport(range: ReportRange, kind: AnalyticsKind): SearchReport {
    const sql = this.ctx.storage.sql;
    const args = [range.from, range.to, kind, range.includeGated ? 1 : 0] as const;
    const where = "day BETWEEN ? AND ? AND kind = ? AND gated <= ?";
    const byDay = new Map<string, { searches: number; noHit: number; clicks: number; positionSum: number }>();
    for (const r of sql.exec<{ day: string; searches: number; noHit: number; clicks: number; positionSum: number }>(
      `SELECT day, SUM(searches) AS searches, SUM(no_hit) AS noHit, SUM(clicks) AS clicks, SUM(position_sum) AS positionSum FROM day_totals WHERE ${where} GROUP BY day`, ...args)) byDay.set(r.day, r);
    let searches = 0, noHitTotal = 0, clicks = 0, positionSum = 0;
    for (const d of byDay.values()) {
      searches += d.searches;
      noHitTotal += d.noHit;
      clicks += d.clicks;
      positionSum += d.positionSum;
    }
    // One pass over the grouped queries keeps the two top lists (most searched; most no-hits).
    const top = new TopList<{ q: string; count: number; noHit: number; clicks: number; positionSum: number; gated: number }>(REPORT_ROWS, (a, b) => b.count - a.count || (a.q < b.q ? -1 : 1));
    const noHit = new TopList<{ q: string; count: number; lastSeen: string; gated: number }>(REPORT_ROWS, (a, b) => b.count - a.count || (a.q < b.q ? -1 : 1));
    for (const r of this.queryTotals(range, [kind], false)) {
      top.offer({ q: r.q, count: r.searches, noHit: r.noHit, clicks: r.clicks, positionSum: r.positionSum, gated: r.gated });
      if (r.noHit > 0) noHit.offer({ q: r.q, count: r.noHit, lastSeen: r.lastNoHit ?? range.to, gated: r.gated });
    }
    const positions = sql.exec<{ position: number; clicks: number }>(
      `SELECT position, SUM(clicks) AS clicks FROM position_days WHERE ${where} GROUP BY position ORDER BY position`, ...args).toArray();
    return {
      totals: { searches, noHit: noHitTotal, noHitRate: rate(noHitTotal, searches), clicks, clickThroughRate: rate(clicks, searches), avgClickPosition: avg(positionSum, clicks) },
      topQueries: top.sorted().map((r) => ({ q: r.q, count: r.count, noHit: r.noHit, clicks: r.clicks, avgClickPosition: avg(r.positionSum, r.clicks), gated: r.gated === 1 })),
      noHitQueries: noHit.sorted().map((r) => ({ q: r.q, count: r.count, lastSeen: r.lastSeen, gated: r.gated === 1 })),
      daily: daysBetween(range.from, range.to).map((date) => {
        const d = byDay.get(date) ?? { searches: 0, noHit: 0, clicks: 0 };
        return { date, searches: d.searches, noHit: d.noHit, clicks: d.clicks, noHitRate: rate(d.noHit, d.searches), clickThroughRate: rate(d.clicks, d.searches) };
      }),
      clickPositions: positions.map((p) => ({ position: p.position, clicks: p.clicks })),
    };
  }

  /** Pages rated over `range`, least helpful first (by helpful share, then most ratings), with their latest comments. */
  pagesReport(range: ReportRange, commentsPerPage = 20): PageReport[] {
    const sql = this.ctx.storage.sql;
    const gated = range.includeGated ? 1 : 0;
    const rows = sql.exec<{ url: string; title: string | null; helpful: number; notHelpful: number; gated: number }>(
      `SELECT d.url, t.title, SUM(d.helpful) AS helpful, SUM(d.not_helpful) AS notHelpful, MAX(d.gated) AS gated FROM page_days d
       LEFT JOIN page_titles t ON t.url = d.url WHERE d.day BETWEEN ? AND ? AND d.gated <= ? GROUP BY d.url`, range.from, range.to, gated).toArray();
    const comments = new Map<string, PageReport["comments"]>();
    for (const c of sql.exec<{ url: string; day: string; helpful: number; comment: string }>(
      "SELECT url, day, helpful, comment FROM comments WHERE day BETWEEN ? AND ? AND gated <= ? ORDER BY id DESC LIMIT 5000", range.from, range.to, gated)) {
      const list = comments.get(c.url) ?? [];
      if (list.length < commentsPerPage) list.push({ date: c.day, helpful: c.helpful === 1, comment: c.comment });
      comments.set(c.url, list);
    }
    return rows
      .map((r) => {
        const ratings = r.helpful + r.notHelpful;
        return { url: r.url, title: r.title, helpful: r.helpful, notHelpful: r.notHelpful, ratings, helpfulPct: ratings ? Math.round((r.helpful / ratings) * 1000) / 10 : null, gated: r.gated === 1, comments: comments.get(r.url) ?? [] };
      })
      .sort((a, b) => (a.helpfulPct ?? 101) - (b.helpfulPct ?? 101) || b.ratings - a.ratings || a.url.localeCompare(b.url));
  }

  /** Rollup rows for the CSV export: `queries` (query × day × kind) or `pages` (page × day), oldest first. */
  exportRows(table: "queries" | "pages", range: ReportRange): Record<string, string | number>[] {
    const sql = this.ctx.storage.sql;
    const gated = range.includeGated ? 1 : 0;
    if (table === "queries") {
      return sql.exec<Record<string, string | number>>(
        `SELECT day AS date, kind, q, searches, no_hit AS noHit, clicks, position_sum AS positionSum, gated FROM query_days
         WHERE day BETWEEN ? AND ? AND gated <= ? ORDER BY day, kind, q LIMIT 1000000`, range.from, range.to, gated).toArray();
    }
    return sql.exec<Record<string, string | number>>(
      `SELECT d.day AS date, d.url, COALESCE(t.title, '') AS title, d.helpful, d.not_helpful AS notHelpful, d.comments, d.gated FROM page_days d
       LEFT JOIN page_titles t ON t.url = d.url WHERE d.day BETWEEN ? AND ? AND d.gated <= ? ORDER BY d.day, d.url`, range.from, range.to, gated).toArray();
  }

  /** No-hit queries of both kinds over `range`, most frequent first (the backlog's input; at most `limit`). */
  noHitQueries(range: ReportRange, limit = 2000): NoHitQuery[] {
    const list = new TopList<NoHitQuery>(limit, (a, b) => b.count - a.count || (a.q < b.q ? -1 : a.q > b.q ? 1 : a.kind < b.kind ? -1 : 1));
    for (const r of this.queryTotals(range, ["search", "assistant"], true)) if (r.noHit > 0) list.offer({ q: r.q, kind: r.kind, count: r.noHit, lastSeen: r.lastNoHit ?? range.to, gated: r.gated === 1 });
    return list.sorted();
  }

  /** Row counts per table and the object's SQLite size in bytes (the benchmark's storage figures). */
  storageFigures(): { rows: Record<string, number>; bytes: number; ingestStatements: number } {
    const sql = this.ctx.storage.sql;
    const rows: Record<string, number> = {};
    for (const table of ["query_days", "query_months", "day_totals", "position_days", "page_days", "page_titles", "comments", "drafts"]) rows[table] = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n;
    return { rows, bytes: sql.databaseSize, ingestStatements: this.statements };
  }

  /** Stores a new draft for backlog group `groupId` (replacing an earlier draft of the group that is still a draft). */
  saveDraft(groupId: string, title: string, body: string, nowIso: string): StoredDraft {
    const sql = this.ctx.storage.sql;
    const existing = sql.exec<{ id: string }>("SELECT id FROM drafts WHERE group_id = ? AND status = 'draft'", groupId).toArray()[0];
    const id = existing?.id ?? crypto.randomUUID();
    sql.exec(
      `INSERT INTO drafts (id, group_id, title, body, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'draft', ?, ?)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body, updated_at = excluded.updated_at`,
      id, groupId, title, body, nowIso, nowIso,
    );
    return this.draft(id)!;
  }

  /** One draft, or undefined. */
  draft(id: string): StoredDraft | undefined {
    return this.ctx.storage.sql.exec<StoredDraft & Record<string, SqlStorageValue>>(
      "SELECT id, group_id AS groupId, title, body, status, created_at AS createdAt, updated_at AS updatedAt FROM drafts WHERE id = ?", id).toArray()[0];
  }

  /** Drafts not discarded, newest first. */
  drafts(): StoredDraft[] {
    return this.ctx.storage.sql.exec<StoredDraft & Record<string, SqlStorageValue>>(
      "SELECT id, group_id AS groupId, title, body, status, created_at AS createdAt, updated_at AS updatedAt FROM drafts WHERE status = 'draft' ORDER BY updated_at DESC LIMIT 200").toArray();
  }

  /** Edits a draft's title and body; undefined when it is unknown or discarded. */
  editDraft(id: string, title: string, body: string, nowIso: string): StoredDraft | undefined {
    this.ctx.storage.sql.exec("UPDATE drafts SET title = ?, body = ?, updated_at = ? WHERE id = ? AND status = 'draft'", title, body, nowIso, id);
    const d = this.draft(id);
    return d?.status === "draft" ? d : undefined;
  }

  /** Discards a draft (kept until retention deletes it); false when unknown or already discarded. */
  discardDraft(id: string, nowIso: string): boolean {
    return this.ctx.storage.sql.exec("UPDATE drafts SET status = 'discarded', updated_at = ? WHERE id = ? AND status = 'draft'", nowIso, id).rowsWritten > 0;
  }
}

/** The analytics object of `portalId`. */
export function portalAnalytics(env: Env, portalId: number): DurableObjectStub<PortalAnalytics> {
  return env.ANALYTICS.get(env.ANALYTICS.idFromName(`portal:${portalId}`));
}
