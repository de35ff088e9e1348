/**
 * @module Queries built once per isolate for the hottest read path (a reference page's D1 batch): drizzle builds a
 * query's SQL text from its builder tree on every run, and for the page's eight statements that was about a fifth of
 * a warm operation page's CPU in the isolate's profile. A query is built here once per D1 handle with
 * `sql.placeholder`s, and each run only fills its values in.
 */
import { fillPlaceholders, type Placeholder, sql } from "drizzle-orm";
import type { Db } from "./db";

/** What drizzle's D1 batch reads of a query (`_prepare()`; drizzle-orm/d1/session.js `batch`). */
interface BatchPrepared {
  getQuery(): { sql: string; params: unknown[] };
  stmt: D1PreparedStatement;
  mapResult(response: unknown, isFromBatch?: boolean): unknown;
}

/** The prepared queries of each handle, by name. The handle outlives requests (store/db.ts), and so do they. */
const KEPT = new WeakMap<Db, Map<string, BatchPrepared>>();

/** `sql.placeholder(name)`, typed as the value it stands for, so the query builders keep their parameter types. */
export function slot<T>(name: string): T {
  return sql.placeholder(name) as Placeholder as unknown as T;
}

/**
 * `build()` (a drizzle query using {@link slot}s), built and prepared once per handle under `name`, then given
 * `values` for this run: the answer goes into `db.batch` like the built query and yields the same rows. `name` must
 * name one query shape: two shapes under one name would run the first.
 */
export function preparedOnce<Q extends { prepare(): unknown }>(db: Db, name: string, build: () => Q, values: Record<string, unknown>): Q {
  let kept = KEPT.get(db);
  if (!kept) KEPT.set(db, (kept = new Map()));
  let prepared = kept.get(name);
  if (!prepared) kept.set(name, (prepared = build().prepare() as BatchPrepared));
  const query = prepared.getQuery();
  const params = fillPlaceholders(query.params, values);
  const p = prepared;
  // drizzle's batch asks each item for `_prepare()`, then binds the statement with the query's params and maps the
  // batch's result through the prepared query: this item answers with the kept statement and this run's values.
  const item = { _prepare: () => ({ getQuery: () => ({ sql: query.sql, params }), stmt: p.stmt, mapResult: (r: unknown, b?: boolean) => p.mapResult(r, b) }) };
  return item as unknown as Q;
}
