/**
 * @module AI credits (issue 32): one OrgCredits Durable Object per organisation holds its balance. Each spend is a
 * synchronous step over the object's SQLite storage (read, check, write with no await between), so concurrent
 * assistant calls cannot overspend: with 10 credits left, 50 calls at once get exactly 10 answers. The monthly
 * grant (worker/workspace/plans.ts `MONTHLY_CREDITS`) is restored on the 1st of each month, UTC; the clock is the
 * caller's `nowMs` (tests inject it). Usage per day is kept for the dashboard (62 days).
 */
import { DurableObject } from "cloudflare:workers";
import type { OrgRow } from "../store/workspace";
import { monthlyCredits } from "./plans";

/** The meter's state as answered. */
export interface CreditState {
  /** Credits left this month. */
  remaining: number;
  /** Credits used this month. */
  used: number;
  /** This month's grant. */
  grant: number;
  /** The month counted, `YYYY-MM` (UTC). */
  period: string;
}

/** What a spend answers: `ok` false leaves the balance as it was. `warn` is true once a month, when use crosses 80 %. */
export type CreditSpend = CreditState & { ok: boolean; warn: boolean };

/** `YYYY-MM` of an instant, UTC. */
export function periodOf(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}

/** Share of the grant at which owners are told (once a month). */
export const WARN_AT = 0.8;

export class OrgCredits extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS meter (id INTEGER PRIMARY KEY CHECK (id = 1), period TEXT NOT NULL, grant_credits INTEGER NOT NULL, remaining INTEGER NOT NULL, used INTEGER NOT NULL, warned INTEGER NOT NULL);
       CREATE TABLE IF NOT EXISTS daily (day TEXT PRIMARY KEY, used INTEGER NOT NULL);`,
    );
  }

  /** The meter at `nowMs` with `grant` as this month's grant: a new month restores it; a changed grant moves the balance by the difference. */
  private current(nowMs: number, grant: number): CreditState & { warned: number } {
    const sql = this.ctx.storage.sql;
    const period = periodOf(nowMs);
    const row = sql.exec<{ period: string; grant_credits: number; remaining: number; used: number; warned: number }>("SELECT period, grant_credits, remaining, used, warned FROM meter WHERE id = 1").toArray()[0];
    if (!row || row.period !== period) {
      sql.exec("INSERT OR REPLACE INTO meter (id, period, grant_credits, remaining, used, warned) VALUES (1, ?, ?, ?, 0, 0)", period, grant, grant);
      sql.exec("DELETE FROM daily WHERE day < ?", new Date(nowMs - 62 * 86_400_000).toISOString().slice(0, 10));
      return { period, grant, remaining: grant, used: 0, warned: 0 };
    }
    if (row.grant_credits !== grant) {
      const remaining = Math.max(0, row.remaining + grant - row.grant_credits);
      sql.exec("UPDATE meter SET grant_credits = ?, remaining = ? WHERE id = 1", grant, remaining);
      return { period, grant, remaining, used: row.used, warned: row.warned };
    }
    return { period, grant, remaining: row.remaining, used: row.used, warned: row.warned };
  }

  /** Spends `cost` credits at `nowMs` if that many are left. */
  spend(cost: number, nowMs: number, grant: number): CreditSpend {
    const state = this.current(nowMs, grant);
    if (state.remaining < cost) return { ...strip(state), ok: false, warn: false };
    const remaining = state.remaining - cost;
    const used = state.used + cost;
    const warn = !state.warned && state.grant > 0 && used >= state.grant * WARN_AT;
    const sql = this.ctx.storage.sql;
    sql.exec("UPDATE meter SET remaining = ?, used = ?, warned = ? WHERE id = 1", remaining, used, warn ? 1 : state.warned);
    sql.exec("INSERT INTO daily (day, used) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET used = used + excluded.used", new Date(nowMs).toISOString().slice(0, 10), cost);
    return { period: state.period, grant: state.grant, remaining, used, ok: true, warn };
  }

  /**
   * Sets the credits left this month (the service admin's override); what the grant no longer covers counts as used
   * (`used` = grant − remaining, at least 0), without an 80 % mail.
   */
  set(remaining: number, nowMs: number, grant: number): CreditState {
    const state = this.current(nowMs, grant);
    const used = Math.max(0, state.grant - remaining);
    this.ctx.storage.sql.exec("UPDATE meter SET remaining = ?, used = ?, warned = ? WHERE id = 1", remaining, used, state.warned || (state.grant > 0 && used >= state.grant * WARN_AT) ? 1 : 0);
    return { ...strip(state), remaining, used };
  }

  /** The meter and the last 31 days' use, oldest first. */
  read(nowMs: number, grant: number): CreditState & { daily: Array<{ day: string; used: number }> } {
    const state = strip(this.current(nowMs, grant));
    const since = new Date(nowMs - 30 * 86_400_000).toISOString().slice(0, 10);
    const daily = this.ctx.storage.sql.exec<{ day: string; used: number }>("SELECT day, used FROM daily WHERE day >= ? ORDER BY day", since).toArray();
    return { ...state, daily };
  }
}

function strip(s: CreditState & { warned?: number }): CreditState {
  return { remaining: s.remaining, used: s.used, grant: s.grant, period: s.period };
}

/** The credit meter of organisation `orgId`. */
export function orgCredits(env: Env, orgId: number): DurableObjectStub<OrgCredits> {
  return env.ORG_CREDITS.get(env.ORG_CREDITS.idFromName(`org:${orgId}`));
}

/** The organisation's credits now, with its daily use. */
export async function creditsOf(env: Env, org: Pick<OrgRow, "id" | "plan" | "trialEndsAt">, now = new Date()) {
  return orgCredits(env, org.id).read(now.getTime(), monthlyCredits(org, now));
}

/** Sets the credits left this month. */
export async function setCredits(env: Env, org: Pick<OrgRow, "id" | "plan" | "trialEndsAt">, remaining: number, now = new Date()): Promise<CreditState> {
  return orgCredits(env, org.id).set(remaining, now.getTime(), monthlyCredits(org, now));
}
