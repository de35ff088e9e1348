/**
 * @module Drafting (issue 11): every published version with an earlier one gets a draft changelog entry, written
 * by the embedded writer from the diff and checked against it (a draft citing a change the diff lacks is never
 * stored). Drafts are made when writers list them (`ensureDrafts`), a few pairs per call, rather than inside the
 * publish: the diff builds the previous version too, which the publisher's memory and deadline cannot spare for
 * large definitions.
 */

import { portalBasePath, type PortalAddress } from "../render/shell/base-path";
import type { DiffResult } from "../openapi/diff";
import { checkDraft, embeddedChangelogWriter, type ChangelogWriter, type ChangelogWriterInput } from "./changelog-writer";
import { ApiError } from "../http/errors";
import { versionChanges, type ChangesEnv } from "./changes";
import { operationUrl } from "../render/urls";
import { listOperations, publishedVersionsQuery, type ApiRow } from "../store/apis";
import { draftedPairs, insertDraft } from "../store/changelog";
import type { Db } from "../store/db";
import { catalogFor, type Catalog, type CatalogEnv } from "../store/portal-catalog";

/**
 * What a writer drafts from: the API, both labels, the revision's date, the diff, and absolute links to the
 * revision's operation pages (by `METHOD path`; callbacks have no page of their own).
 */
export async function writerInput(catalog: Catalog, portal: PortalAddress, api: ApiRow, origin: string, from: { label: string }, to: { id: number; label: string; createdAt: string }, result: DiffResult): Promise<ChangelogWriterInput> {
  const operations = await listOperations(catalog, to.id);
  const slugs = new Map(operations.filter((o) => o.kind !== "callback").map((o) => [`${o.method.toUpperCase()} ${o.path}`, o.slug]));
  const ref = { slug: api.slug, title: api.title, layout: api.layout as "page-per-operation" | "single-page" };
  return {
    api: { slug: api.slug, title: api.title },
    from: from.label,
    to: to.label,
    date: to.createdAt.slice(0, 10),
    result,
    operationUrl: (method, path) => {
      const slug = slugs.get(`${method} ${path}`);
      return slug === undefined ? undefined : origin + operationUrl(portalBasePath(portal), ref, to.label, slug);
    },
  };
}

/** Pairs drafted per call at most (each costs two builds and a diff the first time). */
export const DRAFTS_PER_CALL = 3;

/**
 * Drafts the newest version pairs of `api` that have none yet (each published label after the one published
 * before it), at most `max`; returns how many were created. `origin` makes operation links absolute.
 */
export async function ensureDrafts(env: ChangesEnv & CatalogEnv, db: Db, portal: { id: number } & PortalAddress, api: ApiRow, origin: string, now: string, writer: ChangelogWriter = embeddedChangelogWriter, max = DRAFTS_PER_CALL): Promise<number> {
  const published = await publishedVersionsQuery(db, api.id).all(); // newest first
  const done = await draftedPairs(db, api.id);
  let created = 0;
  for (let i = 0; i + 1 < published.length && created < max; i++) {
    const to = published[i];
    const from = published[i + 1];
    if (done.has(`${from.id}:${to.id}`)) continue;
    let result: Awaited<ReturnType<typeof versionChanges>>["result"];
    try {
      ({ result } = await versionChanges(env, db, api, from.label, to.label));
    } catch (error) {
      // A version built streamed (past 25 MiB, issue 12) is not diffed: its pair gets no draft, the others still do.
      if (error instanceof ApiError && error.code === "too-large-to-diff") continue;
      throw error;
    }
    const draft = await writer.write(await writerInput(catalogFor(env, portal.id), portal, api, origin, from, to, result));
    if (checkDraft(draft, result).length) continue; // never store a draft that states what the diff does not
    const inserted = await insertDraft(db, {
      portalId: portal.id,
      apiId: api.id,
      fromVersionId: from.id,
      toVersionId: to.id,
      type: draft.type,
      version: draft.version,
      date: draft.date,
      title: draft.title,
      body: draft.body,
      bullets: JSON.stringify(draft.bullets),
      status: "draft",
      createdAt: now,
    });
    if (inserted) created++;
  }
  return created;
}
