/**
 * @module The SignInLimiter Durable Object: one per portal, it counts sign-in attempts atomically. A count and
 * the write that follows it run in one synchronous step over the object's SQLite storage, so concurrent attempts
 * cannot all read "under the limit" (the D1 read-then-write they replaced let eight concurrent wrong passwords
 * through a limit of five). Attempts are reserved before the check they guard and released when the check
 * succeeds: a limit on failed passwords also holds the ones still being checked.
 */
import { DurableObject } from "cloudflare:workers";
import { ATTEMPT_LIMITS, ATTEMPT_WINDOW_MS, type AttemptKind } from "./rate-limit";

/** What `reserve` answers: a reservation to release on success, or how long to wait. */
export type Reservation = { ok: true; id: number } | { ok: false; retryAfterSeconds: number };

export class SignInLimiter extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS attempts (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, client TEXT NOT NULL, at INTEGER NOT NULL);
       CREATE INDEX IF NOT EXISTS attempts_client ON attempts (kind, client, at);
       CREATE INDEX IF NOT EXISTS attempts_at ON attempts (kind, at);`,
    );
  }

  /**
   * Reserves one attempt of `kind` by `client` (an address, or `local`) at `nowMs` (epoch ms), unless the client's
   * or the portal's count in the window (ATTEMPT_WINDOW_MS, sliding) has reached its limit. Old rows are pruned.
   */
  reserve(kind: AttemptKind, client: string, nowMs: number): Reservation {
    const sql = this.ctx.storage.sql;
    const since = nowMs - ATTEMPT_WINDOW_MS;
    sql.exec("DELETE FROM attempts WHERE at <= ?", since);
    const { client: byClient, portal: byPortal } = ATTEMPT_LIMITS[kind];
    const mine = sql.exec<{ n: number; first: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS first FROM attempts WHERE kind = ? AND client = ?", kind, client).one();
    const all = sql.exec<{ n: number; first: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS first FROM attempts WHERE kind = ?", kind).one();
    const over = mine.n >= byClient ? mine : all.n >= byPortal ? all : null;
    if (over) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(((over.first ?? nowMs) + ATTEMPT_WINDOW_MS - nowMs) / 1000)) };
    const row = sql.exec<{ id: number }>("INSERT INTO attempts (kind, client, at) VALUES (?, ?, ?) RETURNING id", kind, client, nowMs).one();
    return { ok: true, id: row.id };
  }

  /** Gives back a reservation whose check succeeded (a right password is no failed attempt). */
  release(id: number): void {
    this.ctx.storage.sql.exec("DELETE FROM attempts WHERE id = ?", id);
  }
}

/** The limiter of `portalId` (one object per portal, named by its id). */
export function signInLimiter(env: Env, portalId: number): DurableObjectStub<SignInLimiter> {
  return env.SIGN_IN_LIMITER.get(env.SIGN_IN_LIMITER.idFromName(`portal:${portalId}`));
}
