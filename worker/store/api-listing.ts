/** @module The portal's API listing for `GET /v1/apis`: every API with its published labels, in one D1 batch. */
import { asc, desc, eq, and } from "drizzle-orm";
import { apis, versions } from "../../schema";
import type { Db } from "./db";
import type { ApiRow } from "./apis";

/** A published label as the listing shows it: its newest publication. */
export interface ListedVersion {
  id: number;
  label: string;
  sha256: string;
  sourceVersion: string;
  createdAt: string;
  operations: number;
  schemas: number;
  securitySchemes: number;
  webhooks: number;
  callbacks: number;
  lintErrors: number;
  lintWarnings: number;
  /** "complete", or "pending" while a large definition's lint has not stored its report (counts are 0 then). */
  lintStatus: string;
}

/** One API with its labels (newest label first), its live label and how many publications it has had. */
export interface ListedApi {
  api: ApiRow;
  versions: ListedVersion[];
  liveLabel: string | null;
  publications: number;
}

/**
 * Every API of a portal with its published versions: two statements in one D1 batch (one round trip),
 * whatever the number of APIs and versions. Superseded rows of a label count as publications but are not listed.
 */
export async function listApiSummaries(db: Db, portalId: number): Promise<ListedApi[]> {
  const [apiRows, versionRows] = await db.batch([
    db.select().from(apis).where(eq(apis.portalId, portalId)).orderBy(asc(apis.slug)),
    db
      .select({
        apiId: versions.apiId,
        id: versions.id,
        label: versions.label,
        sha256: versions.sha256,
        sourceVersion: versions.sourceVersion,
        createdAt: versions.createdAt,
        operations: versions.operations,
        schemas: versions.schemas,
        securitySchemes: versions.securitySchemes,
        webhooks: versions.webhooks,
        callbacks: versions.callbacks,
        lintErrors: versions.lintErrors,
        lintWarnings: versions.lintWarnings,
        lintStatus: versions.lintStatus,
      })
      .from(versions)
      .innerJoin(apis, eq(apis.id, versions.apiId))
      .where(and(eq(apis.portalId, portalId), eq(versions.status, "published")))
      .orderBy(desc(versions.id)),
  ]);
  const byApi = new Map<number, ListedApi>(apiRows.map((api) => [api.id, { api, versions: [], liveLabel: null, publications: 0 }]));
  const seenLabels = new Map<number, Set<string>>();
  for (const { apiId, ...row } of versionRows) {
    const entry = byApi.get(apiId);
    if (!entry) continue;
    entry.publications++;
    if (row.id === entry.api.liveVersionId) entry.liveLabel = row.label;
    const labels = seenLabels.get(apiId) ?? seenLabels.set(apiId, new Set()).get(apiId)!;
    // Rows come newest first, so the first row of a label is the one its URL serves.
    if (labels.has(row.label)) continue;
    labels.add(row.label);
    entry.versions.push(row);
  }
  return [...byApi.values()];
}
