/**
 * @module The portal's knowledge for machines, shared by the MCP server (worker/mcp/server.ts) and the Docs API
 * (worker/routes/docs-api.ts): search, pages as Markdown, the API list, one operation as JSON, llms.txt and raw
 * definitions. Thin adapters over the engines the reader pages use (the search route's `searchPortal`, the content
 * Site and stored pages, the reference model's slices, the assistant's `answerTurn`), always for one reader resolved
 * once by `readerState` (session cookie or bearer reader JWT) and filtered by the one `canRead` (through
 * `documentReadable`, `readableApis` and `Site`). Nothing here decides visibility on its own.
 */
import type { Context } from "hono";
import { apiLabels } from "../access/labels";
import { canRead, type ReaderContext } from "../access/reader";
import { readerState, type ReaderState } from "../access/resolve";
import { filterAudiences, renderForReader } from "../content/markers";
import type { PageKind } from "../content/types";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { portalBasePath } from "../render/shell/base-path";
import { operationUrl } from "../render/urls";
import { loadSearchPortal, searchPortal, type SearchParams } from "../routes/search";
import { readableApis, readerSite } from "../routes/shell-chrome";
import { listApiSummaries } from "../store/api-listing";
import { listOperations, sliceLocationOf } from "../store/apis";
import type { PageRow } from "../store/content";
import { loadContentSite, storedPage, type ContentSiteData } from "../store/content-site";
import { getDb } from "../store/db";
import { getSlice } from "../store/models";
import { definitionMediaType, getDefinition } from "../store/definitions";
import { readerLlmsTxt } from "../routes/content-pages";
import { catalogFor } from "../store/portal-catalog";
import { loadReaderHead, loadReaderRest } from "../store/reader";
import { operationJson, operationMarkdown, type OperationJson } from "./operation";
import { sectionMarkdown } from "./section";
import type { SearchResult } from "../render/search-result";
import type { Site } from "../content/site";

/** One portal as one reader sees it: what every tool and Docs API route starts from. */
export interface Knowledge {
  c: Context<AppEnv>;
  data: ContentSiteData;
  state: ReaderState;
  reader: ReaderContext;
  basePath: string;
  /** The portal's public origin (absolute URLs). */
  origin: string;
  site?: Site<PageRow>;
}

/** Opens `slug` for the request's reader; 404 `not-found` for an unknown portal. */
export async function openKnowledge(c: Context<AppEnv>, slug: string): Promise<Knowledge> {
  const data = await loadContentSite(c.env, slug);
  if (!data) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  const state = await readerState(c, data.portal);
  const reader = state.reader(data.release?.config.locales[0] ?? "en");
  const site = readerSite(data, state, reader);
  return { c, data, state, reader, basePath: portalBasePath(data.portal), origin: publicOrigin(c.env, data.portal), ...(site ? { site } : {}) };
}

/** Search results for the reader (the search route's engine and filter), URLs absolute. */
export async function searchDocs(k: Knowledge, p: SearchParams): Promise<{ total: number; results: SearchResult[] }> {
  const row = await loadSearchPortal(k.c, k.data.portal.slug);
  const found = await searchPortal(k.c, row, p, k.state.reader(p.locale ?? k.reader.locale), k.state.access);
  return { total: found.total, results: found.results.map((r) => ({ ...r, url: k.origin + r.url })) };
}

/** An API as `list_apis` and `GET /api/v1/apis` answer it. */
export interface ApiSummary {
  api: string;
  title: string;
  liveVersion: string | null;
  versions: { version: string; operations: number; live: boolean }[];
  url: string;
  /** The resource URI of its raw definition. */
  definition: string;
}

function mayReadApi(k: Knowledge, slug: string): boolean {
  return canRead(k.reader, apiLabels(k.state.access.policy, slug, k.state.access.navigation));
}

/** The APIs the reader may open, with their published versions and operation counts. */
export async function listReadableApis(k: Knowledge): Promise<ApiSummary[]> {
  const all = await listApiSummaries(getDb(k.c.env.DB), k.data.portal.id);
  return all.filter((a) => a.liveLabel !== null && mayReadApi(k, a.api.slug)).map((a) => ({
    api: a.api.slug, title: a.api.title, liveVersion: a.liveLabel,
    versions: a.versions.map((v) => ({ version: v.label, operations: v.operations, live: v.label === a.liveLabel })),
    url: `${k.origin}${k.basePath}/reference/${encodeURIComponent(a.api.slug)}/`,
    definition: definitionUri(k.data.portal.slug, a.api.slug),
  }));
}

/** `portico://{portal}/apis/{api}/openapi.json`, the MCP resource of an API's definition. */
export function definitionUri(portal: string, api: string): string {
  return `portico://${portal}/apis/${encodeURIComponent(api)}/openapi.json`;
}

/** Entries `get_page` gives for the changelog page as a whole (newest first). */
export const MAX_CHANGELOG_ENTRIES = 20;

const notFound = (what: string) => new ApiError(404, "not-found", what);

/**
 * One operation as structured JSON: `operationId` (or the operation's URL slug) in the API's live version or
 * `version`. An API the reader may not open answers exactly as one that does not exist.
 */
export async function getOperation(k: Knowledge, api: string, operationId: string, version?: string): Promise<OperationJson> {
  if (!mayReadApi(k, api)) throw notFound(`no API "${api}" in this portal`);
  const db = getDb(k.c.env.DB);
  const head = await loadReaderHead(db, k.data.portal.slug, api);
  if (!head.api || head.api.liveVersionId === null) throw notFound(`no API "${api}" in this portal`);
  const rest = await loadReaderRest(db, k.c.env, { portal: head.portal, api: head.api }, version?.normalize("NFC"));
  const catalog = catalogFor(k.c.env, head.portal.id).stub;
  const row = (await catalog.operationById(head.portal.id, rest.version.id, operationId)) ?? (await catalog.operation(head.portal.id, rest.version.id, operationId));
  if (!row) throw notFound(`no operation "${operationId}" in ${api} ${rest.version.label}`);
  const slice = await getSlice(k.c.env.MODELS, rest.version.modelKey, sliceLocationOf(row));
  if (!slice) throw notFound("this operation's model is not available");
  const url = k.origin + operationUrl(k.basePath, { slug: head.api.slug, title: head.api.title, layout: head.api.layout === "single-page" ? "single-page" : "page-per-operation" }, rest.version.label, row.slug);
  return operationJson(slice, { api: head.api.slug, version: rest.version.label, url });
}

/** A page for machines: its title, kind, URL and Markdown. */
export interface PageMarkdown {
  kind: "guide" | "step" | "changelog" | "operation" | "reference";
  title: string;
  url: string;
  markdown: string;
  locale?: string;
  /** The section's heading when the URL named one (`#anchor`): `markdown` is then the page title and that section. */
  section?: string;
}

/** The fragment of `url` (decoded), or undefined without one. */
function fragmentOf(k: Knowledge, url: string): string | undefined {
  let hash: string;
  try {
    hash = new URL(url, k.origin).hash.slice(1);
  } catch {
    return undefined;
  }
  if (!hash) return undefined;
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash;
  }
}

/** The reader path of `url` inside this portal (absolute on its origin, or a path), else undefined. */
function portalPathOf(k: Knowledge, url: string): string | undefined {
  let path: string;
  try {
    const u = new URL(url, k.origin);
    if (u.origin !== new URL(k.origin).origin && !url.startsWith("/")) return undefined;
    path = u.pathname;
  } catch {
    return undefined;
  }
  if (k.basePath && !path.startsWith(`${k.basePath}/`) && path !== k.basePath) return undefined;
  return path.slice(k.basePath.length) || "/";
}

/**
 * The page at `url` (a guide, code walkthrough, API reference or operation of this portal) as Markdown for the
 * reader; 404 `not-found` for anything else, or anything the reader may not open (never told apart).
 */
export async function getPage(k: Knowledge, url: string): Promise<PageMarkdown> {
  const path = portalPathOf(k, url);
  if (!path) throw notFound("not a page of this portal");
  const seg = path.split("/").filter(Boolean).map((s) => { try { return decodeURIComponent(s); } catch { return s; } });
  if (seg[0] === "reference" && seg[1]) {
    const api = seg[1];
    if (seg.length >= 4) {
      const o = await getOperation(k, api, seg[3]!, seg[2]);
      return { kind: "operation", title: o.summary ?? `${o.method} ${o.path}`, url: o.url, markdown: operationMarkdown(o) };
    }
    const listed = (await listReadableApis(k)).find((a) => a.api === api);
    if (!listed) throw notFound(`no API "${api}" in this portal`);
    const head = await loadReaderHead(getDb(k.c.env.DB), k.data.portal.slug, api);
    const rest = await loadReaderRest(getDb(k.c.env.DB), k.c.env, { portal: head.portal, api: head.api! }, seg[2]?.normalize("NFC"));
    const rows = await listOperations(catalogFor(k.c.env, head.portal.id), rest.version.id);
    const lines = rows.map((r) => `- \`${r.method.toUpperCase()} ${r.path}\` ${r.summary ?? ""} (operationId: \`${r.operationId ?? r.slug}\`)`);
    return { kind: "reference", title: `${listed.title} ${rest.version.label}`, url: listed.url, markdown: `# ${listed.title} ${rest.version.label}\n\n${rows.length} operations.\n\n${lines.join("\n")}\n` };
  }
  const site = k.site;
  const locales = site?.config.locales ?? [];
  const [locale, rest] = seg[0] && locales.includes(seg[0]) ? [seg[0], seg.slice(1)] : [site?.defaultLocale ?? "en", seg];
  if (site && (rest[0] === "guides" || rest[0] === "steps") && rest[1]) {
    const kind: PageKind = rest[0] === "guides" ? "guide" : "step";
    const slug = rest.slice(1).join("/");
    const found = site.find(kind, slug, locale);
    const stored = found && (await storedPage(k.c.env.MODELS, found.page.at));
    if (!found || !stored) throw notFound(`no page "${slug}"`);
    const defaults = Object.fromEntries(Object.entries(site.config.variables).map(([name, v]) => [name, v.default]));
    const body = renderForReader(filterAudiences(stored.text, k.reader), k.reader, { basePath: k.basePath, defaults, html: false });
    const pageUrl = `${k.origin}${k.basePath}${site.path(kind, found.page.slug, found.page.locale)}`;
    const anchor = fragmentOf(k, url);
    if (anchor) {
      // A section the reader may not open answers as one that does not exist.
      const section = sectionMarkdown(body, stored.toc.filter((t) => canRead(k.reader, t.labels)), anchor);
      if (section === undefined) throw notFound(`no section "${anchor}" in "${slug}"`);
      const heading = section.split("\n", 1)[0]!.replace(/^ {0,3}#{2,4}[ \t]+/, "").replace(/[ \t]+#+[ \t]*$/, "");
      return { kind, title: found.page.title, section: heading, url: `${pageUrl}#${encodeURIComponent(anchor)}`, markdown: `# ${found.page.title}\n\n${section}\n`, locale: found.page.locale };
    }
    return { kind, title: found.page.title, url: pageUrl, markdown: `# ${found.page.title}\n\n${body}`, locale: found.page.locale };
  }
  if (site && rest[0] === "changelog" && rest.length === 1) {
    // An entry is `/changelog#{slug}` (search results link there); the page alone is its newest entries.
    const hash = fragmentOf(k, url) ?? "";
    const entries = site.changelog({}, locale);
    const chosen = hash ? entries.filter((e) => e.slug === hash) : entries.slice(0, MAX_CHANGELOG_ENTRIES);
    if (chosen.length === 0) throw notFound(`no changelog entry "${hash}"`);
    const defaults = Object.fromEntries(Object.entries(site.config.variables).map(([name, v]) => [name, v.default]));
    const stored = await Promise.all(chosen.map((e) => storedPage(k.c.env.MODELS, e.at)));
    const parts = chosen.map((e, i) => {
      const c = e.changelog!;
      const body = stored[i] ? renderForReader(filterAudiences(stored[i]!.text, k.reader), k.reader, { basePath: k.basePath, defaults, html: false }) : "";
      return `## ${e.title}\n\n${c.type} · ${c.version} · ${c.date}${c.api ? ` · ${c.api}` : ""}\n\n${body}`;
    });
    const only = hash ? chosen[0]! : undefined;
    return { kind: "changelog", title: only ? only.title : "Changelog", url: `${k.origin}${k.basePath}/changelog${only ? `#${encodeURIComponent(only.slug)}` : ""}`, markdown: `# ${only ? only.title : "Changelog"}\n\n${parts.join("\n\n")}\n`, locale };
  }
  throw notFound("not a page of this portal (guides, steps, changelog entries and API reference pages are served as Markdown)");
}

/** The reader's llms.txt (the same text `/p/{portal}/llms.txt` answers them); 404 before the first content release. */
export function llmsTxtFor(k: Knowledge): string {
  if (!k.site) throw notFound("this portal has published no guides yet, so it has no llms.txt");
  return readerLlmsTxt({ site: k.site, origin: k.origin, basePath: k.basePath, data: k.data });
}

/** The raw definition of an API's live version (as uploaded) for a reader allowed to read the API. */
export async function rawDefinition(k: Knowledge, api: string): Promise<{ text: string; mediaType: string }> {
  if (!mayReadApi(k, api)) throw notFound(`no API "${api}" in this portal`);
  const db = getDb(k.c.env.DB);
  const head = await loadReaderHead(db, k.data.portal.slug, api);
  if (!head.api || head.api.liveVersionId === null) throw notFound(`no API "${api}" in this portal`);
  const rest = await loadReaderRest(db, k.c.env, { portal: head.portal, api: head.api });
  const found = await getDefinition(k.c.env.DEFINITIONS, rest.version.sha256);
  if (!found) throw notFound("this version's definition is not available");
  return { text: new TextDecoder().decode(found.body), mediaType: definitionMediaType(found.body) };
}

/** Readable live APIs of the content site (their slugs), for resources. */
export function readableSiteApis(k: Knowledge): ContentSiteData["apis"] {
  return readableApis(k.state, k.reader, k.data.apis);
}
