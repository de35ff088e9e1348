/**
 * @module The assistant's threads (issue 28): one row per thread, owned by the reader who started it (a reader id,
 * or an anonymous reader's random cookie id), expiring 24 hours after it was started; one row per turn. Turns keep
 * the question, the answer and the sources with their access labels, so a later turn re-checks them against the
 * reader's current access before they are replayed or carried into a follow-up.
 */
import { sqliteTable, text, integer, primaryKey, index } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

export const assistantThreads = sqliteTable("assistant_threads", {
  /** Random, unguessable (128 bits, base64url). */
  id: text("id").primaryKey(),
  portalId: integer("portal_id").notNull().references(() => portals.id, { onDelete: "cascade" }),
  /** `reader:<readerId>` or `anon:<cookie id>`. */
  owner: text("owner").notNull(),
  /** Epoch milliseconds. */
  createdAt: integer("created_at").notNull(),
  /** Epoch milliseconds; the thread answers 404 after it. */
  expiresAt: integer("expires_at").notNull(),
  turns: integer("turns").notNull().default(0),
}, (t) => [index("assistant_threads_expiry").on(t.expiresAt)]);

export const assistantTurns = sqliteTable("assistant_turns", {
  threadId: text("thread_id").notNull().references(() => assistantThreads.id, { onDelete: "cascade" }),
  /** 1-based. */
  turn: integer("turn").notNull(),
  question: text("question").notNull(),
  answered: integer("answered", { mode: "boolean" }).notNull(),
  answer: text("answer").notNull(),
  /** JSON: the sources as answered, each with `labels` and `policyPath` for the re-check. */
  sources: text("sources").notNull(),
  /** Feedback: null until given. */
  helpful: integer("helpful", { mode: "boolean" }),
  comment: text("comment"),
  createdAt: integer("created_at").notNull(),
}, (t) => [primaryKey({ columns: [t.threadId, t.turn] })]);
