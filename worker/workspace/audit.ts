/**
 * @module The audit log (issue 32): every change a person or token makes, with who, what, when and from which
 * token. Workspace routes write their own entries; token calls to a portal's `/v1` routes that change something
 * (any method but GET/HEAD answered below 400) are recorded by `requirePortal`. Kept one year
 * ({@link AUDIT_RETENTION_DAYS}); the scheduled handler prunes older entries.
 */
import { insertAudit, pruneAudit, type AuditEntry } from "../store/workspace";

/** Days an audit entry is kept. */
export const AUDIT_RETENTION_DAYS = 365;

/** Who made a change, as the audit log names them. */
export type Actor =
  | { kind: "writer"; email: string }
  | { kind: "token"; id: number; name: string }
  | { kind: "admin" }
  | { kind: "billing" };

/** Appends one entry for `actor`. Never throws into the caller's answer: a failed write is logged. */
export async function recordAudit(db: D1Database, actor: Actor, entry: Omit<AuditEntry, "actorType" | "actor" | "tokenId">, now = new Date()): Promise<void> {
  const who =
    actor.kind === "writer" ? { actorType: "writer" as const, actor: actor.email }
    : actor.kind === "token" ? { actorType: "token" as const, actor: actor.name, tokenId: actor.id }
    : actor.kind === "admin" ? { actorType: "admin" as const, actor: "service admin" }
    : { actorType: "billing" as const, actor: "stripe" };
  try {
    await insertAudit(db, { ...entry, ...who }, now);
  } catch (error) {
    console.error("audit write failed", entry.action, String(error));
  }
}

/** Deletes entries past retention; returns how many went. */
export async function pruneAuditLog(db: D1Database, now = new Date()): Promise<number> {
  return pruneAudit(db, new Date(now.getTime() - AUDIT_RETENTION_DAYS * 86_400_000).toISOString());
}
