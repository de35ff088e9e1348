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
import { SearchIndexBuilder } from "../search/index";
import { blocksLength } from "../search/bytes";
import { DocumentSetWriter, documentParts, documentsOf, eachPartDocument } from "../search/document-set";
import { operationDocument, type ApiSource } from "../search/documents";
import { releaseDocuments, type ContentPageInput } from "../search/documents-content";
import type { SearchDocument } from "../search/types";
import { liveReleaseWithPages } from "../store/content";
import { storedPage } from "../store/content-site";
import { getHeader, readSlicesInOrder } from "../store/models";
import { documentsKey, getDocumentParts, loadIndex, putDocumentParts, putIndex, searchPointer, searchPointerStatement, type SearchPointer, type SearchPointerRow } from "../store/search";
import { semanticFor } from "../semantic/index";
import { PublishAborted, type PublishAttempt } from "./deadline";
import { retireVectors, semanticVectors, type SemanticBuild } from "./search-semantic";

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

/** The built index: the row that makes it live (store/search.ts writes it in the flip's batch), and its size. */
export interface PortalIndex {
  pointer: SearchPointerRow;
  bytes: number;
  /** Semantic retrieval's part (production only): vectors to delete once this index is live, and counts. */
  semantic?: Omit<SemanticBuild, "vectors">;
}

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
async function apiDocumentsFromModel(env: Env, row: LiveApiRow, src: ApiSource): Promise<Uint8Array[]> {
  const { results } = await env.DB.prepare("SELECT chunk, slice_offset AS offset, slice_length AS length FROM operations WHERE version_id = ? ORDER BY position")
    .bind(row.versionId).all<{ chunk: number; offset: number; length: number }>();
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

/** A cached set's parts, else `rebuild()` (then cached). */
async function cachedOr(env: Env, key: string, rebuild: () => Promise<Uint8Array[]>): Promise<Uint8Array[]> {
  const hit = await getDocumentParts(env.MODELS, key);
  if (hit) return hit;
  const parts = await rebuild();
  await putDocumentParts(env.MODELS, key, parts);
  return parts;
}

/**
 * Builds the portal's index as it will be once `change` is live, writes it to KV and returns the row that makes it
 * the live index (written in the batch that flips the version or release). The changed source's documents are cached as a side effect (content-addressed).
 * Throws the attempt's PublishAborted when the deadline passes; other errors are the caller's to decide.
 */
export async function buildPortalIndex(env: Env, portalId: number, change: { api?: ApiChange; content?: ContentChange }, now: string, attempt?: PublishAttempt): Promise<PortalIndex> {
  const content = change.content ? undefined : await liveReleaseWithPages(env.DB, portalId);
  const config = change.content?.config ?? content?.release.config;
  const locale = definitionLocale(config);
  const fresh = [change.api?.documents, change.content?.documents].filter((d): d is SourceDocuments => d !== undefined);
  // Every source's parts in index order (other live APIs by slug, the changed source, the live release), each
  // handed to `use` as soon as it is read, then dropped.
  const eachSource = async (use: (parts: Uint8Array[]) => void) => {
    for (const row of await liveApis(env.DB, portalId)) {
      if (row.api === change.api?.api) continue;
      attempt?.checkpoint("building the search index");
      const src: ApiSource = { api: row.api, version: row.version, layout: row.layout, locale };
      use(await cachedOr(env, await apiDocumentsKey(row.modelKey, src), () => apiDocumentsFromModel(env, row, src)));
    }
    // The changed source's set is cached first, so its parts can be released as the builder reads them (writing it
    // while the index is built held the parts longer: 26 MB for Graph beta; see docs/architecture.md).
    for (const d of fresh) {
      await putDocumentParts(env.MODELS, d.key, d.parts);
      use(d.parts);
    }
    if (content) use(await cachedOr(env, await releaseDocumentsKey(content.release.digest), () => releaseDocumentsFromPages(env, content)));
    attempt?.checkpoint("building the search index");
  };
  // Production: bring the documents' vectors up to date first, so the index lists exactly the stored ones (the
  // embeddings need every document before the build starts).
  const semantic = semanticFor(env);
  let builder: SearchIndexBuilder;
  let vectors: SemanticBuild | undefined;
  if (semantic) {
    const sets: Uint8Array[][] = [];
    await eachSource((parts) => sets.push(parts));
    const docs: SearchDocument[] = sets.flatMap((parts) => [...documentsOf(parts)]);
    vectors = await semanticVectors(env, semantic, portalId, docs, attempt);
    attempt?.checkpoint("building the search index");
    builder = new SearchIndexBuilder({ vectors: vectors.vectors });
    for (const d of docs) builder.add(d);
  } else {
    const streaming = new SearchIndexBuilder();
    await eachSource((parts) => {
      for (let i = 0; i < parts.length; i++) {
        attempt?.checkpoint("building the search index");
        const part = parts[i];
        // Read once: released as soon as its documents are in the builder.
        parts[i] = new Uint8Array(0);
        for (const d of eachPartDocument(part)) streaming.add(d);
      }
    });
    builder = streaming;
  }
  const blocks = builder.finish();
  const bytes = blocksLength(blocks);
  attempt?.checkpoint("storing the search index");
  const at = await putIndex(env.MODELS, blocks);
  const pointer = { portalId, indexKey: at.key, parts: at.parts, documents: builder.added, variables: variableDefaults(config), builtAt: now };
  if (!vectors) return { pointer, bytes };
  const { vectors: _table, ...rest } = vectors;
  return { pointer, bytes, semantic: rest };
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
export async function portalIndex(env: Env, portalId: number, change: { api?: ApiChange; content?: ContentChange }, attempt?: PublishAttempt): Promise<PortalIndex | undefined> {
  try {
    attempt?.checkpoint("building the search index");
    return await buildPortalIndex(env, portalId, change, new Date().toISOString(), attempt);
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
  const pointer = await searchPointer(env.DB, portalId);
  if (pointer && !(await lacksVectors(env, pointer, portalId))) return;
  await rebuildPortalIndex(env, portalId, attempt);
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
export async function rebuildPortalIndex(env: Env, portalId: number, attempt?: PublishAttempt): Promise<void> {
  const built = await portalIndex(env, portalId, {}, attempt);
  if (!built) return;
  await searchPointerStatement(env.DB, built.pointer).run();
  await afterIndexLive(env, portalId, built);
}
