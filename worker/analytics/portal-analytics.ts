/**
 * @module The PortalAnalytics Durable Object (issue 29): one per portal, its search analytics, page ratings and
 * backlog drafts in the object's own SQLite storage, out of the shared D1 (docs/analytics.md sizes both). Events
 * arrive as one {@link IngestBatch} per request and are folded into daily rollups (query × day, click position ×
 * day, page × day), the day's totals, and ISO-week and monthly query rollups (query × week, query × month), by one
 * upsert per distinct key, all in one transaction: never a write per keystroke or event. A report cuts its range
 * into whole months, whole weeks and single days ({@link rangeSegments}) and finds its top queries without summing
 * every query: a threshold pass over each segment's largest rows names the only queries that can rank (TPUT, Cao &
 * Wang 2004), and only those are summed exactly.
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

/** What a draft was written from: its backlog group's queries and counts when it was drafted (the pull request's evidence). */
export interface DraftEvidence {
  label: string;
  count: number;
  lastSeen: string;
  /** Some of the queries came from readers of gated sections (never listed outside the writers' pages). */
  gated: boolean;
  queries: Array<{ q: string; kind: AnalyticsKind; count: number }>;
}

/** The pull request (GitLab: merge request) a draft was opened as (worker/git/pull-request.ts). */
export interface DraftPullRequest {
  url: string;
  number: number;
  branch: string;
  path: string;
  openedAt: string;
}

/**
 * A backlog draft as stored. `status`: draft (editable) or discarded. `evidence`: null for drafts made before it
 * was kept; `pullRequest`: null until the draft is opened as one.
 */
export interface StoredDraft {
  id: string;
  groupId: string;
  title: string;
  body: string;
  status: "draft" | "discarded";
  createdAt: string;
  updatedAt: string;
  evidence: DraftEvidence | null;
  pullRequest: DraftPullRequest | null;
}

/** Milliseconds a claim to open a draft's pull request holds (a request that died mid-way frees it after this). */
export const PULL_REQUEST_CLAIM_MS = 2 * 60 * 1000;

const DRAFT_COLUMNS = "id, group_id AS groupId, title, body, status, created_at AS createdAt, updated_at AS updatedAt, evidence, pull_request AS pullRequest";

type DraftRow = Omit<StoredDraft, "evidence" | "pullRequest"> & { evidence: string | null; pullRequest: string | null } & Record<string, SqlStorageValue>;

function draftOf(row: DraftRow | undefined): StoredDraft | undefined {
  if (!row) return undefined;
  const { evidence, pullRequest, ...rest } = row;
  return { ...rest, evidence: evidence ? (JSON.parse(evidence) as DraftEvidence) : null, pullRequest: pullRequest ? (JSON.parse(pullRequest) as DraftPullRequest) : null };
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

/** The Monday (YYYY-MM-DD) of the ISO 8601 week holding `day`: a week row's key. */
export function weekOf(day: string): string {
  const t = Date.parse(`${day}T00:00:00Z`);
  return dayOf(t - ((new Date(t).getUTCDay() + 6) % 7) * DAY_MS);
}

/** One rollup segment of a range: a whole month (`2026-05`), a whole ISO week (its Monday) or one day. */
export interface RangeSegment {
  table: "query_months" | "query_weeks" | "query_days";
  column: "month" | "week" | "day";
  key: string;
}

/**
 * `from`..`to` (inclusive) as disjoint rollup segments covering it exactly: the months wholly inside it
 * ({@link splitRange}), then, in the partial months at either end, the ISO weeks wholly inside those, then single
 * days. A 183-day range is ~5 months, ~3 weeks and ≤ 12 days; a 30-day one ~4 weeks and ≤ 6 days (or 1 month).
 */
export function rangeSegments(from: string, to: string): RangeSegment[] {
  const { days: partial, months } = splitRange(from, to);
  const out: RangeSegment[] = [];
  if (months) for (let m = months[0]; m <= months[1]; m = dayOf(Date.UTC(Number(m.slice(0, 4)), Number(m.slice(5, 7)), 1)).slice(0, 7)) out.push({ table: "query_months", column: "month", key: m });
  // Two partial months side by side are one stretch of days, so a week across their boundary is read whole.
  const days: Array<[string, string]> = [];
  for (const [a, b] of partial) {
    const prev = days[days.length - 1];
    if (prev && Date.parse(`${a}T00:00:00Z`) - Date.parse(`${prev[1]}T00:00:00Z`) === DAY_MS) prev[1] = b;
    else days.push([a, b]);
  }
  for (const [a, b] of days) {
    for (let t = Date.parse(`${a}T00:00:00Z`), end = Date.parse(`${b}T00:00:00Z`); t <= end; ) {
      const d = dayOf(t);
      if (weekOf(d) === d && t + 6 * DAY_MS <= end) {
        out.push({ table: "query_weeks", column: "week", key: d });
        t += 7 * DAY_MS;
      } else {
        out.push({ table: "query_days", column: "day", key: d });
        t += DAY_MS;
      }
    }
  }
  return out;
}

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

/**
 * The upsert of one query's counts into a period rollup (`query_months` by month, `query_weeks` by ISO week): the
 * same columns and the same merge, the latest no-hit day kept.
 */
function periodUpsert(table: "query_months" | "query_weeks", period: "month" | "week"): string {
  return `INSERT INTO ${table} (${period}, kind, gated, q, searches, no_hit, clicks, position_sum, last_no_hit) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (${period}, kind, gated, q) DO UPDATE SET searches = searches + excluded.searches, no_hit = no_hit + excluded.no_hit,
             clicks = clicks + excluded.clicks, position_sum = position_sum + excluded.position_sum,
             last_no_hit = CASE WHEN excluded.last_no_hit IS NULL THEN last_no_hit ELSE MAX(COALESCE(last_no_hit, ''), excluded.last_no_hit) END`;
}
const MONTH_UPSERT = periodUpsert("query_months", "month");
const WEEK_UPSERT = periodUpsert("query_weeks", "week");

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

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS query_days (day TEXT NOT NULL, kind TEXT NOT NULL, gated INTEGER NOT NULL, q TEXT NOT NULL,
         searches INTEGER NOT NULL DEFAULT 0, no_hit INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
         PRIMARY KEY (day, kind, gated, q)) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS query_months (month TEXT NOT NULL, kind TEXT NOT NULL, gated INTEGER NOT NULL, q TEXT NOT NULL,
         searches INTEGER NOT NULL DEFAULT 0, no_hit INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
         last_no_hit TEXT, PRIMARY KEY (month, kind, gated, q)) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS query_weeks (week TEXT NOT NULL, kind TEXT NOT NULL, gated INTEGER NOT NULL, q TEXT NOT NULL,
         searches INTEGER NOT NULL DEFAULT 0, no_hit INTEGER NOT NULL DEFAULT 0, clicks INTEGER NOT NULL DEFAULT 0, position_sum INTEGER NOT NULL DEFAULT 0,
         last_no_hit TEXT, PRIMARY KEY (week, kind, gated, q)) WITHOUT ROWID;
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
    const sql = ctx.storage.sql;
    // Drafts kept from before their evidence and pull request were stored get the columns (null) once.
    const draftColumns = new Set(sql.exec<{ name: string }>("SELECT name FROM pragma_table_info('drafts')").toArray().map((r) => r.name));
    for (const [column, type] of [["evidence", "TEXT"], ["pull_request", "TEXT"], ["pull_request_claimed", "TEXT"]]) {
      if (!draftColumns.has(column)) sql.exec(`ALTER TABLE drafts ADD COLUMN ${column} ${type}`);
    }
    // An object from before the week rows (v9): its weeks are summed once from its days, before any report reads them.
    if (!sql.exec("SELECT 1 FROM query_weeks LIMIT 1").toArray().length && sql.exec("SELECT 1 FROM query_days LIMIT 1").toArray().length) {
      sql.exec(
        `INSERT INTO query_weeks (week, kind, gated, q, searches, no_hit, clicks, position_sum, last_no_hit)
         SELECT date(day, '-6 days', 'weekday 1'), kind, gated, q, SUM(searches), SUM(no_hit), SUM(clicks), SUM(position_sum), MAX(CASE WHEN no_hit > 0 THEN day END)
         FROM query_days GROUP BY 1, kind, gated, q`,
      );
    }
    // The reports' threshold passes read each segment's rows largest first (searches; no-hit rows only).
    sql.exec(
      `CREATE INDEX IF NOT EXISTS query_weeks_searches ON query_weeks (week, kind, searches);
       CREATE INDEX IF NOT EXISTS query_weeks_no_hit ON query_weeks (week, kind, no_hit) WHERE no_hit > 0;
       CREATE INDEX IF NOT EXISTS query_months_searches ON query_months (month, kind, searches);
       CREATE INDEX IF NOT EXISTS query_months_no_hit ON query_months (month, kind, no_hit) WHERE no_hit > 0;
       CREATE INDEX IF NOT EXISTS query_days_no_hit ON query_days (day, kind, no_hit) WHERE no_hit > 0;`,
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
    const week = weekOf(batch.day);
    this.ctx.storage.transactionSync(() => {
      for (const r of queries.values()) {
        n += 3;
        sql.exec(
          `INSERT INTO query_days (day, kind, gated, q, searches, no_hit, clicks, position_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (day, kind, gated, q) DO UPDATE SET searches = searches + excluded.searches, no_hit = no_hit + excluded.no_hit,
             clicks = clicks + excluded.clicks, position_sum = position_sum + excluded.position_sum`,
          batch.day, r.kind, r.gated, r.q, r.searches, r.noHit, r.clicks, r.positionSum,
        );
        for (const [upsert, period] of [[MONTH_UPSERT, month], [WEEK_UPSERT, week]] as const) {
          sql.exec(upsert, period, r.kind, r.gated, r.q, r.searches, r.noHit, r.clicks, r.positionSum, r.noHit > 0 ? batch.day : null);
        }
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
    if (n > 0 && (await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
    return { statements: n };
  }

  /** Deletes rollups, comments older than {@link RETENTION_DAYS} days at `nowMs` (discarded drafts too); returns the rows deleted. */
  prune(nowMs: number): number {
    const cutoff = retentionCutoff(nowMs);
    const sql = this.ctx.storage.sql;
    let deleted = 0;
    for (const table of ["query_days", "day_totals", "position_days", "page_days", "comments"]) deleted += sql.exec(`DELETE FROM ${table} WHERE day < ?`, cutoff).rowsWritten;
    // A month or week row goes once its last day is past retention; reports read only months and weeks wholly
    // inside their range, so a partly expired one is never counted.
    deleted += sql.exec("DELETE FROM query_months WHERE month < ?", cutoff.slice(0, 7)).rowsWritten;
    deleted += sql.exec("DELETE FROM query_weeks WHERE week < ?", dayOf(Date.parse(`${cutoff}T00:00:00Z`) - 6 * DAY_MS)).rowsWritten;
    deleted += sql.exec("DELETE FROM drafts WHERE status = 'discarded' AND updated_at < ?", cutoff).rowsWritten;
    return deleted;
  }

  /** The retention alarm: prunes by the wall clock and comes back in a day. */
  async alarm(): Promise<void> {
    this.prune(Date.now());
    await this.ctx.storage.setAlarm(Date.now() + DAY_MS);
  }

  /** `gated IN (…)` of a range: the public rows only, or both (as literals: they are the only two values). */
  private static gatedIn(range: ReportRange): string {
    return range.includeGated ? "0, 1" : "0";
  }

  /**
   * The queries of `kind` that can be among the `k` largest by `metric` (searches, or no-hit searches) over
   * `segments`, ties included: TPUT (Cao & Wang, "Efficient top-K query calculation in distributed networks", PODC
   * 2004). Phase 1 adds up the `k` largest rows of each week and month (an index on the count); the k-th largest of
   * those partial sums, τ, is at most the true k-th value. A query none of whose rows reaches T = ⌈τ / n⌉ (n: the
   * rows a query can have in the range, one per segment and one more where the segment holds gated rows) sums to
   * less than τ, so it cannot rank: phase 2 reads only the rows ≥ T (an index range on weeks and months). Phase 3
   * drops the queries whose sum read plus T - 1 per row not read is below the k-th largest sum read. With little data
   * τ is 0 and every row with `metric` > 0 is read (and, for searches, rows of clicks alone when fewer than `k`
   * queries were searched).
   */
  private rankCandidates(segments: RangeSegment[], kind: AnalyticsKind, range: ReportRange, metric: "searches" | "no_hit", k: number): Set<string> {
    const sql = this.ctx.storage.sql;
    const gatedIn = PortalAnalytics.gatedIn(range);
    const where = (s: RangeSegment) => `${s.column} = ? AND kind = ? AND gated IN (${gatedIn})`;
    // Phase 1 on the weeks and months alone when there are any: any rows give a lower bound, and a day has no count index.
    const coarse = segments.filter((s) => s.column !== "day");
    const partial = new Map<string, number>();
    for (const s of coarse.length ? coarse : segments) {
      for (const [q, v] of sql.exec(`SELECT q, ${metric} FROM ${s.table} WHERE ${where(s)} AND ${metric} > 0 ORDER BY ${metric} DESC LIMIT ${k}`, s.key, kind).raw<[string, number]>()) {
        partial.set(q, (partial.get(q) ?? 0) + v);
      }
    }
    const kth = (values: Iterable<number>) => {
      const sorted = [...values].sort((a, b) => b - a);
      return sorted.length >= k ? sorted[k - 1] : 0;
    };
    const tau = kth(partial.values());
    // n: the rows a query can have over the range (one per segment, two where the segment holds gated rows).
    let n = segments.length;
    if (range.includeGated) for (const s of segments) if (sql.exec(`SELECT 1 FROM ${s.table} WHERE ${s.column} = ? AND kind = ? AND gated = 1 LIMIT 1`, s.key, kind).toArray().length) n++;
    // Rows are integers: v ≥ τ / n ⇔ v ≥ ⌈τ / n⌉, computed exactly (no float rounding up past a tie).
    const threshold = Math.max(1, Math.floor((tau + n - 1) / n));
    const seen = new Map<string, { sum: number; rows: number }>();
    for (const s of segments) {
      // `>= ?` before `> 0`: SQLite seeks the index on the bound written first (measured: the other order scans the segment).
      for (const [q, v] of sql.exec(`SELECT q, ${metric} FROM ${s.table} WHERE ${where(s)} AND ${metric} >= ? AND ${metric} > 0`, s.key, kind, threshold).raw<[string, number]>()) {
        const t = seen.get(q);
        if (t) {
          t.sum += v;
          t.rows++;
        } else seen.set(q, { sum: v, rows: 1 });
      }
    }
    // Phase 3's pruning: a query's sum is at most what was read plus threshold - 1 for each of its rows not read;
    // the k-th largest sum read is at most the true k-th value, so a query whose bound is below it cannot rank.
    const floor = kth([...seen.values()].map((t) => t.sum));
    const out = new Set<string>();
    for (const [q, t] of seen) if (t.sum + (n - t.rows) * (threshold - 1) >= floor) out.add(q);
    if (metric === "searches" && seen.size < k) {
      for (const s of segments) for (const [q] of sql.exec(`SELECT q FROM ${s.table} WHERE ${where(s)} AND searches = 0`, s.key, kind).raw<[string]>()) out.add(q);
    }
    return out;
  }

  /** Exact sums over `segments` of the queries `qs` of `kind` (one index seek per query and segment). */
  private exactTotals(segments: RangeSegment[], kind: AnalyticsKind, range: ReportRange, qs: string[]): Map<string, QueryTotal> {
    const out = new Map<string, QueryTotal>();
    if (!qs.length) return out;
    const sql = this.ctx.storage.sql;
    const list = JSON.stringify(qs);
    for (const s of segments) {
      const last = s.column === "day" ? "CASE WHEN no_hit > 0 THEN day END" : "last_no_hit";
      for (const [q, searches, noHit, clicks, positionSum, lastNoHit, gated] of sql.exec(
        `SELECT q, searches, no_hit, clicks, position_sum, ${last}, gated FROM ${s.table}
         WHERE ${s.column} = ? AND kind = ? AND gated IN (${PortalAnalytics.gatedIn(range)}) AND q IN (SELECT value FROM json_each(?))`, s.key, kind, list).raw<[string, number, number, number, number, string | null, number]>()) {
        const t = out.get(q);
        if (!t) out.set(q, { q, kind, searches, noHit, clicks, positionSum, lastNoHit, gated });
        else {
          t.searches += searches;
          t.noHit += noHit;
          t.clicks += clicks;
          t.positionSum += positionSum;
          if (lastNoHit !== null && (t.lastNoHit === null || lastNoHit > t.lastNoHit)) t.lastNoHit = lastNoHit;
          t.gated = Math.max(t.gated, gated);
        }
      }
    }
    return out;
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
    // Only the queries that can rank are summed (rankCandidates); both lists come from their exact sums.
    const segments = rangeSegments(range.from, range.to);
    const candidates = new Set([...this.rankCandidates(segments, kind, range, "searches", REPORT_ROWS), ...this.rankCandidates(segments, kind, range, "no_hit", REPORT_ROWS)]);
    const top = new TopList<{ q: string; count: number; noHit: number; clicks: number; positionSum: number; gated: number }>(REPORT_ROWS, (a, b) => b.count - a.count || (a.q < b.q ? -1 : 1));
    const noHit = new TopList<{ q: string; count: number; lastSeen: string; gated: number }>(REPORT_ROWS, (a, b) => b.count - a.count || (a.q < b.q ? -1 : 1));
    for (const r of this.exactTotals(segments, kind, range, [...candidates]).values()) {
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

  /**
   * No-hit queries of both kinds over `range`, most frequent first (the backlog's input; at most `limit`): the no-hit
   * rows of each segment (a partial index holds only those), and `gated` from any row of the query, as a report has it.
   */
  noHitQueries(range: ReportRange, limit = 2000): NoHitQuery[] {
    const sql = this.ctx.storage.sql;
    const totals = new Map<string, NoHitQuery>();
    const segments = rangeSegments(range.from, range.to);
    for (const s of segments) {
      const last = s.column === "day" ? "day" : "last_no_hit";
      for (const [q, kind, noHit, lastNoHit, gated] of sql.exec(
        `SELECT q, kind, no_hit, ${last}, gated FROM ${s.table} WHERE ${s.column} = ? AND kind IN ('search', 'assistant') AND gated IN (${PortalAnalytics.gatedIn(range)}) AND no_hit > 0`, s.key).raw<[string, AnalyticsKind, number, string, number]>()) {
        const key = `${kind}\u0000${q}`;
        const t = totals.get(key);
        if (!t) totals.set(key, { q, kind, count: noHit, lastSeen: lastNoHit, gated: gated === 1 });
        else {
          t.count += noHit;
          if (lastNoHit > t.lastSeen) t.lastSeen = lastNoHit;
          t.gated ||= gated === 1;
        }
      }
    }
    if (range.includeGated) {
      // A query searched by a gated reader with results, and by others without, is still marked.
      for (const s of segments) {
        for (const [q, kind] of sql.exec(`SELECT q, kind FROM ${s.table} WHERE ${s.column} = ? AND kind IN ('search', 'assistant') AND gated = 1`, s.key).raw<[string, string]>()) {
          const t = totals.get(`${kind}\u0000${q}`);
          if (t) t.gated = true;
        }
      }
    }
    return [...totals.values()].sort((a, b) => b.count - a.count || (a.q < b.q ? -1 : a.q > b.q ? 1 : a.kind < b.kind ? -1 : 1)).slice(0, limit);
  }

  /** Row counts per table and the object's SQLite size in bytes (the benchmark's storage figures). */
  storageFigures(): { rows: Record<string, number>; bytes: number; ingestStatements: number } {
    const sql = this.ctx.storage.sql;
    const rows: Record<string, number> = {};
    for (const table of ["query_days", "query_weeks", "query_months", "day_totals", "position_days", "page_days", "page_titles", "comments", "drafts"]) rows[table] = sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`).one().n;
    return { rows, bytes: sql.databaseSize, ingestStatements: this.statements };
  }

  /** Stores a new draft for backlog group `groupId` (replacing an earlier draft of the group that is still a draft and was not opened as a pull request). */
  saveDraft(groupId: string, title: string, body: string, nowIso: string, evidence?: DraftEvidence): StoredDraft {
    const sql = this.ctx.storage.sql;
    const existing = sql.exec<{ id: string }>("SELECT id FROM drafts WHERE group_id = ? AND status = 'draft' AND pull_request IS NULL", groupId).toArray()[0];
    const id = existing?.id ?? crypto.randomUUID();
    sql.exec(
      `INSERT INTO drafts (id, group_id, title, body, status, created_at, updated_at, evidence) VALUES (?, ?, ?, ?, 'draft', ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET title = excluded.title, body = excluded.body, updated_at = excluded.updated_at, evidence = excluded.evidence`,
      id, groupId, title, body, nowIso, nowIso, evidence ? JSON.stringify(evidence) : null,
    );
    return this.draft(id)!;
  }

  /** One draft, or undefined. */
  draft(id: string): StoredDraft | undefined {
    return draftOf(this.ctx.storage.sql.exec<DraftRow>(`SELECT ${DRAFT_COLUMNS} FROM drafts WHERE id = ?`, id).toArray()[0]);
  }

  /** Drafts not discarded, newest first. */
  drafts(): StoredDraft[] {
    return this.ctx.storage.sql.exec<DraftRow>(`SELECT ${DRAFT_COLUMNS} FROM drafts WHERE status = 'draft' ORDER BY updated_at DESC LIMIT 200`).toArray().map((r) => draftOf(r)!);
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

  /**
   * Claims a draft for opening its pull request: false when it is unknown, discarded, already opened, or claimed by
   * another request less than {@link PULL_REQUEST_CLAIM_MS} ago (two clicks never open two pull requests).
   */
  claimPullRequest(id: string, nowMs: number): boolean {
    const stale = new Date(nowMs - PULL_REQUEST_CLAIM_MS).toISOString();
    return this.ctx.storage.sql.exec(
      "UPDATE drafts SET pull_request_claimed = ? WHERE id = ? AND status = 'draft' AND pull_request IS NULL AND (pull_request_claimed IS NULL OR pull_request_claimed < ?)",
      new Date(nowMs).toISOString(), id, stale,
    ).rowsWritten > 0;
  }

  /** Frees a claim whose pull request could not be opened (the draft is as it was). */
  releasePullRequest(id: string): void {
    this.ctx.storage.sql.exec("UPDATE drafts SET pull_request_claimed = NULL WHERE id = ? AND pull_request IS NULL", id);
  }

  /** Records the opened pull request on the draft (and frees the claim); the draft as it now is. */
  recordPullRequest(id: string, pullRequest: DraftPullRequest): StoredDraft | undefined {
    this.ctx.storage.sql.exec("UPDATE drafts SET pull_request = ?, pull_request_claimed = NULL, updated_at = ? WHERE id = ?", JSON.stringify(pullRequest), pullRequest.openedAt, id);
    return this.draft(id);
  }
}

/** The analytics object of `portalId`. */
export function portalAnalytics(env: Env, portalId: number): DurableObjectStub<PortalAnalytics> {
  return env.ANALYTICS.get(env.ANALYTICS.idFromName(`portal:${portalId}`));
}
