/**
 * @module The assistant's rate limits: questions counted atomically per reader and for the whole portal over a
 * sliding minute, by the portal's one rate-limiter Durable Object (access/sign-in-limiter.ts, which counts sign-in
 * attempts the same way, each kind on its own). Questions cost compute (and, in production, model tokens): a
 * reader, or every reader of a portal together, over the limit is answered 429 `rate-limited` before retrieval runs.
 */
import { signInLimiter } from "../access/sign-in-limiter";

/** The window questions are counted over, in milliseconds. */
export const ASSISTANT_WINDOW_MS = 60_000;
/** Defaults per window: one reader, and all readers of one portal together. */
export const ASSISTANT_LIMITS = { reader: 20, portal: 600 };

/** What a question's spend answers. */
export type Spend = { ok: true } | { ok: false; retryAfterSeconds: number; scope: "reader" | "portal" };

/** Spends one question of `reader` (the thread owner id) on `portalId`'s limiter at `nowMs` (epoch ms). */
export async function spendQuestion(env: Env, portalId: number, reader: string, nowMs: number, limits: { reader: number; portal: number } = ASSISTANT_LIMITS): Promise<Spend> {
  const got = await signInLimiter(env, portalId).spend("assistant-question", reader, nowMs, { client: limits.reader, portal: limits.portal }, ASSISTANT_WINDOW_MS);
  return got.ok ? { ok: true } : { ok: false, retryAfterSeconds: got.retryAfterSeconds, scope: got.scope === "client" ? "reader" : "portal" };
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
