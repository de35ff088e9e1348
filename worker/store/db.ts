/** @module Drizzle over the D1 binding. */
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "../../schema";

/** The typed database handle routes and the publisher use. */
export type Db = DrizzleD1Database<typeof schema>;

/** Wraps a D1 binding; cheap, so one per request is fine. */
export function getDb(d1: D1Database): Db {
  return drizzle(d1, { schema });
}
