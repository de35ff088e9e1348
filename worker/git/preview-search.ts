/**
 * @module A Git branch preview's own search index (docs/git.md, "Previews"): the branch's definitions (their preview
 * versions, or the live one a branch left as is) and the branch's content release, built once per preview build by
 * the PortalPublisher and stored in KV under its content address; `git_previews.search_index` names it. Never part
 * of the portal's live index (publish/search-index.ts), so live search, the sitemap and llms.txt never see it.
 * Document URLs are relative, so results stay under the preview's base path.
 */
import { buildSearchIndex } from "../search/build";
import { documentsOf } from "../search/document-set";
import { operationDocument } from "../search/documents";
import { releaseDocuments, type ContentPageInput } from "../search/documents-content";
import type { SearchDocument } from "../search/types";
import type { ContentConfig, GlossaryTerm } from "../content/types";
import { storedPage } from "../store/content-site";
import type { PageRow } from "../store/content";
import { getHeader, readSlicesInOrder } from "../store/models";
import { catalogFor } from "../store/portal-catalog";
import { getDocumentParts, putIndex } from "../store/search";
import type { PreviewDefinition } from "./preview-versions";

/** Where a preview's index is (`git_previews.search_index` JSON). */
export interface PreviewSearchPointer {
  indexKey: string;
  parts: number;
  documents: number;
  /** Variable defaults of the preview's content (`{{name}}` in snippets). */
  variables: Record<string, string>;
}

/** The preview's content release as the index reads it. */
export interface PreviewRelease {
  config: ContentConfig;
  glossary: GlossaryTerm[];
  pages: PageRow[];
}

/** The documents of one API's version: its cached set (publish-definition.ts keeps a preview's), else from its stored model. */
async function apiDocuments(env: Env, portalId: number, api: string, def: PreviewDefinition, layout: string, locale: string): Promise<SearchDocument[]> {
  const cached = def.documents ? await getDocumentParts(env.MODELS, def.documents) : undefined;
  if (cached) return [...documentsOf(cached)];
  const row = await env.DB.prepare("SELECT model_key AS modelKey FROM versions WHERE id = ?").bind(def.version).first<{ modelKey: string }>();
  if (!row) return [];
  const ops = await catalogFor(env, portalId).stub.operations(portalId, def.version);
  const tags = (await getHeader(env.MODELS, row.modelKey))?.tags;
  const docs: SearchDocument[] = [];
  const src = { api, version: def.label, layout, locale, ...(tags ? { tags } : {}) };
  for await (const slice of readSlicesInOrder(env.MODELS, row.modelKey, ops.map((o) => ({ chunk: o.chunk, offset: o.sliceOffset, length: o.sliceLength })))) docs.push(operationDocument(slice, src));
  return docs;
}

/**
 * Builds and stores the preview's index; undefined when it has nothing to index. Memory: the documents of the
 * branch's definitions and content at once (a preview is one branch's, not a portal's history).
 */
export async function buildPreviewSearch(env: Env, portalId: number, definitions: Record<string, PreviewDefinition>, release: PreviewRelease | undefined): Promise<PreviewSearchPointer | undefined> {
  const locale = release?.config.locales[0] ?? "en";
  const docs: SearchDocument[] = [];
  for (const [api, def] of Object.entries(definitions)) {
    const layout = (await env.DB.prepare("SELECT layout FROM apis WHERE portal_id = ? AND slug = ?").bind(portalId, api).first<{ layout: string }>())?.layout ?? "page-per-operation";
    docs.push(...(await apiDocuments(env, portalId, api, def, layout, locale)));
  }
  if (release) {
    const inputs: ContentPageInput[] = [];
    for (const meta of release.pages) {
      const page = await storedPage(env.MODELS, meta.at);
      if (page) inputs.push({ meta, page });
    }
    docs.push(...releaseDocuments(inputs, release.glossary, release.config));
  }
  if (!docs.length) return undefined;
  const { key, parts } = await putIndex(env.MODELS, buildSearchIndex(docs));
  const variables = Object.fromEntries(Object.entries(release?.config.variables ?? {}).map(([k, v]) => [k, v.default]));
  return { indexKey: key, parts, documents: docs.length, variables };
}
