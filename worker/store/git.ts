/**
 * @module D1 access for Git sync: connections (one per portal), deliveries (idempotency by delivery id), branch
 * previews (schema/git.ts).
 */
import { and, eq, sql } from "drizzle-orm";
import { gitConnections, gitDeliveries, gitPreviews } from "../../schema/git";
import type { CheckId, GitConnection, GitPaths, GitProvider, PreviewMode } from "../git/config";
import type { Db } from "./db";

/** A stored connection with its portal. */
export interface StoredConnection extends GitConnection {
  portalId: number;
  createdAt: string;
  updatedAt: string;
}

function connectionOf(row: typeof gitConnections.$inferSelect): StoredConnection {
  return {
    portalId: row.portalId,
    provider: row.provider as GitProvider,
    apiUrl: row.apiUrl,
    repository: row.repository,
    installationId: row.installationId,
    productionBranch: row.productionBranch,
    paths: JSON.parse(row.paths) as GitPaths,
    previews: row.previews as PreviewMode,
    releases: row.releases,
    blocking: JSON.parse(row.blocking) as CheckId[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Creates or replaces the portal's connection. */
export async function saveConnection(db: Db, portalId: number, c: GitConnection): Promise<StoredConnection> {
  const now = new Date().toISOString();
  const values = {
    provider: c.provider, apiUrl: c.apiUrl, repository: c.repository.toLowerCase(), installationId: c.installationId, productionBranch: c.productionBranch,
    paths: JSON.stringify(c.paths), previews: c.previews, releases: c.releases, blocking: JSON.stringify(c.blocking), updatedAt: now,
  };
  const [row] = await db.insert(gitConnections).values({ portalId, createdAt: now, ...values }).onConflictDoUpdate({ target: gitConnections.portalId, set: values }).returning();
  return connectionOf(row);
}

export async function findConnection(db: Db, portalId: number): Promise<StoredConnection | undefined> {
  const row = await db.select().from(gitConnections).where(eq(gitConnections.portalId, portalId)).get();
  return row ? connectionOf(row) : undefined;
}

/** Every portal connected to `repository` (`owner/name`, any case) through `provider`. */
export async function connectionsFor(db: Db, provider: GitProvider, repository: string): Promise<StoredConnection[]> {
  const rows = await db.select().from(gitConnections).where(and(eq(gitConnections.provider, provider), eq(gitConnections.repository, repository.toLowerCase()))).all();
  return rows.map(connectionOf);
}

/** Disconnects: the connection goes; previews stay readable until they expire (their releases are the portal's). */
export async function deleteConnection(db: Db, portalId: number): Promise<boolean> {
  const gone = await db.delete(gitConnections).where(eq(gitConnections.portalId, portalId)).returning({ portalId: gitConnections.portalId });
  return gone.length > 0;
}

/**
 * Records a delivery for a portal, once: false when that delivery id was already recorded for it (a redelivery).
 */
export async function claimDelivery(db: Db, provider: GitProvider | "upload", deliveryId: string, event: string, portalId: number | null): Promise<boolean> {
  const inserted = await db
    .insert(gitDeliveries)
    .values({ provider, deliveryId, event, portalId, status: portalId === null ? "ignored" : "queued", receivedAt: new Date().toISOString() })
    .onConflictDoNothing()
    .returning({ id: gitDeliveries.id });
  return inserted.length > 0;
}

/** Stores what a delivery's work did. */
export async function finishDelivery(db: Db, provider: GitProvider | "upload", deliveryId: string, portalId: number, status: "done" | "failed" | "ignored", result: unknown): Promise<void> {
  await db
    .update(gitDeliveries)
    .set({ status, result: JSON.stringify(result), finishedAt: new Date().toISOString() })
    .where(and(eq(gitDeliveries.provider, provider), eq(gitDeliveries.deliveryId, deliveryId), eq(gitDeliveries.portalId, portalId)));
}

/** One delivery of a portal (its status and the result its job recorded), or undefined. */
export async function findDelivery(db: Db, portalId: number, deliveryId: string) {
  const r = await db.select().from(gitDeliveries).where(and(eq(gitDeliveries.portalId, portalId), eq(gitDeliveries.deliveryId, deliveryId))).get();
  return r ? { deliveryId: r.deliveryId, event: r.event, status: r.status, result: r.result ? (JSON.parse(r.result) as Record<string, unknown>) : null, receivedAt: r.receivedAt, finishedAt: r.finishedAt } : undefined;
}

/** The deliveries a portal received, newest first (at most `limit`). */
export async function recentDeliveries(db: Db, portalId: number, limit = 20) {
  const rows = await db.select().from(gitDeliveries).where(eq(gitDeliveries.portalId, portalId)).orderBy(sql`${gitDeliveries.id} desc`).limit(limit).all();
  return rows.map((r) => ({ deliveryId: r.deliveryId, event: r.event, status: r.status, result: r.result ? (JSON.parse(r.result) as unknown) : null, receivedAt: r.receivedAt, finishedAt: r.finishedAt }));
}

export type PreviewRow = typeof gitPreviews.$inferSelect;

/** The portal's preview of a branch slug, if any. */
export async function findPreview(db: Db, portalId: number, slug: string): Promise<PreviewRow | undefined> {
  return db.select().from(gitPreviews).where(and(eq(gitPreviews.portalId, portalId), eq(gitPreviews.slug, slug))).get();
}

/** The preview of a branch (by its name, not its slug), or undefined. */
export async function findPreviewOfBranch(db: Db, portalId: number, branch: string): Promise<PreviewRow | undefined> {
  return db.select().from(gitPreviews).where(and(eq(gitPreviews.portalId, portalId), eq(gitPreviews.branch, branch))).get();
}

/** Every preview of a portal. */
export async function listPreviews(db: Db, portalId: number): Promise<PreviewRow[]> {
  return db.select().from(gitPreviews).where(eq(gitPreviews.portalId, portalId)).all();
}

/** Deletes a preview's row (its versions and content release are dropped by the caller). */
export async function deletePreview(db: Db, id: number): Promise<void> {
  await db.delete(gitPreviews).where(eq(gitPreviews.id, id));
}

/** Creates or moves a branch's preview to a new build. */
export async function savePreview(db: Db, row: Omit<PreviewRow, "id" | "commentId" | "closedAt" | "searchIndex">): Promise<PreviewRow> {
  const { portalId, slug, ...rest } = row;
  const [saved] = await db.insert(gitPreviews).values({ portalId, slug, ...rest }).onConflictDoUpdate({ target: [gitPreviews.portalId, gitPreviews.slug], set: { ...rest, closedAt: null } }).returning();
  return saved;
}

/** Stores a preview's per-API summary and versions (JSON, worker/git/preview-versions.ts). */
export async function setPreviewDefinitions(db: Db, portalId: number, slug: string, definitions: string): Promise<void> {
  await db.update(gitPreviews).set({ definitions }).where(and(eq(gitPreviews.portalId, portalId), eq(gitPreviews.slug, slug)));
}

/** Names the preview's own search index (JSON PreviewSearchPointer, or null for none). */
export async function setPreviewSearch(db: Db, portalId: number, slug: string, pointer: string | null): Promise<void> {
  await db.update(gitPreviews).set({ searchIndex: pointer }).where(and(eq(gitPreviews.portalId, portalId), eq(gitPreviews.slug, slug)));
}

export async function setPreviewComment(db: Db, id: number, commentId: string): Promise<void> {
  await db.update(gitPreviews).set({ commentId }).where(eq(gitPreviews.id, id));
}

export async function closePreview(db: Db, portalId: number, slug: string, at: string): Promise<void> {
  await db.update(gitPreviews).set({ closedAt: at }).where(and(eq(gitPreviews.portalId, portalId), eq(gitPreviews.slug, slug)));
}
