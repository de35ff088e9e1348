/**
 * @module Reader events (issue 29) checked one by one: `search` (a typing session's final query), `click` (a result
 * opened, 1-based position) and `feedback` (was this page helpful). A malformed event gets a problem with a code
 * and its index; the others are kept. What is kept carries no IP, cookie or reader identity: only the query
 * facts the signed query id states, the page path, and the reader's answer. Platform-free apart from Web Crypto.
 */
import { normalizeQuery, verifyQueryId, type AnalyticsKind, type QueryFacts } from "./query-id";

/** Events per request, at most (a beacon's batch). */
export const MAX_EVENTS = 50;
/** Characters of a feedback comment, at most. */
export const MAX_COMMENT_CHARS = 1000;
/** Characters of a page path or title kept. */
export const MAX_URL_CHARS = 512;
export const MAX_TITLE_CHARS = 200;
/** Click positions counted one by one up to here; later ones join this bucket. */
export const MAX_POSITION = 50;

/** A query searched (a rollup row's count, and a no-hit when it found nothing). */
export interface SearchCount {
  kind: AnalyticsKind;
  q: string;
  gated: boolean;
  results: number;
}

/** A result opened from a query's answer. */
export interface ClickCount {
  kind: AnalyticsKind;
  q: string;
  gated: boolean;
  position: number;
}

/** A page rated. `url` is a path under the portal (no origin, query or fragment). */
export interface PageRating {
  url: string;
  title?: string;
  gated: boolean;
  helpful: boolean;
  comment?: string;
}

/** What one request adds, written by the portal's PortalAnalytics in one transaction. `day` is YYYY-MM-DD (UTC). */
export interface IngestBatch {
  day: string;
  searches: SearchCount[];
  clicks: ClickCount[];
  ratings: PageRating[];
}

/** Why one event of a batch was not kept. */
export interface EventProblem {
  index: number;
  code: "invalid-event" | "unknown-type" | "invalid-query-id" | "query-mismatch" | "invalid-position" | "invalid-url" | "invalid-helpful" | "comment-too-long" | "invalid-results" | "duplicate-query-id";
  message: string;
}

/** The request's context: which portal, whether the reader holds a gated audience, and the key and clock. */
export interface EventContext {
  portalId: number;
  /** The portal's reader base path (`/p/{slug}` or "" on its own hostname): pages must be under it. */
  basePath: string;
  gatedReader: boolean;
  secret: string | undefined;
  nowMs: number;
}

/** YYYY-MM-DD of `ms` in UTC. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The path of `url` (absolute or a path) if it lies under `basePath`, without query or fragment; else undefined. */
export function pagePath(url: string, basePath: string): string | undefined {
  if (url.length > 2048) return undefined;
  let path: string;
  try {
    path = new URL(url, "http://x.invalid").pathname;
  } catch {
    return undefined;
  }
  if (!path.startsWith(basePath + "/") && path !== basePath) return undefined;
  return decodeURI(path.slice(0, MAX_URL_CHARS).replace(/%(?![0-9A-Fa-f]{2})/g, "%25"));
}

/**
 * Checks `events` (the parsed JSON array, at most {@link MAX_EVENTS}) and returns what to count and the problems.
 * A `search` event counts once per query id in a batch; its result count is the signed one, never the client's.
 */
export async function checkEvents(events: unknown[], ctx: EventContext): Promise<{ batch: IngestBatch; problems: EventProblem[] }> {
  const batch: IngestBatch = { day: dayOf(ctx.nowMs), searches: [], clicks: [], ratings: [] };
  const problems: EventProblem[] = [];
  const seen = new Set<string>();
  const nowSeconds = Math.floor(ctx.nowMs / 1000);
  const facts = async (index: number, id: unknown): Promise<QueryFacts | undefined> => {
    const f = typeof id === "string" ? await verifyQueryId(ctx.secret, id, ctx.portalId, nowSeconds) : undefined;
    if (!f) problems.push({ index, code: "invalid-query-id", message: "queryId is missing, forged, expired or another portal's" });
    return f;
  };
  for (let index = 0; index < events.length; index++) {
    const e = events[index];
    if (!e || typeof e !== "object" || Array.isArray(e)) {
      problems.push({ index, code: "invalid-event", message: "an event is a JSON object" });
      continue;
    }
    const ev = e as Record<string, unknown>;
    if (ev.type === "search") {
      if (ev.results !== undefined && (!Number.isInteger(ev.results) || (ev.results as number) < 0)) {
        problems.push({ index, code: "invalid-results", message: "results is a whole number of results, 0 or more" });
        continue;
      }
      const f = await facts(index, ev.queryId);
      if (!f) continue;
      if (typeof ev.q === "string" && ev.q.trim() !== "" && normalizeQuery(ev.q) !== f.q) {
        problems.push({ index, code: "query-mismatch", message: "q is not the query its queryId was issued for" });
        continue;
      }
      if (seen.has(ev.queryId as string)) {
        problems.push({ index, code: "duplicate-query-id", message: "this queryId was already reported in the batch" });
        continue;
      }
      seen.add(ev.queryId as string);
      if (f.q) batch.searches.push({ kind: f.kind, q: f.q, gated: f.gated, results: f.results });
    } else if (ev.type === "click") {
      if (!Number.isInteger(ev.position) || (ev.position as number) < 1) {
        problems.push({ index, code: "invalid-position", message: "position is the 1-based place of the result opened" });
        continue;
      }
      if (typeof ev.url !== "string" || !ev.url) {
        problems.push({ index, code: "invalid-url", message: "url is the address of the result opened" });
        continue;
      }
      const f = await facts(index, ev.queryId);
      if (!f || !f.q) continue;
      batch.clicks.push({ kind: f.kind, q: f.q, gated: f.gated, position: Math.min(ev.position as number, MAX_POSITION) });
    } else if (ev.type === "feedback") {
      const url = typeof ev.url === "string" ? pagePath(ev.url, ctx.basePath) : undefined;
      if (!url) {
        problems.push({ index, code: "invalid-url", message: "url is the rated page's address on this portal" });
        continue;
      }
      if (typeof ev.helpful !== "boolean") {
        problems.push({ index, code: "invalid-helpful", message: "helpful is true or false" });
        continue;
      }
      if (ev.comment !== undefined && typeof ev.comment !== "string") {
        problems.push({ index, code: "invalid-event", message: "comment is a string" });
        continue;
      }
      const comment = typeof ev.comment === "string" ? ev.comment.normalize("NFC").trim() : "";
      if (comment.length > MAX_COMMENT_CHARS) {
        problems.push({ index, code: "comment-too-long", message: `comment is ${comment.length} characters; at most ${MAX_COMMENT_CHARS}` });
        continue;
      }
      const title = typeof ev.title === "string" ? ev.title.replace(/\s+/g, " ").trim().slice(0, MAX_TITLE_CHARS) : "";
      batch.ratings.push({ url, gated: ctx.gatedReader, helpful: ev.helpful, ...(title ? { title } : {}), ...(comment ? { comment } : {}) });
    } else {
      problems.push({ index, code: "unknown-type", message: "type is search, click or feedback" });
    }
  }
  return { batch, problems };
}
