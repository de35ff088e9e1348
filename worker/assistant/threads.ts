/**
 * @module Assistant threads in D1 (drizzle): created per reader, read back only by the reader who owns them and only
 * before they expire (24 hours), at most 20 turns. Every read re-checks each stored turn's sources against the
 * reader's current access: a turn citing anything the reader can no longer open is deleted, never replayed or
 * carried into a follow-up.
 */
import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import { assistantThreads, assistantTurns } from "../../schema";
import type { Db } from "../store/db";

/** A thread lives this long after it is started (milliseconds). */
export const THREAD_TTL_MS = 24 * 60 * 60 * 1000;
/** Turns per thread, at most. */
export const MAX_TURNS = 20;
/** Characters of an answer stored per turn, at most. */
export const MAX_STORED_ANSWER_CHARS = 8000;

/** A source as answered to the reader, with what the re-check needs (never sent back: see `publicSource`). */
export interface StoredSource {
  kind: string;
  title: string;
  url: string;
  section?: string;
  api?: string;
  operationId?: string;
  /** The search document's access labels and policy path (worker/search/types.ts). */
  labels: string[];
  policyPath?: string;
}

/** A turn as stored. */
export interface StoredTurn {
  turn: number;
  question: string;
  answered: boolean;
  answer: string;
  sources: StoredSource[];
  helpful: boolean | null;
}

/** A 128-bit random id, base64url. */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The source without its access facts, as the contract answers it. */
export function publicSource(s: StoredSource): Omit<StoredSource, "labels" | "policyPath"> {
  const { labels: _labels, policyPath: _policyPath, ...rest } = s;
  return rest;
}

/** Starts a thread for `owner` on `portalId`; returns its id. Expired threads of the portal are deleted first. */
export async function createThread(db: Db, portalId: number, owner: string, now = Date.now()): Promise<string> {
  const id = randomId();
  await db.batch([
    db.delete(assistantTurns).where(sql`${assistantTurns.threadId} IN (SELECT id FROM assistant_threads WHERE portal_id = ${portalId} AND expires_at <= ${now})`),
    db.delete(assistantThreads).where(and(eq(assistantThreads.portalId, portalId), lte(assistantThreads.expiresAt, now))),
    db.insert(assistantThreads).values({ id, portalId, owner, createdAt: now, expiresAt: now + THREAD_TTL_MS, turns: 0 }),
  ]);
  return id;
}

/**
 * The live thread `id` of `owner` on `portalId` with its turns, re-checked with `readable`: turns citing a source the
 * reader cannot open any more are deleted (and left out). Undefined when unknown, expired, or another reader's.
 */
export async function loadThread(db: Db, portalId: number, owner: string, id: string, readable: (s: StoredSource) => boolean, now = Date.now()): Promise<{ id: string; turns: StoredTurn[]; count: number } | undefined> {
  const thread = await db.select().from(assistantThreads).where(and(eq(assistantThreads.id, id), eq(assistantThreads.portalId, portalId), eq(assistantThreads.owner, owner), gt(assistantThreads.expiresAt, now))).get();
  if (!thread) return undefined;
  const rows = await db.select().from(assistantTurns).where(eq(assistantTurns.threadId, id)).orderBy(asc(assistantTurns.turn)).all();
  const turns: StoredTurn[] = [];
  const lost: number[] = [];
  for (const r of rows) {
    let sources: StoredSource[] = [];
    try {
      sources = JSON.parse(r.sources) as StoredSource[];
    } catch {
      lost.push(r.turn);
      continue;
    }
    if (!sources.every(readable)) {
      lost.push(r.turn);
      continue;
    }
    turns.push({ turn: r.turn, question: r.question, answered: r.answered, answer: r.answer, sources, helpful: r.helpful ?? null });
  }
  if (lost.length) {
    // What the reader lost access to is not kept for them: the turn's question, answer and sources go.
    await db.delete(assistantTurns).where(and(eq(assistantTurns.threadId, id), sql`${assistantTurns.turn} IN (${sql.join(lost.map((n) => sql`${n}`), sql`, `)})`));
  }
  return { id, turns, count: thread.turns };
}

/** Appends turn `turn` (the thread's count + 1). */
export async function appendTurn(db: Db, threadId: string, turn: Omit<StoredTurn, "helpful">, now = Date.now()): Promise<void> {
  await db.batch([
    db.insert(assistantTurns).values({ threadId, turn: turn.turn, question: turn.question, answered: turn.answered, answer: turn.answer.slice(0, MAX_STORED_ANSWER_CHARS), sources: JSON.stringify(turn.sources), createdAt: now }),
    db.update(assistantThreads).set({ turns: turn.turn }).where(eq(assistantThreads.id, threadId)),
  ]);
}

/** Records feedback on a turn of a live thread of `owner`; false when the thread or turn is not theirs or gone. */
export async function recordFeedback(db: Db, portalId: number, owner: string, threadId: string, turn: number, helpful: boolean, comment: string | undefined, now = Date.now()): Promise<boolean> {
  const thread = await db.select({ id: assistantThreads.id }).from(assistantThreads).where(and(eq(assistantThreads.id, threadId), eq(assistantThreads.portalId, portalId), eq(assistantThreads.owner, owner), gt(assistantThreads.expiresAt, now))).get();
  if (!thread) return false;
  const done = await db.update(assistantTurns).set({ helpful, comment: comment ?? null }).where(and(eq(assistantTurns.threadId, threadId), eq(assistantTurns.turn, turn))).returning({ turn: assistantTurns.turn });
  return done.length > 0;
}
