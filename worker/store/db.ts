/** @module Drizzle over the D1 binding. */
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../../schema";

/** The typed database handle routes and the publisher use. */
export type Db = DrizzleD1Database<typeof schema>;

/**
 * One handle per D1 binding object: drizzle() walks every table of the schema to build its relational config
 * (a few per cent of an operation page's CPU when done per call), and a binding outlives the requests using it.
 */
const HANDLES = new WeakMap<D1Database, Db>();

/** The drizzle handle of a D1 binding (the handle holds no per-request state). */
export function getDb(d1: D1Database): Db {
  let db = HANDLES.get(d1);
  if (!db) HANDLES.set(d1, (db = drizzle(d1, { schema })));
  return db;
}
