/**
 * @module Analytics routes (issue 29, docs/analytics.md). Readers: `POST /p/{portal}/analytics/events` (a JSON array
 * of at most 50 events, same-site only, `navigator.sendBeacon`): 204, or 400 `invalid-events` listing each
 * malformed event's index and code while the others are kept; 429 per client; `DNT: 1` / `Sec-GPC: 1` readers are
 * answered 204 and not recorded. Writers (portal token; scope `read:analytics`, plan feature `analytics` once
 * workspaces land): `GET /v1/analytics/search`, `/v1/analytics/pages`, `/v1/analytics/export.csv`, the backlog
 * (`GET /v1/analytics/backlog`, `POST /v1/analytics/backlog/{id}/draft`) and its drafts (read, edit, discard, download as
 * Markdown, open as a pull request through the portal's Git connection: `POST …/drafts/{draft}/pull-request`).
 */
import { Hono, type Context } from "hono";
import { readerState } from "../access/resolve";
import { checkEvents, dayOf, MAX_EVENTS, MAX_POSITION, type IngestBatch } from "../analytics/events";
import { normalizeQuery } from "../analytics/query-id";
import { portalAnalytics, RETENTION_DAYS, type ReportRange } from "../analytics/portal-analytics";
import { optedOut, sinkToAnalyticsEngine } from "../analytics/record";
import type { AppEnv, PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { readBodyLimited } from "../http/read-body";
import { requirePortal } from "../middleware/auth";
import { portalBasePath } from "../render/shell/base-path";
import { groupNoHitQueries, queryStems, type BacklogGroup } from "../analytics/backlog";
import { embeddedGuideWriter, workersAiGuideWriter, type NearbyUnit } from "../analytics/guide-writer";
import { loadAssistantPortal } from "../assistant/service";
import { loadIndex, searchLoaded } from "../store/search";
import { readJsonObject } from "../http/read-json";
import { DEFAULT_PAGE_POLICY, usePagePolicy } from "../http/security-headers";
import { renderDashboard } from "../render/analytics-dashboard";
import { renderAnalyticsAdminPage, renderBacklogAdminPage } from "../render/analytics-admin-page";
import { getDb } from "../store/db";
import { publicOrigin } from "../http/public-origin";
import { loadPortal } from "../store/reader";
import { sameSiteOnly } from "./playground";
import { findConnection } from "../store/git";
import { hostFor } from "../git/sync";
import { FileExists } from "../git/host";
import { OutboundError } from "../git/outbound";
import { draftProposal, draftSlug } from "../git/pull-request";

/** Bytes of an event batch, at most (50 events with 1,000-character comments fit). */
export const MAX_EVENTS_BYTES = 128 * 1024;
/** The range a report covers when none is given (days, today included). */
export const DEFAULT_RANGE_DAYS = 30;
const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `from`/`to` (YYYY-MM-DD, inclusive) checked against `nowMs`: default the last 30 days; 400 `invalid-range` for a
 * malformed date, `from` after `to`, or `from` more than {@link RETENTION_DAYS} days back. `audience=public` leaves
 * out what readers of gated sections did (a report to share beyond the writers).
 */
export function reportRange(query: (name: string) => string | undefined, nowMs: number): ReportRange {
  const today = dayOf(nowMs);
  const to = query("to") || today;
  const from = query("from") || dayOf(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_RANGE_DAYS - 1) * DAY_MS);
  for (const [name, v] of [["from", from], ["to", to]] as const) {
    if (!DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`)) || dayOf(Date.parse(`${v}T00:00:00Z`)) !== v) throw new ApiError(400, "invalid-range", `${name} must be a date YYYY-MM-DD`);
  }
  if (from > to) throw new ApiError(400, "invalid-range", "from must not be after to");
  const oldest = dayOf(nowMs - RETENTION_DAYS * DAY_MS);
  if (from < oldest) throw new ApiError(400, "invalid-range", `analytics are kept ${RETENTION_DAYS} days: from must be ${oldest} or later`);
  const audience = query("audience");
  if (audience !== undefined && audience !== "public" && audience !== "all") throw new ApiError(400, "invalid-audience", "audience is all (default) or public");
  return { from, to: to > today ? today : to, includeGated: audience !== "public" };
}

/** One CSV field (RFC 4180): quoted when it holds a comma, quote or line break; a leading =, +, - or @ is prefixed with ' so spreadsheets do not run it. */
export function csvField(value: string | number | null): string {
  let s = value === null ? "" : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows as CSV with a header line (the keys of the first row, or `columns` when there is none). */
export function toCsv(rows: Record<string, string | number>[], columns: string[]): string {
  return [columns.join(","), ...rows.map((r) => columns.map((k) => csvField(r[k] ?? null)).join(","))].join("\r\n") + "\r\n";
}

async function parseEvents(c: Context<AppEnv>): Promise<unknown[]> {
  const bytes = await readBodyLimited(c.req.raw, MAX_EVENTS_BYTES);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ApiError(400, "invalid-json", "the body is a JSON array of events");
  }
  if (!Array.isArray(value)) throw new ApiError(400, "invalid-json", "the body is a JSON array of events");
  if (value.length > MAX_EVENTS) throw new ApiError(400, "too-many-events", `a batch holds at most ${MAX_EVENTS} events; this one has ${value.length}`);
  return value;
}

const writer = new Hono<PortalAppEnv>()
  .use("/v1/analytics/*", requirePortal)
  .get("/v1/analytics/search", async (c) => {
    const range = reportRange((n) => c.req.query(n), Date.now());
    const kind = c.req.query("kind") ?? "search";
    if (kind !== "search" && kind !== "assistant") throw new ApiError(400, "invalid-kind", "kind is search or assistant");
    c.header("cache-control", "private, no-store");
    return c.json({ from: range.from, to: range.to, kind, ...(await portalAnalytics(c.env, c.var.portal.id).searchReport(range, kind)) });
  })
  .get("/v1/analytics/dashboard.html", async (c) => {
    // The dashboard's report (server-rendered charts) for its page's script, which holds the token.
    const range = reportRange((n) => c.req.query(n), Date.now());
    const kind = c.req.query("kind") ?? "search";
    if (kind !== "search" && kind !== "assistant") throw new ApiError(400, "invalid-kind", "kind is search or assistant");
    const stub = portalAnalytics(c.env, c.var.portal.id);
    const [search, pages] = await Promise.all([stub.searchReport(range, kind), stub.pagesReport(range, 3)]);
    c.header("cache-control", "private, no-store");
    // On a custom domain the pages' paths are that host's; the dashboard is on the service host.
    const site = c.var.portal.hostname ? publicOrigin(c.env, c.var.portal) : "";
    return c.html(renderDashboard({ from: range.from, to: range.to, kind, search, pages, site }));
  })
  .get("/v1/analytics/pages", async (c) => {
    const range = reportRange((n) => c.req.query(n), Date.now());
    c.header("cache-control", "private, no-store");
    return c.json(await portalAnalytics(c.env, c.var.portal.id).pagesReport(range));
  })
  .get("/v1/analytics/export.csv", async (c) => {
    const range = reportRange((n) => c.req.query(n), Date.now());
    const table = c.req.query("table") ?? "queries";
    if (table !== "queries" && table !== "pages") throw new ApiError(400, "invalid-table", "table is queries or pages");
    const rows = await portalAnalytics(c.env, c.var.portal.id).exportRows(table, range);
    const columns = table === "queries" ? ["date", "kind", "q", "searches", "noHit", "clicks", "positionSum", "gated"] : ["date", "url", "title", "helpful", "notHelpful", "comments", "gated"];
    c.header("cache-control", "private, no-store");
    c.header("content-disposition", `attachment; filename="${c.var.portal.slug}-${table}-${range.from}-${range.to}.csv"`);
    return c.body(toCsv(rows, columns), 200, { "content-type": "text/csv; charset=utf-8" });
  });

/** Units of the portal's live index nearest a group's queries (the label, then each query's words): operations first. */
async function nearbyUnits(env: Env, slug: string, group: BacklogGroup): Promise<NearbyUnit[]> {
  const portal = await loadAssistantPortal(env.DB, slug);
  const index = portal?.pointer ? await loadIndex(env.MODELS, portal.pointer, portal.id, env.DB) : undefined;
  if (!portal || !index) return [];
  const base = portalBasePath(portal);
  // Run again, fresh, when a search read documents not yet loaded (store/search.ts searchLoaded).
  const seen = await searchLoaded(env.MODELS, index, () => {
    const units = new Map<string, NearbyUnit>();
    const asks = [group.label, ...group.queries.slice(0, 5).flatMap((q) => queryStems(q.q))];
    for (const q of asks) {
      // Drafts are for the portal's writers: every unit may be named (gated ones too).
      for (const hit of index.search(q, { limit: 5, canRead: () => true }).results) {
        const d = hit.doc;
        const url = base + d.url;
        if (!units.has(url)) units.set(url, { kind: d.kind, title: d.title, url, method: d.fields?.method ?? null, path: d.fields?.path ?? null });
      }
      if (units.size >= 12) break;
    }
    return units;
  });
  return [...seen.values()].sort((a, b) => Number(b.kind === "operation") - Number(a.kind === "operation"));
}

/** Drafts are edited as text: at most this many characters of title and body. */
const MAX_DRAFT_TITLE = 200;
const MAX_DRAFT_BODY = 100_000;

/** Bytes of a seeding request, at most (a busy portal's day of events, one batch a day). */
const MAX_SEED_BYTES = 32 * 1024 * 1024;

/** One seeding batch checked (local only; the shapes of {@link IngestBatch}); 400 `invalid-seed` naming the problem. */
export function seedBatch(value: unknown, index: number): IngestBatch {
  const bad = (what: string) => new ApiError(400, "invalid-seed", `batches[${index}]: ${what}`);
  if (!value || typeof value !== "object") throw bad("a batch is an object");
  const b = value as Record<string, unknown>;
  if (typeof b.day !== "string" || !DATE.test(b.day)) throw bad("day is YYYY-MM-DD");
  const list = (name: string) => {
    const v = b[name] ?? [];
    if (!Array.isArray(v)) throw bad(`${name} is an array`);
    return v as Record<string, unknown>[];
  };
  const kind = (k: unknown) => (k === "assistant" ? "assistant" : k === "search" || k === undefined ? "search" : (() => { throw bad("kind is search or assistant"); })());
  const q = (v: unknown) => {
    if (typeof v !== "string" || !normalizeQuery(v)) throw bad("q is a non-empty string");
    return normalizeQuery(v);
  };
  return {
    day: b.day,
    searches: list("searches").map((e) => ({ kind: kind(e.kind), q: q(e.q), gated: e.gated === true, results: Number.isInteger(e.results) && (e.results as number) >= 0 ? (e.results as number) : 0 })),
    clicks: list("clicks").map((e) => ({ kind: kind(e.kind), q: q(e.q), gated: e.gated === true, position: Number.isInteger(e.position) && (e.position as number) >= 1 ? Math.min(e.position as number, MAX_POSITION) : 1 })),
    ratings: list("ratings").map((e) => {
      if (typeof e.url !== "string" || !e.url.startsWith("/") || e.url.length > 512 || typeof e.helpful !== "boolean") throw bad("a rating is {url: a path, helpful: boolean}");
      const comment = typeof e.comment === "string" ? e.comment.slice(0, 1000) : "";
      const title = typeof e.title === "string" ? e.title.slice(0, 200) : "";
      return { url: e.url, gated: e.gated === true, helpful: e.helpful, ...(comment ? { comment } : {}), ...(title ? { title } : {}) };
    }),
  };
}

// Behind the writer routes' requirePortal (registered first on the same paths).
const backlog = new Hono<PortalAppEnv>()
  .post("/v1/analytics/seed", async (c) => {
    // Back-dated events for the demo (`npm start`) and the benchmark: local development only, like allowPrivateHosts.
    if (c.env.PORTICO_ENVIRONMENT !== "local") throw new ApiError(404, "not-found", "seeding analytics is for local development only");
    const body = await readJsonObject(c.req.raw, MAX_SEED_BYTES);
    if (!Array.isArray(body.batches) || body.batches.length > 400) throw new ApiError(400, "invalid-seed", "batches is an array of at most 400 day batches");
    const batches = body.batches.map(seedBatch);
    const stub = portalAnalytics(c.env, c.var.portal.id);
    let statements = 0;
    for (const batch of batches) statements += (await stub.ingest(batch)).statements;
    return c.json({ batches: batches.length, statements, ...(await stub.storageFigures()) });
  })
  .get("/v1/analytics/backlog", async (c) => {
    const range = reportRange((n) => c.req.query(n), Date.now());
    const stub = portalAnalytics(c.env, c.var.portal.id);
    const groups = groupNoHitQueries(await stub.noHitQueries(range));
    const drafts = await stub.drafts();
    c.header("cache-control", "private, no-store");
    return c.json({ from: range.from, to: range.to, groups: groups.slice(0, 200).map((g) => ({ ...g, draftId: drafts.find((d) => d.groupId === g.id)?.id ?? null })), drafts: drafts.map(({ body: _b, ...d }) => d) });
  })
  .post("/v1/analytics/backlog/:id/draft", async (c) => {
    const range = reportRange((n) => c.req.query(n), Date.now());
    const stub = portalAnalytics(c.env, c.var.portal.id);
    const group = groupNoHitQueries(await stub.noHitQueries(range)).find((g) => g.id === c.req.param("id"));
    if (!group) throw new ApiError(404, "not-found", "no backlog item with this id in the range (it may have been answered since)");
    const ai = c.env.AI;
    // Production words the overview with Workers AI; locally, and whenever it fails, the embedded writer.
    const writer = ai ? workersAiGuideWriter({ run: (model, input) => ai.run(model as Parameters<Ai["run"]>[0], input as never) }) : embeddedGuideWriter;
    const now = new Date();
    const draft = await writer.write({ group, nearby: await nearbyUnits(c.env, c.var.portal.slug, group), date: dayOf(now.getTime()) });
    const evidence = { label: group.label, count: group.count, lastSeen: group.lastSeen, gated: group.gated, queries: group.queries.map((q) => ({ q: q.q, kind: q.kind, count: q.count })) };
    return c.json(await stub.saveDraft(group.id, draft.title, draft.body, now.toISOString(), evidence), 201);
  })
  .get("/v1/analytics/backlog/drafts/:draft/download", async (c) => {
    const d = await portalAnalytics(c.env, c.var.portal.id).draft(c.req.param("draft"));
    if (!d || d.status !== "draft") throw new ApiError(404, "not-found", "no such draft");
    c.header("content-disposition", `attachment; filename="${draftSlug(d.title, d.id)}.md"`);
    c.header("cache-control", "private, no-store");
    return c.body(d.body.endsWith("\n") ? d.body : `${d.body}\n`, 200, { "content-type": "text/markdown; charset=utf-8" });
  })
  .get("/v1/analytics/backlog/drafts/:draft", async (c) => {
    const d = await portalAnalytics(c.env, c.var.portal.id).draft(c.req.param("draft"));
    if (!d) throw new ApiError(404, "not-found", "no such draft");
    return c.json(d);
  })
  .patch("/v1/analytics/backlog/drafts/:draft", async (c) => {
    const body = await readJsonObject(c.req.raw, 256 * 1024);
    if (typeof body.title !== "string" || !body.title.trim() || body.title.length > MAX_DRAFT_TITLE) throw new ApiError(400, "invalid-draft", `title is a non-empty string of at most ${MAX_DRAFT_TITLE} characters`);
    if (typeof body.body !== "string" || body.body.length > MAX_DRAFT_BODY) throw new ApiError(400, "invalid-draft", `body is a string of at most ${MAX_DRAFT_BODY} characters`);
    const d = await portalAnalytics(c.env, c.var.portal.id).editDraft(c.req.param("draft"), body.title.trim(), body.body, new Date().toISOString());
    if (!d) throw new ApiError(404, "not-found", "no such draft (or it was discarded)");
    return c.json(d);
  })
  .post("/v1/analytics/backlog/drafts/:draft/pull-request", async (c) => {
    // The draft as one new file on a new branch, proposed for review (git/pull-request.ts): the request is the review,
    // nothing is published here. Claimed first, so two clicks open one request; a failure frees the claim and
    // records nothing (the provider adapter deletes the branch it made).
    const portal = c.var.portal;
    const stub = portalAnalytics(c.env, portal.id);
    const id = c.req.param("draft");
    const d = await stub.draft(id);
    if (!d || d.status !== "draft") throw new ApiError(404, "not-found", "no such draft (or it was discarded)");
    if (d.pullRequest) throw new ApiError(409, "pull-request-open", `this draft is already open for review: ${d.pullRequest.url}`, { url: d.pullRequest.url });
    const conn = await findConnection(getDb(c.env.DB), portal.id);
    if (!conn) throw new ApiError(409, "not-connected", "no repository is connected to this portal: connect one (PUT /v1/portal/git, docs/git.md) or download the draft as Markdown");
    if (conn.paths.content === undefined) throw new ApiError(409, "no-content-folder", "the portal's Git connection names no content folder (paths.content) to add the guide to");
    const backlogUrl = `${publicOrigin(c.env)}/p/${encodeURIComponent(portal.slug)}/admin/backlog`;
    const proposal = draftProposal(d, conn.paths, conn.productionBranch, portal.name, backlogUrl);
    if (!(await stub.claimPullRequest(id, Date.now()))) throw new ApiError(409, "pull-request-opening", "this draft's pull request is being opened by another request; reload in a moment");
    let opened: { url: string; number: number };
    try {
      opened = await hostFor(c.env, conn).openPullRequest(proposal);
    } catch (error) {
      await stub.releasePullRequest(id);
      const kind = conn.provider === "gitlab" ? "merge request" : "pull request";
      if (error instanceof FileExists) throw new ApiError(409, "file-exists", `${error.message}; no ${kind} was opened`, { path: error.path });
      if (error instanceof OutboundError) throw new ApiError(502, "git-provider-error", `The ${kind} could not be opened: ${error.message}. Nothing was recorded; try again.`, error.status ? { status: error.status } : undefined);
      throw error;
    }
    const saved = await stub.recordPullRequest(id, { url: opened.url, number: opened.number, branch: proposal.branch, path: proposal.path, openedAt: new Date().toISOString() });
    return c.json(saved, 201);
  })
  .post("/v1/analytics/backlog/drafts/:draft/discard", async (c) => {
    if (!(await portalAnalytics(c.env, c.var.portal.id).discardDraft(c.req.param("draft"), new Date().toISOString()))) throw new ApiError(404, "not-found", "no such draft (or it was discarded)");
    return c.body(null, 204);
  });

/** The writers' pages: shells holding no data until the token is entered (the editor's page policy). */
async function adminPage(c: Context<AppEnv>, render: (p: { portal: { slug: string; name: string } }) => string): Promise<Response> {
  const portal = await loadPortal(getDb(c.env.DB), c.req.param("portal") ?? "");
  c.header("cache-control", "no-store");
  usePagePolicy(c, { ...DEFAULT_PAGE_POLICY, editor: true });
  return c.html(render({ portal: { slug: portal.slug, name: portal.name } }));
}

export const analyticsRoutes = new Hono<AppEnv>()
  .get("/p/:portal/admin/analytics", (c) => adminPage(c, renderAnalyticsAdminPage))
  .get("/p/:portal/admin/backlog", (c) => adminPage(c, renderBacklogAdminPage))
  .post("/p/:portal/analytics/events", async (c) => {
    c.header("cache-control", "private, no-store");
    // Only the portal's own pages report (another site must not write into its figures).
    sameSiteOnly(c);
    if (optedOut(c.req.raw.headers)) return c.body(null, 204);
    const events = await parseEvents(c);
    const slug = c.req.param("portal");
    const portal = await c.env.DB.prepare("SELECT id, slug, hostname FROM portals WHERE slug = ?").bind(slug).first<{ id: number; slug: string; hostname: string | null }>();
    if (!portal) throw new ApiError(404, "not-found", `no portal "${slug}"`);
    // Counted per client address and portal; the address is only the limiter's key, never stored with an event.
    const limiter = (c.env as { ANALYTICS_CLIENT_LIMIT?: RateLimit }).ANALYTICS_CLIENT_LIMIT;
    if (limiter && !(await limiter.limit({ key: `${portal.id}|${c.req.header("cf-connecting-ip") ?? "unknown"}` })).success) {
      c.header("retry-after", "60");
      throw new ApiError(429, "rate-limited", "too many event batches; wait a minute");
    }
    const state = await readerState(c, portal);
    const { batch, problems } = await checkEvents(events, {
      portalId: portal.id, basePath: portalBasePath(portal), gatedReader: state.reader("en").audiences.some((a) => a !== "public"), secret: c.env.SESSION_SECRET, nowMs: Date.now(),
    });
    if (batch.searches.length + batch.clicks.length + batch.ratings.length > 0) {
      sinkToAnalyticsEngine(c.env, portal.id, batch);
      const { statements } = await portalAnalytics(c.env, portal.id).ingest(batch);
      // The benchmark's statements per event (one transaction either way).
      c.header("server-timing", `ingest;desc="${statements} statements"`);
    }
    if (problems.length) throw new ApiError(400, "invalid-events", `${problems.length} of ${events.length} events were not kept`, problems);
    return c.body(null, 204);
  })
  .route("/", writer)
  .route("/", backlog);
