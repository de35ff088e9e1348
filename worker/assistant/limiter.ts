/**
 * @module The AssistantLimiter Durable Object: one per portal, it counts questions atomically per reader and for the
 * whole portal over a sliding minute (the SignInLimiter's pattern: the count and the insert run in one synchronous
 * step over the object's SQLite storage, so concurrent questions cannot all read "under the limit"). Questions cost
 * compute (and, in production, model tokens): a reader, or every reader of a portal together, over the limit is
 * answered 429 `rate-limited` before retrieval runs.
 */
import { DurableObject } from "cloudflare:workers";

/** The window questions are counted over, in milliseconds. */
export const ASSISTANT_WINDOW_MS = 60_000;
/** Defaults per window: one reader, and all readers of one portal together. */
export const ASSISTANT_LIMITS = { reader: 20, portal: 600 };

/** What `spend` answers. */
export type Spend = { ok: true } | { ok: false; retryAfterSeconds: number; scope: "reader" | "portal" };

export class AssistantLimiter extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS questions (reader TEXT NOT NULL, at INTEGER NOT NULL);
       CREATE INDEX IF NOT EXISTS questions_reader ON questions (reader, at);
       CREATE INDEX IF NOT EXISTS questions_at ON questions (at);`,
    );
  }

  /** Spends one question of `reader` at `nowMs` unless the reader or the portal is at its limit in the window. */
  spend(reader: string, nowMs: number, limits: { reader: number; portal: number } = ASSISTANT_LIMITS): Spend {
    const sql = this.ctx.storage.sql;
    const since = nowMs - ASSISTANT_WINDOW_MS;
    sql.exec("DELETE FROM questions WHERE at <= ?", since);
    const mine = sql.exec<{ n: number; first: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS first FROM questions WHERE reader = ?", reader).one();
    const all = sql.exec<{ n: number; first: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS first FROM questions").one();
    const over = mine.n >= limits.reader ? { row: mine, scope: "reader" as const } : all.n >= limits.portal ? { row: all, scope: "portal" as const } : null;
    if (over) return { ok: false, scope: over.scope, retryAfterSeconds: Math.max(1, Math.ceil(((over.row.first ?? nowMs) + ASSISTANT_WINDOW_MS - nowMs) / 1000)) };
    sql.exec("INSERT INTO questions (reader, at) VALUES (?, ?)", reader, nowMs);
    return { ok: true };
  }
}

/** The limiter of `portalId`. */
export function assistantLimiter(env: Env, portalId: number): DurableObjectStub<AssistantLimiter> {
  return env.ASSISTANT_LIMITER.get(env.ASSISTANT_LIMITER.idFromName(`portal:${portalId}`));
}

/**
 * The limits in force: the defaults, or the optional vars `ASSISTANT_READER_LIMIT` / `ASSISTANT_PORTAL_LIMIT`
 * (questions a minute; the benchmark raises them, a deployment may lower them).
 */
export function assistantLimits(env: { ASSISTANT_READER_LIMIT?: unknown; ASSISTANT_PORTAL_LIMIT?: unknown }): { reader: number; portal: number } {
  const num = (v: unknown, d: number) => {
    const n = Number(v);
    return v !== undefined && v !== "" && Number.isInteger(n) && n > 0 ? n : d;
  };
  return { reader: num(env.ASSISTANT_READER_LIMIT, ASSISTANT_LIMITS.reader), portal: num(env.ASSISTANT_PORTAL_LIMIT, ASSISTANT_LIMITS.portal) };
}
