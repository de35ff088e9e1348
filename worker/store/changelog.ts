/** @module Changelog drafts in D1 (schema/changelog.ts): created from diffs, edited, approved or discarded. */
import { and, desc, eq, lte, type SQL } from "drizzle-orm";
import { apis, changelogDrafts } from "../../schema";
import type { Db } from "./db";

export type DraftRow = typeof changelogDrafts.$inferSelect;

/** Inserts a draft unless the pair already has one (any status); returns whether it was inserted. */
export async function insertDraft(db: Db, row: Omit<typeof changelogDrafts.$inferInsert, "id">): Promise<boolean> {
  const inserted = await db.insert(changelogDrafts).values(row).onConflictDoNothing().returning({ id: changelogDrafts.id });
  return inserted.length > 0;
}

/** Version pairs of an API that already have a draft (any status), as `from:to` keys. */
export async function draftedPairs(db: Db, apiId: number): Promise<Set<string>> {
  const rows = await db.select({ from: changelogDrafts.fromVersionId, to: changelogDrafts.toVersionId }).from(changelogDrafts).where(eq(changelogDrafts.apiId, apiId)).all();
  return new Set(rows.map((r) => `${r.from}:${r.to}`));
}

/** An API's drafts, newest first. */
export async function listDrafts(db: Db, apiId: number): Promise<DraftRow[]> {
  return db.select().from(changelogDrafts).where(eq(changelogDrafts.apiId, apiId)).orderBy(desc(changelogDrafts.id)).all();
}

/** One draft of an API. */
export async function findDraft(db: Db, apiId: number, id: number): Promise<DraftRow | undefined> {
  return db.select().from(changelogDrafts).where(and(eq(changelogDrafts.apiId, apiId), eq(changelogDrafts.id, id))).get();
}

/** Edits a draft still awaiting review; returns the row, or undefined when it is not a draft any more. */
export async function editDraft(db: Db, apiId: number, id: number, fields: { title?: string; body?: string }): Promise<DraftRow | undefined> {
  const rows = await db.update(changelogDrafts).set(fields).where(and(eq(changelogDrafts.apiId, apiId), eq(changelogDrafts.id, id), eq(changelogDrafts.status, "draft"))).returning();
  return rows[0];
}

/** Approves or discards a draft awaiting review; returns the row, or undefined when it was already reviewed. */
export async function reviewDraft(db: Db, apiId: number, id: number, status: "approved" | "discarded", now: string): Promise<DraftRow | undefined> {
  const rows = await db.update(changelogDrafts).set({ status, reviewedAt: now }).where(and(eq(changelogDrafts.apiId, apiId), eq(changelogDrafts.id, id), eq(changelogDrafts.status, "draft"))).returning();
  return rows[0];
}

/**
 * The approved entries of one API up to `upToVersionId` (inclusive), newest first, with the API's slug: the history
 * badges of an operation page, without reading (and parsing) the rest of the portal's changelog on every page view.
 */
export async function approvedEntriesOfApi(db: Db, apiId: number, upToVersionId: number): Promise<(DraftRow & { apiSlug: string })[]> {
  return approvedEntriesFromRows(await approvedEntriesOfApiQuery(db, apiId, upToVersionId));
}

/** The query of {@link approvedEntriesOfApi} (`upTo` a version id or an SQL expression of one), for a caller's D1 batch. */
export function approvedEntriesOfApiQuery(db: Db, apiId: number, upTo: number | SQL) {
  return db
    .select({ draft: changelogDrafts, apiSlug: apis.slug })
    .from(changelogDrafts)
    .innerJoin(apis, eq(apis.id, changelogDrafts.apiId))
    .where(and(eq(changelogDrafts.apiId, apiId), eq(changelogDrafts.status, "approved"), lte(changelogDrafts.toVersionId, upTo)))
    .orderBy(desc(changelogDrafts.date), desc(changelogDrafts.id));
}

/** Rows of {@link approvedEntriesOfApiQuery} as entries. */
export function approvedEntriesFromRows(rows: { draft: DraftRow; apiSlug: string }[]): (DraftRow & { apiSlug: string })[] {
  return rows.map((r) => ({ ...r.draft, apiSlug: r.apiSlug }));
}

/** A portal's approved entries with their API's slug, newest first: what readers see beside the content changelog. */
export async function approvedEntries(db: Db, portalId: number): Promise<(DraftRow & { apiSlug: string })[]> {
  const rows = await db
    .select({ draft: changelogDrafts, apiSlug: apis.slug })
    .from(changelogDrafts)
    .innerJoin(apis, eq(apis.id, changelogDrafts.apiId))
    .where(and(eq(changelogDrafts.portalId, portalId), eq(changelogDrafts.status, "approved")))
    .orderBy(desc(changelogDrafts.date), desc(changelogDrafts.id))
    .all();
  return rows.map((r) => ({ ...r.draft, apiSlug: r.apiSlug }));
}
