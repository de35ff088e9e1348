/**
 * @module The SignInLimiter Durable Object: the portal's one rate limiter (one object per portal). It counts sign-in
 * attempts and assistant questions atomically, each kind on its own: a count and the write that follows it run in
 * one synchronous step over the object's SQLite storage, so concurrent requests cannot all read "under the limit"
 * (the D1 read-then-write it replaced let eight concurrent wrong passwords through a limit of five). Sign-in
 * attempts are reserved before the check they guard and released when the check succeeds: a limit on failed
 * passwords also holds the ones still being checked. Assistant questions are spent (worker/assistant/limiter.ts
 * sets their window and limits). The class keeps its first name: it is deployed, and a rename is a migration of its own.
 */
import { DurableObject } from "cloudflare:workers";
import { ATTEMPT_LIMITS, ATTEMPT_WINDOW_MS, type AttemptKind } from "./rate-limit";

/** What `reserve` answers: a reservation to release on success, or how long to wait. */
export type Reservation = { ok: true; id: number } | { ok: false; retryAfterSeconds: number };

/** What `spend` answers: spent, or how long to wait and whose limit (the client's own, or the whole portal's) was hit. */
export type Spend = { ok: true } | { ok: false; retryAfterSeconds: number; scope: "client" | "portal" };

/** A kind counted with limits its caller gives (`spend`): assistant questions. */
export type SpendKind = "assistant-question";

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
    const got = this.take(kind, client, nowMs, ATTEMPT_LIMITS[kind], ATTEMPT_WINDOW_MS);
    return got.ok ? { ok: true, id: got.id } : { ok: false, retryAfterSeconds: got.retryAfterSeconds };
  }

  /**
   * Spends one `kind` by `client` (an owner id) at `nowMs` (epoch ms) unless the client's count or the portal's in
   * the sliding window of `windowMs` has reached `limits` (`client`, `portal`). Nothing is given back.
   */
  spend(kind: SpendKind, client: string, nowMs: number, limits: { client: number; portal: number }, windowMs: number): Spend {
    const got = this.take(kind, client, nowMs, limits, windowMs);
    return got.ok ? { ok: true } : { ok: false, retryAfterSeconds: got.retryAfterSeconds, scope: got.scope };
  }

  // Count and insert in one synchronous step; each kind is pruned with its own window.
  private take(kind: string, client: string, nowMs: number, limits: { client: number; portal: number }, windowMs: number): { ok: true; id: number } | { ok: false; retryAfterSeconds: number; scope: "client" | "portal" } {
    const sql = this.ctx.storage.sql;
    sql.exec("DELETE FROM attempts WHERE kind = ? AND at <= ?", kind, nowMs - windowMs);
    const mine = sql.exec<{ n: number; first: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS first FROM attempts WHERE kind = ? AND client = ?", kind, client).one();
    const all = sql.exec<{ n: number; first: number | null }>("SELECT COUNT(*) AS n, MIN(at) AS first FROM attempts WHERE kind = ?", kind).one();
    const over = mine.n >= limits.client ? { row: mine, scope: "client" as const } : all.n >= limits.portal ? { row: all, scope: "portal" as const } : null;
    if (over) return { ok: false, scope: over.scope, retryAfterSeconds: Math.max(1, Math.ceil(((over.row.first ?? nowMs) + windowMs - nowMs) / 1000)) };
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
