/**
 * @module A Git branch preview's own search index (docs/git.md, "Previews"): the branch's definitions (their preview
 * versions, or the live one a branch left as is) and the branch's content release, built once per preview build by
 * the PortalPublisher and stored in KV under its content address; `git_previews.search_index` names it. Never part
 * of the portal's live index (publish/search-index.ts), so live search, the sitemap and llms.txt never see it.
 * Document URLs are relative, so results stay under the preview's base path.
 */
import { documentParts, DocumentSetWriter } from "../search/document-set";
import { operationDocument, type ApiSource } from "../search/documents";
import { releaseDocuments, type ContentPageInput } from "../search/documents-content";
import { addStats, emptyStats, type ShardStats } from "../search/shard-build";
import type { ContentConfig, GlossaryTerm } from "../content/types";
import { storedPage } from "../store/content-site";
import type { PageRow } from "../store/content";
import { getHeader, readSlicesInOrder } from "../store/models";
import { catalogFor } from "../store/portal-catalog";
import { getDocumentParts } from "../store/search";
import { shardRows, type ShardRow } from "../store/search-shards";
import { apiDocumentsKey, releaseDocumentsKey } from "../publish/search-index";
import { lexicalShardBuilder, storeShard } from "../publish/search-shards";
import type { PreviewDefinition } from "./preview-versions";

/**
 * Where a preview's index is (`git_previews.search_index` JSON). Sharded (`stats` and `shards`; `indexKey` is
 * "shards"), or, for previews built before shards, one index at `indexKey`.
 */
export interface PreviewSearchPointer {
  indexKey: string;
  parts: number;
  documents: number;
  /** Variable defaults of the preview's content (`{{name}}` in snippets). */
  variables: Record<string, string>;
  stats?: ShardStats;
  shards?: ShardRow[];
}

/** The preview's content release as the index reads it. */
export interface PreviewRelease {
  digest: string;
  config: ContentConfig;
  glossary: GlossaryTerm[];
  pages: PageRow[];
}

/** What a build did, for the job's result and the benchmark: shards built and reused, bytes written. */
export interface PreviewSearchBuild {
  pointer: PreviewSearchPointer;
  built: string[];
  reused: string[];
  bytes: number;
}

interface Source {
  source: string;
  docsKey: string;
  parts: () => Promise<Uint8Array[]>;
}

/** One API version's source: its cached document set (publish-definition.ts keeps a preview's), else from its stored model. */
async function apiSource(env: Env, portalId: number, api: string, def: PreviewDefinition, locale: string): Promise<Source | undefined> {
  const row = await env.DB.prepare("SELECT v.model_key AS modelKey, v.label, a.layout FROM versions v JOIN apis a ON a.id = v.api_id WHERE v.id = ? AND a.portal_id = ?")
    .bind(def.version, portalId).first<{ modelKey: string; label: string; layout: string }>();
  if (!row) return undefined;
  const src: ApiSource = { api, version: row.label, layout: row.layout ?? "page-per-operation", locale };
  const docsKey = await apiDocumentsKey(row.modelKey, src);
  return {
    source: `api:${api}`, docsKey,
    parts: async () => {
      const cached = (await getDocumentParts(env.MODELS, docsKey)) ?? (def.documents ? await getDocumentParts(env.MODELS, def.documents) : undefined);
      if (cached) return cached;
      const ops = await catalogFor(env, portalId).stub.operations(portalId, def.version);
      const tags = (await getHeader(env.MODELS, row.modelKey))?.tags;
      const docs = new DocumentSetWriter();
      const withTags: ApiSource = tags ? { ...src, tags } : src;
      for await (const slice of readSlicesInOrder(env.MODELS, row.modelKey, ops.map((o) => ({ chunk: o.chunk, offset: o.sliceOffset, length: o.sliceLength })))) docs.add(operationDocument(slice, withTags));
      return docs.finish();
    },
  };
}

/**
 * Builds and stores the preview's shards; undefined when it has nothing to index. A source whose document set has a
 * shard already (the branch's previous build's, `previous`, or the live portal's) reuses it; the others are built
 * one at a time (memory: one source's documents at once).
 */
export async function buildPreviewSearch(env: Env, portalId: number, definitions: Record<string, PreviewDefinition>, release: PreviewRelease | undefined, previous?: PreviewSearchPointer): Promise<PreviewSearchBuild | undefined> {
  const locale = release?.config.locales[0] ?? "en";
  const sources: Source[] = [];
  for (const [api, def] of Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const s = await apiSource(env, portalId, api, def, locale);
    if (s) sources.push(s);
  }
  if (release?.pages.length) {
    sources.push({
      source: "content", docsKey: await releaseDocumentsKey(release.digest),
      parts: async () => {
        const inputs: ContentPageInput[] = [];
        for (const meta of release.pages) {
          const page = await storedPage(env.MODELS, meta.at);
          if (page) inputs.push({ meta, page });
        }
        return documentParts(releaseDocuments(inputs, release.glossary, release.config));
      },
    });
  }
  if (!sources.length) return undefined;
  const known = new Map<string, ShardRow>();
  for (const r of [...(await shardRows(env.DB, portalId)), ...(previous?.shards ?? [])]) known.set(`${r.source}|${r.docsKey}`, r);
  const rows: ShardRow[] = [];
  const built: string[] = [];
  const reused: string[] = [];
  let bytes = 0;
  let stats = emptyStats();
  for (const s of sources) {
    let row = known.get(`${s.source}|${s.docsKey}`);
    if (row) reused.push(s.source);
    else {
      // Built and stored as the live shards are (publish/search-shards.ts).
      const made = await storeShard(env, lexicalShardBuilder(await s.parts()), s);
      row = made.row;
      bytes += made.bytes;
      built.push(s.source);
    }
    rows.push(row);
    stats = addStats(stats, row.stats);
  }
  const documents = rows.reduce((n, r) => n + r.documents, 0);
  if (!documents) return undefined;
  const variables = Object.fromEntries(Object.entries(release?.config.variables ?? {}).map(([k, v]) => [k, v.default]));
  return { pointer: { indexKey: "shards", parts: 0, documents, variables, stats, shards: rows }, built, reused, bytes };
}
