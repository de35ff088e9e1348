/**
 * @module The analytics dashboard's report (issue 29), server-rendered: totals, three SVG charts drawn with d3-scale
 * and d3-shape (searches per day; no-hit rate and click-through per day; the click-position histogram), the top and
 * no-hit query tables and the pages by helpfulness. `GET /v1/analytics/dashboard.html` answers it to the page's
 * script (worker/render/analytics-admin-page.tsx), which holds the token. Charts scale to the width (viewBox) and
 * take their colours from the theme's custom properties (client/static/analytics.css), so they read in the dark
 * theme and on a phone; every figure is also in a table or a text alternative. Everything is escaped by preact.
 */
import { scaleBand, scaleLinear, type ScaleLinear } from "d3-scale";
import { line } from "d3-shape";
import { renderToString } from "preact-render-to-string";
import type { PageReport, SearchReport } from "../analytics/portal-analytics";

/** What the report shows. */
export interface DashboardProps {
  from: string;
  to: string;
  kind: "search" | "assistant";
  search: SearchReport;
  pages: PageReport[];
  /** Prefix of the pages' links: the portal's own origin when it reads on a custom domain (the page is on the service host). */
  site?: string;
}

// User units of every chart: a third of a desktop row or a whole phone width, so 14-unit labels stay readable (10-15 px).
const W = 480;
const H = 260;
const M = { top: 14, right: 10, bottom: 30, left: 48 };

/** The value axis of every chart: four gridlines across the plot, each labelled at the left (`label`: its text). */
function YGrid({ y, label = String }: { y: ScaleLinear<number, number>; label?: (t: number) => string }) {
  return (
    <>
      {y.ticks(4).map((t) => (
        <g class="tick">
          <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} class="grid" />
          <text x={M.left - 6} y={y(t)} dy="0.32em" text-anchor="end">{label(t)}</text>
        </g>
      ))}
    </>
  );
}
const pct = (r: number) => `${Math.round(r * 1000) / 10}%`;
const short = (date: string) => date.slice(5);

/** Date labels: at most ~5 along the axis. */
function dateTicks(dates: string[]): string[] {
  const step = Math.max(1, Math.ceil(dates.length / 5));
  return dates.filter((_, i) => i % step === 0);
}

function SearchesChart({ daily }: { daily: SearchReport["daily"] }) {
  const dates = daily.map((d) => d.date);
  const x = scaleBand<string>().domain(dates).range([M.left, W - M.right]).padding(0.15);
  const y = scaleLinear().domain([0, Math.max(1, ...daily.map((d) => d.searches))]).nice().range([H - M.bottom, M.top]);
  const total = daily.reduce((n, d) => n + d.searches, 0);
  return (
    <figure class="chart">
      <figcaption>Searches per day</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Searches per day, ${dates[0]} to ${dates.at(-1)}: ${total} in all, most in a day ${Math.max(0, ...daily.map((d) => d.searches))}`} data-chart="searches">
        <YGrid y={y} />
        {daily.map((d) => (
          <rect class="bar" x={x(d.date)} y={y(d.searches)} width={x.bandwidth()} height={Math.max(0, H - M.bottom - y(d.searches))} data-date={d.date} data-value={d.searches}>
            <title>{`${d.date}: ${d.searches} searches`}</title>
          </rect>
        ))}
        {dateTicks(dates).map((d) => <text class="xl" x={(x(d) ?? 0) + x.bandwidth() / 2} y={H - 9} text-anchor="middle">{short(d)}</text>)}
      </svg>
    </figure>
  );
}

function RatesChart({ daily }: { daily: SearchReport["daily"] }) {
  const dates = daily.map((d) => d.date);
  const x = scaleBand<string>().domain(dates).range([M.left, W - M.right]).padding(0);
  const cx = (d: string) => (x(d) ?? 0) + x.bandwidth() / 2;
  const y = scaleLinear().domain([0, 1]).range([H - M.bottom, M.top]);
  // Days without searches have no rate: the line breaks there rather than dropping to 0.
  const path = (key: "noHitRate" | "clickThroughRate") =>
    line<SearchReport["daily"][number]>().defined((d) => d.searches > 0).x((d) => cx(d.date)).y((d) => y(d[key]))(daily) ?? "";
  return (
    <figure class="chart">
      <figcaption><span class="key nohit">No-hit rate</span> and <span class="key ctr">click-through</span> per day</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label="No-hit rate and click-through rate per day, 0 to 100%" data-chart="rates">
        <YGrid y={y} label={pct} />
        <path class="ln nohit" d={path("noHitRate")} />
        <path class="ln ctr" d={path("clickThroughRate")} />
        {dateTicks(dates).map((d) => <text class="xl" x={cx(d)} y={H - 9} text-anchor="middle">{short(d)}</text>)}
      </svg>
    </figure>
  );
}

/** Positions 1-9 on their own, 10 and later together. */
export function positionBuckets(positions: SearchReport["clickPositions"]): Array<{ label: string; clicks: number }> {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ label: i === 9 ? "10+" : String(i + 1), clicks: 0 }));
  for (const p of positions) buckets[Math.min(p.position, 10) - 1].clicks += p.clicks;
  return buckets;
}

function PositionsChart({ positions }: { positions: SearchReport["clickPositions"] }) {
  const buckets = positionBuckets(positions);
  const x = scaleBand<string>().domain(buckets.map((b) => b.label)).range([M.left, W - M.right]).padding(0.2);
  const y = scaleLinear().domain([0, Math.max(1, ...buckets.map((b) => b.clicks))]).nice().range([H - M.bottom, M.top]);
  return (
    <figure class="chart">
      <figcaption>Clicks by result position</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Clicks by result position: ${buckets.map((b) => `${b.label}: ${b.clicks}`).join(", ")}`} data-chart="positions">
        <YGrid y={y} />
        {buckets.map((b) => (
          <rect class="bar pos" x={x(b.label)} y={y(b.clicks)} width={x.bandwidth()} height={Math.max(0, H - M.bottom - y(b.clicks))} data-value={b.clicks}>
            <title>{`position ${b.label}: ${b.clicks} clicks`}</title>
          </rect>
        ))}
        {buckets.map((b) => <text class="xl" x={(x(b.label) ?? 0) + x.bandwidth() / 2} y={H - 9} text-anchor="middle">{b.label}</text>)}
      </svg>
    </figure>
  );
}

function Gated({ on }: { on: boolean }) {
  return on ? <span class="gated" title="Asked by readers of gated sections: visible to writers only">gated</span> : null;
}

/** The report as an HTML fragment (no document around it). */
export function renderDashboard(p: DashboardProps): string {
  const t = p.search.totals;
  return renderToString(
    <div class="an-report" data-from={p.from} data-to={p.to} data-kind={p.kind}>
      <dl class="an-totals">
        <div><dt>{p.kind === "assistant" ? "Questions" : "Searches"}</dt><dd data-total="searches">{t.searches}</dd></div>
        <div><dt>No-hit rate</dt><dd data-total="noHitRate">{pct(t.noHitRate)}</dd></div>
        <div><dt>Click-through</dt><dd data-total="clickThroughRate">{pct(t.clickThroughRate)}</dd></div>
        <div><dt>Avg. click position</dt><dd data-total="avgClickPosition">{t.avgClickPosition ?? "–"}</dd></div>
      </dl>
      <div class="an-charts">
        <SearchesChart daily={p.search.daily} />
        <RatesChart daily={p.search.daily} />
        <PositionsChart positions={p.search.clickPositions} />
      </div>
      <div class="an-tables">
        <section>
          <h2>Top queries</h2>
          <div class="an-scroll"><table>
            <thead><tr><th scope="col">Query</th><th scope="col">Count</th><th scope="col">No hit</th><th scope="col">Clicks</th><th scope="col">Avg. pos.</th></tr></thead>
            <tbody>{p.search.topQueries.map((q) => <tr><td>{q.q} <Gated on={q.gated} /></td><td>{q.count}</td><td>{q.noHit}</td><td>{q.clicks}</td><td>{q.avgClickPosition ?? "–"}</td></tr>)}</tbody>
          </table></div>
          {p.search.topQueries.length === 0 && <p class="note">No searches in this range.</p>}
        </section>
        <section>
          <h2>Queries with no results</h2>
          <div class="an-scroll"><table>
            <thead><tr><th scope="col">Query</th><th scope="col">Count</th><th scope="col">Last seen</th></tr></thead>
            <tbody>{p.search.noHitQueries.map((q) => <tr><td>{q.q} <Gated on={q.gated} /></td><td>{q.count}</td><td>{q.lastSeen}</td></tr>)}</tbody>
          </table></div>
          {p.search.noHitQueries.length === 0 && <p class="note">Every query found something.</p>}
        </section>
      </div>
      <section class="an-pages">
        <h2>Pages by helpfulness <small>(least helpful first)</small></h2>
        <div class="an-scroll"><table>
          <thead><tr><th scope="col">Page</th><th scope="col">Helpful</th><th scope="col">Yes</th><th scope="col">No</th><th scope="col">Latest comments</th></tr></thead>
          <tbody>{p.pages.map((pg) => (
            <tr>
              <td><a href={(p.site ?? "") + pg.url}>{pg.title ?? pg.url}</a> <Gated on={pg.gated} /></td>
              <td><meter min={0} max={100} value={pg.helpfulPct ?? 0} aria-label={`${pg.helpfulPct ?? 0}% helpful`} /> {pg.helpfulPct === null ? "–" : `${pg.helpfulPct}%`}</td>
              <td>{pg.helpful}</td><td>{pg.notHelpful}</td>
              <td>{pg.comments.length ? <ul class="an-comments">{pg.comments.slice(0, 3).map((cm) => <li><time>{cm.date}</time> {cm.comment}</li>)}</ul> : "–"}</td>
            </tr>
          ))}</tbody>
        </table></div>
        {p.pages.length === 0 && <p class="note">No page was rated in this range.</p>}
      </section>
    </div>,
  );
}
