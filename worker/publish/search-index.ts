/**
 * @module The portal's search index, built by the PortalPublisher whenever a definition or a content release is
 * about to go live (never on the read path). The index covers every live API and the live content release: the
 * source being published hands its documents in from memory (extracted while its slices or pages were
 * serialised); the other sources' documents come from their cached sets in KV (`store/search.ts`), else are
 * rebuilt once from their stored model or pages. The serialised index is written to KV under its content
 * address; the caller adds {@link PortalIndex.pointer} to the batch that flips the version or release, so
 * readers switch to the new index in the same transaction that makes the new content live.
 *
 * Memory (issue 12: a huge definition within a 128 MB isolate): documents travel as UTF-8 JSON parts
 * (search/document-set.ts), never as one list of objects; the index builder reads them one part at a time, source
 * by source, and writes the index as UTF-8 blocks that go to KV without being joined. Only production's semantic
 * side, which embeds the documents before the build, parses every source's documents at once.
 */
import type { ContentConfig, GlossaryTerm } from "../content/types";
import { DocumentSetWriter, documentParts } from "../search/document-set";
import { operationDocument, type ApiSource } from "../search/documents";
import { releaseDocuments, type ContentPageInput } from "../search/documents-content";
import { liveReleaseWithPages, releaseWithPages } from "../store/content";
import { storedPage } from "../store/content-site";
import { getHeader, readSlicesInOrder } from "../store/models";
import { catalogFor } from "../store/portal-catalog";
import { documentsKey, getDocumentParts, loadIndex, searchPointer, searchPointerStatements, type SearchPointer } from "../store/search";
import { semanticFor } from "../semantic/index";
import { PublishAborted, type PublishAttempt } from "./deadline";
import { retireVectors } from "./search-semantic";
import { buildShards, oneSourceShards, type ShardedBuild, type WantedSource } from "./search-shards";

/** Documents of the source being published (from memory, as UTF-8 JSON parts: search/document-set.ts), keyed like the cached sets. */
export interface SourceDocuments {
  key: string;
  parts: Uint8Array[];
}

/** What a definition publish replaces: the API's slug and its new documents. */
export interface ApiChange {
  api: string;
  documents: SourceDocuments;
}

/** What a content publish replaces: the release's documents, config (locales, variables) and id digest. */
export interface ContentChange {
  config: ContentConfig;
  documents: SourceDocuments;
}

/** The built shards: the rows that make them live (written in the flip's batch), bytes written, vectors to retire. */
export type PortalIndex = ShardedBuild;

/** Key of an API's cached document set: its model under its label, layout and locale. */
export function apiDocumentsKey(modelKey: string, src: ApiSource): Promise<string> {
  return documentsKey("api", modelKey, src.api, src.version, src.layout, src.locale);
}

/** Key of a release's cached document set. */
export function releaseDocumentsKey(digest: string): Promise<string> {
  return documentsKey("content", digest);
}

/** The default content locale the portal's definitions are indexed under ("en" without content). */
export function definitionLocale(config: ContentConfig | undefined): string {
  return config?.locales[0] ?? "en";
}

/** Variable defaults of a release (`{{name}}` in snippets when the reader has no value of their own). */
export function variableDefaults(config: ContentConfig | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(config?.variables ?? {}).map(([k, v]) => [k, v.default]));
}

interface LiveApiRow {
  api: string;
  layout: string;
  version: string;
  modelKey: string;
  versionId: number;
}

async function liveApis(db: D1Database, portalId: number): Promise<LiveApiRow[]> {
  const { results } = await db.prepare(
    "SELECT a.slug AS api, a.layout, v.label AS version, v.model_key AS modelKey, v.id AS versionId FROM apis a JOIN versions v ON v.id = a.live_version_id WHERE a.portal_id = ? ORDER BY a.slug",
  ).bind(portalId).all<LiveApiRow>();
  return results;
}

/** An API's documents rebuilt from its stored model (a version published before search, or a new layout). */
async function apiDocumentsFromModel(env: Env, portalId: number, row: LiveApiRow, src: ApiSource): Promise<Uint8Array[]> {
  const results = (await catalogFor(env, portalId).stub.operations(portalId, row.versionId)).map((o) => ({ chunk: o.chunk, offset: o.sliceOffset, length: o.sliceLength }));
  const docs = new DocumentSetWriter();
  // The header's tags give each operation its group's description (documents.ts `context`).
  const tags = (await getHeader(env.MODELS, row.modelKey))?.tags;
  const withTags: ApiSource = tags ? { ...src, tags } : src;
  for await (const slice of readSlicesInOrder(env.MODELS, row.modelKey, results)) docs.add(operationDocument(slice, withTags));
  return docs.finish();
}

/** The live release's documents rebuilt from its stored pages. */
async function releaseDocumentsFromPages(env: Env, pages: Awaited<ReturnType<typeof liveReleaseWithPages>>): Promise<Uint8Array[]> {
  if (!pages) return documentParts([]);
  const inputs: ContentPageInput[] = [];
  for (const meta of pages.pages) {
    const page = await storedPage(env.MODELS, meta.at);
    if (page) inputs.push({ meta, page });
  }
  return documentParts(releaseDocuments(inputs, pages.release.glossary, pages.release.config));
}

/**
 * A set cached by a build before shards (portals moving to shards read them once), else `rebuild()`. Not cached
 * again: a source's shard is kept as long as its document set's key, so the set is not needed twice.
 */
async function cachedOr(env: Env, key: string, rebuild: () => Promise<Uint8Array[]>): Promise<Uint8Array[]> {
  return (await getDocumentParts(env.MODELS, key)) ?? rebuild();
}

/**
 * Brings the portal's search shards to what they will be once `change` is live (issue 37): builds the changed
 * source's shard (and any live source's that is missing or stale), writes them to KV and returns the row changes,
 * written in the batch that flips the version or release. Other sources' shards are neither read nor written.
 * Throws the attempt's PublishAborted when the deadline passes; other errors are the caller's to decide.
 */
export async function buildPortalIndex(env: Env, portalId: number, change: { api?: ApiChange; content?: ContentChange }, now: string, attempt?: PublishAttempt, repair = false): Promise<PortalIndex> {
  const content = change.content ? undefined : await liveRelease(env.DB, portalId);
  const config = change.content?.config ?? content?.config;
  const locale = definitionLocale(config);
  // A definition publish into a portal whose other sources all have their shards touches its own source only: no
  // listing of the portal's APIs or shards (issue 37). (A release can change the locale every API is indexed under,
  // so a content publish goes over every source, rebuilding only those whose document set moved.)
  if (change.api && !change.content && !repair) {
    const known = await oneSourceShards(env.DB, portalId, change.api.api);
    if (known) {
      const own: WantedSource = { source: `api:${change.api.api}`, docsKey: change.api.documents.key, parts: async () => change.api!.documents.parts, fresh: true };
      return buildShards(env, portalId, [own], variableDefaults(config), now, attempt, false, known);
    }
  }
  const wanted: WantedSource[] = [];
  for (const row of await liveApis(env.DB, portalId)) {
    if (row.api === change.api?.api) continue;
    const src: ApiSource = { api: row.api, version: row.version, layout: row.layout, locale };
    wanted.push({ source: `api:${row.api}`, docsKey: await apiDocumentsKey(row.modelKey, src), parts: async () => cachedOr(env, await apiDocumentsKey(row.modelKey, src), () => apiDocumentsFromModel(env, portalId, row, src)), fresh: false });
  }
  if (change.api) wanted.push({ source: `api:${change.api.api}`, docsKey: change.api.documents.key, parts: async () => change.api!.documents.parts, fresh: true });
  if (change.content) wanted.push({ source: "content", docsKey: change.content.documents.key, parts: async () => change.content!.documents.parts, fresh: true });
  else if (content) {
    wanted.push({ source: "content", docsKey: await releaseDocumentsKey(content.digest), parts: async () => cachedOr(env, await releaseDocumentsKey(content.digest), async () => releaseDocumentsFromPages(env, await liveReleaseWithPages(env, portalId))), fresh: false });
  }
  // Shards merge in source order (APIs by slug, then content), whatever order they were published in.
  wanted.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return buildShards(env, portalId, wanted, variableDefaults(config), now, attempt, repair);
}

/** A staged API version of a release (git/sync.ts): what its shard is built from. */
export interface StagedApi {
  api: string;
  versionId: number;
}

/**
 * The portal's shards as they will be once a Git release's staged parts are live (issue 30: search goes live in the
 * same D1 batch as the definitions and the content, not one rebuild later): every live API but the staged ones, the
 * staged versions, and the staged release (else the live one). A staged part's documents are the set its publish
 * cached in KV (publish-definition.ts, publish-content.ts), else rebuilt from its stored model or pages; a source
 * whose shard is current is not rebuilt. The caller writes `pointer` in the flip's batch.
 */
export async function buildReleaseIndex(env: Env, portalId: number, staged: { apis: StagedApi[]; release?: number }, now: string, attempt?: PublishAttempt): Promise<PortalIndex> {
  const release = staged.release !== undefined ? await env.DB.prepare("SELECT digest, config FROM content_releases WHERE id = ? AND portal_id = ?").bind(staged.release, portalId).first<{ digest: string; config: string }>() : undefined;
  const content = release ? { digest: release.digest, config: JSON.parse(release.config) as ContentConfig } : await liveRelease(env.DB, portalId);
  const locale = definitionLocale(content?.config);
  const stagedRows = new Map<string, LiveApiRow>();
  for (const s of staged.apis) {
    const row = await env.DB.prepare("SELECT a.slug AS api, a.layout, v.label AS version, v.model_key AS modelKey, v.id AS versionId FROM versions v JOIN apis a ON a.id = v.api_id WHERE v.id = ? AND a.portal_id = ?")
      .bind(s.versionId, portalId).first<LiveApiRow>();
    if (row) stagedRows.set(row.api, row);
  }
  const rows = [...(await liveApis(env.DB, portalId)).filter((r) => !stagedRows.has(r.api)), ...stagedRows.values()];
  const wanted: WantedSource[] = [];
  for (const row of rows) {
    const src: ApiSource = { api: row.api, version: row.version, layout: row.layout, locale };
    const key = await apiDocumentsKey(row.modelKey, src);
    wanted.push({ source: `api:${row.api}`, docsKey: key, parts: async () => cachedOr(env, key, () => apiDocumentsFromModel(env, portalId, row, src)), fresh: false });
  }
  if (content) {
    const key = await releaseDocumentsKey(content.digest);
    const pages = () => (staged.release !== undefined && release ? releaseWithPages(env, portalId, staged.release) : liveReleaseWithPages(env, portalId));
    wanted.push({ source: "content", docsKey: key, parts: async () => cachedOr(env, key, async () => releaseDocumentsFromPages(env, await pages())), fresh: false });
  }
  wanted.sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
  return buildShards(env, portalId, wanted, variableDefaults(content?.config), now, attempt);
}

/** The live release's digest and config (its pages are read only when its shard must be rebuilt). */
async function liveRelease(db: D1Database, portalId: number): Promise<{ digest: string; config: ContentConfig } | undefined> {
  const row = await db.prepare("SELECT r.digest, r.config FROM content_live l JOIN content_releases r ON r.id = l.release_id WHERE l.portal_id = ?")
    .bind(portalId).first<{ digest: string; config: string }>();
  return row ? { digest: row.digest, config: JSON.parse(row.config) as ContentConfig } : undefined;
}

/**
 * After `built` went live: deletes the vectors the previous index used and this one does not (best effort, logged;
 * a vector left behind maps to no live document, so readers never see it).
 */
export async function afterIndexLive(env: Env, portalId: number, built: PortalIndex | undefined): Promise<void> {
  await retireVectors(semanticFor(env), portalId, built?.semantic?.retire);
}

/** Documents of a compiled release, cached under its digest. */
export async function contentChange(config: ContentConfig, pages: ContentPageInput[], glossary: GlossaryTerm[], digest: string): Promise<ContentChange> {
  return { config, documents: { key: await releaseDocumentsKey(digest), parts: documentParts(releaseDocuments(pages, glossary, config)) } };
}

/**
 * {@link buildPortalIndex}, but search must not cost a publish: should the build fail for any reason but the
 * attempt's deadline, the version or release still goes live and the portal keeps its previous index (logged);
 * the next publish rebuilds it whole.
 */
export async function portalIndex(env: Env, portalId: number, change: { api?: ApiChange; content?: ContentChange }, attempt?: PublishAttempt, repair = false): Promise<PortalIndex | undefined> {
  try {
    attempt?.checkpoint("building the search index");
    return await buildPortalIndex(env, portalId, change, new Date().toISOString(), attempt, repair);
  } catch (error) {
    if (error instanceof PublishAborted || attempt?.aborted) throw error;
    console.error("publish: the search index could not be built; the previous index stays live", error);
    return undefined;
  }
}

/**
 * Builds the portal's index from what is live when it has none (portals published before search existed, or
 * whose last build failed; in production also one with documents lacking vectors): called when an upload answers
 * "unchanged", so re-posting the live definition or bundle (as `npm start` does) makes search work. Nothing flips
 * but the pointer, which then matches what is live.
 */
export async function ensurePortalIndex(env: Env, portalId: number, attempt?: PublishAttempt): Promise<void> {
  // Cheap when every live source has a current shard (D1 rows and key hashes only, nothing built or written): a
  // shard missing after a failed build, an index from before shards, or (production) missing vectors are rebuilt.
  const pointer = await searchPointer(env.DB, portalId);
  await rebuildPortalIndex(env, portalId, attempt, pointer?.stats !== undefined && (await lacksVectors(env, pointer, portalId)));
}

/**
 * Production: whether the live index has documents without a vector (a publish whose embeddings ran out of time or
 * failed, or an index built before semantic retrieval was deployed). Re-posting what is live (a CI retry) then
 * embeds just those. False without a semantic side, or when the index cannot be read.
 */
async function lacksVectors(env: Env, pointer: Pick<SearchPointer, "indexKey" | "parts">, portalId: number): Promise<boolean> {
  if (!semanticFor(env)) return false;
  try {
    return ((await loadIndex(env.MODELS, pointer, portalId))?.missingVectors() ?? 0) > 0;
  } catch {
    return false;
  }
}

/**
 * Rebuilds the portal's index from what is live and makes it the live index (the pointer alone: nothing else
 * changes). For changes that are not publishes but change documents, like an API's layout (its operation URLs).
 */
export async function rebuildPortalIndex(env: Env, portalId: number, attempt?: PublishAttempt, repair = false): Promise<void> {
  const built = await portalIndex(env, portalId, {}, attempt, repair);
  const pointer = await searchPointer(env.DB, portalId);
  if (!built || (pointer?.stats && !built.pointer.shards?.put.length && !built.pointer.shards?.drop.length)) return;
  await env.DB.batch(searchPointerStatements(env.DB, built.pointer));
  await afterIndexLive(env, portalId, built);
}
