/** @module The live operations a guide links to, as its "In the API reference" list shows them (one D1 query, one catalog call). */
import { liveOperationsOf, type CatalogEnv } from "./portal-catalog";

/** One operation a page links to, in the API's live version. */
export interface LinkedOperation {
  api: string;
  slug: string;
  method: string;
  path: string;
  summary: string | null;
}

/** At most this many of a page's operation links are looked up (the list is a pointer, not an index). */
export const MAX_LINKED_OPERATIONS = 20;

/**
 * Live operations of portal `portalId` named by `keys` (`api slug#operation slug`, as pages record them), in the
 * order of `keys`; keys whose API or operation is not live are left out.
 */
export async function liveOperationsByKey(env: CatalogEnv & { DB: D1Database }, portalId: number, keys: string[]): Promise<LinkedOperation[]> {
  const wanted = [...new Set(keys)].slice(0, MAX_LINKED_OPERATIONS);
  if (wanted.length === 0) return [];
  const slugs = [...new Set(wanted.map((k) => k.slice(k.indexOf("#") + 1)))];
  const results = await liveOperationsOf(env, portalId, { slugs });
  const byKey = new Map(results.map((r) => [`${r.api}#${r.slug}`, { api: r.api, slug: r.slug, method: r.method, path: r.path, summary: r.summary }]));
  return wanted.flatMap((k) => byKey.get(k) ?? []);
}
