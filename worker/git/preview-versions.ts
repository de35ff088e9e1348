/**
 * @module The definitions of a Git branch preview (docs/git.md, "Previews"): each API's version of the branch is
 * published with target "preview" (publish-definition.ts: status "preview", never live, never in the live search
 * index) and named in the preview's `git_previews.definitions` JSON. This module reads those ids and drops the
 * versions a preview no longer uses (a newer build, a deleted branch, an expired preview), with their catalog rows
 * and, when no other version anywhere still uses it, their stored model in KV.
 */
import { catalogFor } from "../store/portal-catalog";
import { findPreview } from "../store/git";
import type { Db } from "../store/db";

/** How long a closed pull request's preview stays readable (milliseconds). */
export const CLOSED_PREVIEW_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** A branch preview as reader pages read it. */
export interface ReadablePreview {
  slug: string;
  branch: string;
  definitions: Record<string, PreviewDefinition>;
  /** Its own search index (JSON PreviewSearchPointer, worker/git/preview-search.ts), or null. */
  searchIndex: string | null;
}

/**
 * The preview at URL segment `slug` of a portal, while it is readable (open, or closed less than
 * {@link CLOSED_PREVIEW_TTL_MS} before `now`), else undefined.
 */
export async function readablePreview(db: Db, portalId: number, slug: string, now = new Date()): Promise<ReadablePreview | undefined> {
  const row = await findPreview(db, portalId, slug);
  if (!row) return undefined;
  if (row.closedAt && Date.parse(row.closedAt) + CLOSED_PREVIEW_TTL_MS <= now.getTime()) return undefined;
  return { slug: row.slug, branch: row.branch, definitions: previewDefinitions(row.definitions), searchIndex: row.searchIndex };
}

/** One API of a preview: the version to read (a preview version, or the live one when the branch left it as is). */
export interface PreviewDefinition {
  /** `versions.id`. */
  version: number;
  label: string;
  /** KV key of the version's search documents (store/search.ts), for the preview's own search; absent when unchanged. */
  documents?: string;
}

/** The per-API entries of a `git_previews.definitions` JSON that name a version (entries of checks only are skipped). */
export function previewDefinitions(json: string | null | undefined): Record<string, PreviewDefinition> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json ?? "{}");
  } catch {
    return {};
  }
  const out: Record<string, PreviewDefinition> = {};
  if (!parsed || typeof parsed !== "object") return out;
  for (const [api, value] of Object.entries(parsed as Record<string, unknown>)) {
    const v = value as Partial<PreviewDefinition> | null;
    if (v && typeof v.version === "number" && typeof v.label === "string") out[api] = { version: v.version, label: v.label, ...(typeof v.documents === "string" ? { documents: v.documents } : {}) };
  }
  return out;
}

/** The version ids a `git_previews.definitions` JSON names. */
export function previewVersionIds(json: string | null | undefined): number[] {
  return Object.values(previewDefinitions(json)).map((d) => d.version);
}

/** KV keys deleted per list page (KV lists at most 1,000 keys a call). */
const LIST_LIMIT = 1000;

/**
 * Drops the preview versions among `ids` that are not in `keep`: only rows whose status is "preview" (a preview
 * that pointed at the live version leaves it alone). Each dropped version's catalog rows go, its row is marked
 * "dropped", and its model's KV keys (header first, so the model reads as incomplete) are deleted unless another
 * version of any portal, published, pending or preview, uses the same content-addressed model. Best effort: a
 * failure is logged, never thrown (the preview's pages no longer name these versions).
 */
export async function dropPreviewVersions(env: Env, portalId: number, ids: number[], keep: ReadonlySet<number> = new Set()): Promise<number> {
  let dropped = 0;
  for (const id of ids) {
    if (keep.has(id)) continue;
    try {
      const row = await env.DB.prepare(
        "SELECT v.id, v.model_key AS modelKey FROM versions v JOIN apis a ON a.id = v.api_id WHERE v.id = ? AND a.portal_id = ? AND v.status = 'preview'",
      ).bind(id, portalId).first<{ id: number; modelKey: string }>();
      if (!row) continue;
      await env.DB.prepare("UPDATE versions SET status = 'dropped' WHERE id = ?").bind(id).run();
      await catalogFor(env, portalId).stub.dropVersion(portalId, id);
      const shared = await env.DB.prepare("SELECT 1 FROM versions WHERE model_key = ? AND id != ? AND status IN ('published', 'pending', 'preview') LIMIT 1").bind(row.modelKey, id).first();
      if (!shared) await deleteModel(env.MODELS, row.modelKey);
      dropped++;
    } catch (error) {
      console.error("git preview: dropping a preview version failed", portalId, id, error);
    }
  }
  return dropped;
}

/** Deletes every KV key of one stored model (`{modelKey}/…`), its header first. */
async function deleteModel(kv: KVNamespace, modelKey: string): Promise<void> {
  await kv.delete(`${modelKey}/header`);
  let cursor: string | undefined;
  do {
    const page: KVNamespaceListResult<unknown, string> = await kv.list({ prefix: `${modelKey}/`, limit: LIST_LIMIT, ...(cursor ? { cursor } : {}) });
    await Promise.all(page.keys.map((k) => kv.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
}
