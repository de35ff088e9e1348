/**
 * @module Reader pages of the portal's written content (server-rendered, readable without script): guides and
 * code steps (`/p/{portal}[/{locale}]/guides|steps/{slug}`), the home's first guide, changelog and its RSS,
 * tag pages, glossary, llms.txt / llms-full.txt, content assets and `op:` link redirects. The reader is
 * resolved once per request from the session (`readerState`, worker/access/resolve.ts); signed-out readers of a
 * gated path are sent to sign in; every list goes through Site, every page through `canRead`.
 */
import { Hono, type Context } from "hono";
import { apiLabels, labelPages } from "../access/labels";
import { anonymousReader, canRead, PUBLIC, type ReaderContext } from "../access/reader";
import { portalPath, readerState, requireSignInFor, SignInRequired, type ReaderState } from "../access/resolve";
import { sha256 } from "../content/hash";
import { changelogRss, llmsFullTxt, llmsTxt } from "../content/feeds";
import { BASE_MARKER, filterAudiences, renderForReader } from "../content/markers";
import { Site } from "../content/site";
import type { ChangeType, PageKind, PageMeta } from "../content/types";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { DEFAULT_PAGE_POLICY, portalPagePolicy, usePagePolicy } from "../http/security-headers";
import { renderErrorPage } from "../render";
import { renderMarkdown } from "../render/markdown";
import { entrySlug } from "../publish/changelog-writer";
import { approvedEntries } from "../store/changelog";
import { getDb } from "../store/db";
import { glossaryAnchor } from "../search/documents-content";
import { escapeText } from "../render/components/code";
import { renderChangelogPage, renderGuidePage, renderListPage } from "../render/content/pages";
import type { ShellProps } from "../render/content/layout";
import type { AuthorizeState } from "../render/types";
import { authorizeState } from "./api-key";
import { operationUrl } from "../render/urls";
import { portalBasePath, readerPath } from "../render/shell/base-path";
import { liveOperationsByKey } from "../store/operation-links";
import { allowThemeStyle, buildChrome, effectiveBrand, errorChrome, portalName, readableApis, resolvedBrand } from "./shell-chrome";
import { brandUrls, themeStylesheet } from "../content/brand";
import { assetType } from "../content/links";
import { getAsset, releaseAssetType, type PageRow } from "../store/content";
import { branchPreviewTokenHash, isBranchSlug } from "../git/config";
import { readablePreview } from "../git/preview-versions";
import { findApi } from "../store/apis";
import { loadContentSite, loadPreviewSite, storedPage, type ContentSiteData } from "../store/content-site";
import { portalBrand, portalSettings } from "../store/portals";

/** A bundle asset opened directly: its own styles render, nothing of it runs (`sandbox`). */
const ASSET_CSP = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox";

const LOCALE = "[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*";

interface Ctx {
  data: ContentSiteData & { release: NonNullable<ContentSiteData["release"]> };
  state: ReaderState;
  site: Site<PageRow>;
  reader: ReaderContext;
  basePath: string;
  origin: string;
  defaults: Record<string, string>;
  /** A dry run's preview: noindex, and links stay inside the preview. */
  preview: boolean;
  /** A Git branch preview (a preview with its own search: routes/preview-search.ts). */
  branch?: boolean;
  /** The top bar's Authorize control (API key once); none on previews. */
  authorize?: AuthorizeState;
}

/** The preview token of a `/p/{portal}/preview/{token}/…` request, else undefined. */
function previewToken(c: Context<AppEnv>): string | undefined {
  return (c.req.param() as Record<string, string | undefined>).token;
}

/** Portal, release (live, or the preview's) and base path of a request; 404 when there is none. */
async function siteData(c: Context<AppEnv>): Promise<{ data: ContentSiteData; basePath: string; preview: boolean; branch?: boolean }> {
  const portal = c.req.param("portal") ?? "";
  const token = previewToken(c);
  if (token === undefined) {
    const data = await loadContentSite(c.env, portal);
    if (!data) throw new ApiError(404, "not-found", `no portal "${portal}"`);
    return { data, basePath: portalBasePath(data.portal), preview: false };
  }
  // A Git branch's preview (docs/git.md) is named by its branch slug, and gated like the portal.
  const branch = isBranchSlug(token);
  const data = await loadPreviewSite(c.env, portal, branch ? await branchPreviewTokenHash(portal, token) : await sha256(token), new Date().toISOString());
  if (branch && data) return { data, basePath: `${portalBasePath(data.portal)}/preview/${token}`, preview: true, branch: true };
  if (!data) throw new ApiError(404, "not-found", "this preview link is unknown or has expired: run the dry run again for a new one");
  return { data, basePath: `${portalBasePath(data.portal)}/preview/${encodeURIComponent(token)}`, preview: true };
}

async function context(c: Context<AppEnv>, locale?: string): Promise<Ctx> {
  const { data, basePath, preview, branch } = await siteData(c);
  if (!data.release) throw new ApiError(404, "not-found", "this portal has published no guides yet");
  const config = data.release.config;
  if (locale !== undefined && !config.locales.includes(locale)) throw new ApiError(404, "not-found", `no locale "${locale}"`);
  const state = await readerState(c, data.portal);
  // Previews are the writer's (their URL is the secret): they read as the audiences asked for, never redirected.
  // A branch preview is read like the portal: the same sign-in, the reader's own audiences.
  // (The path is checked as the live portal's: `/preview/{branch}` taken out.)
  const gatedPath = branch ? c.req.path.replace(`/preview/${previewToken(c)}`, "") : c.req.path;
  if (!preview || branch) requireSignInFor(c, state, data.portal, portalPath(gatedPath, data.portal.slug, config.locales));
  const reader = preview && !branch ? previewReader(c, locale ?? config.locales[0]) : state.reader(locale ?? config.locales[0]);
  const pages = labelPages(data.pages, state.access.policy, config.navigation, data.release.id);
  const site = new Site(config, pages, readableApis(state, reader, data.apis).map((a) => ({ slug: a.slug, title: a.title })), reader);
  const defaults = Object.fromEntries(Object.entries(config.variables).map(([k, v]) => [k, v.default]));
  usePagePolicy(c, portalPagePolicy(portalSettings(data.portal)));
  allowThemeStyle(c, data, basePath);
  // HTML pages only: feeds, llms.txt and the theme stylesheet stay cacheable and carry no control.
  const htmlPage = !preview && !/\.(?:css|rss|txt)$/.test(c.req.path);
  const authorize = htmlPage ? await authorizeState(c, data.portal, readerPath(data.portal, c.req.path)) : undefined;
  // The key the reader entered fills `{{api_key}}` in guides and code steps, over any default.
  if (authorize?.apiKey) {
    reader.apiKey = authorize.apiKey;
    reader.variables = { ...reader.variables, api_key: authorize.apiKey };
  }
  return { data: data as Ctx["data"], state, site, reader, basePath, origin: publicOrigin(c.env, data.portal), defaults, preview, ...(branch ? { branch } : {}), ...(authorize ? { authorize } : {}) };
}

/** llms.txt for the reader of a content site (the route's and MCP's `llms.txt` resource): readable pages only, through `Site`. */
export function readerLlmsTxt(x: { site: Site<PageRow>; origin: string; basePath: string; data: ContentSiteData }): string {
  const loc = x.site.defaultLocale;
  const sections = x.site.navigation(loc).map((g) => ({
    title: g.title,
    links: g.links.map((l) => ({ title: l.title, url: `${x.origin}${x.basePath}${l.path}`, description: l.kind === "api" ? "API reference" : x.site.find(l.kind, l.key.slice(l.key.indexOf(":") + 1), loc)?.page.description })),
  }));
  sections.push({ title: "Optional", links: [{ title: "Changelog", url: `${x.origin}${x.basePath}/changelog.rss`, description: "RSS feed of changes" }] });
  const name = portalName(x.data);
  return llmsTxt({ title: name, summary: `Documentation of ${name}: guides, code walkthroughs and API reference.`, sections });
}

/** A writer previewing: `?audience=partners,beta` reads as those audiences (plus public). */
function previewReader(c: Context<AppEnv>, locale: string): ReaderContext {
  const asked = (c.req.query("audience") ?? "").split(",").map((a) => a.trim().toLowerCase()).filter((a) => /^[a-z0-9_-]{1,64}$/.test(a)).slice(0, 16);
  return { ...anonymousReader(locale), audiences: [PUBLIC, ...asked] };
}

/** Shell props of a content page: the chrome for this reader, then the page's place in it. */
function shell(x: Ctx, locale: string, current: string | undefined, crumbs: ShellProps["crumbs"], extra: Partial<Omit<ShellProps, "chrome">> & { localeLinks?: { locale: string; href: string; current: boolean }[] } = {}): Omit<ShellProps, "children"> {
  const { localeLinks, ...rest } = extra;
  const chrome = buildChrome({ data: x.data, state: x.state, reader: x.reader, site: x.site, basePath: x.basePath, locale, localeLinks, authorize: x.authorize, preview: x.preview, branchPreview: x.branch });
  // The glossary has no tab of its own; a brand navigation link to it (the demo's "Glossary") is then the current one.
  const tab = current === "changelog" ? "changelog" : current === "glossary" ? "path:/glossary" : current?.startsWith("guide:") || current?.startsWith("step:") ? "guides" : undefined;
  return { chrome, site: x.site, locale, current, tab, crumbs, ...rest };
}

/** Plain text of a marked string (TOC entries, step titles) for this reader; the renderer escapes it. */
function text(x: Ctx, s: string): string {
  return renderForReader(s, x.reader, { basePath: x.basePath, defaults: x.defaults, html: false });
}

async function page(c: Context<AppEnv>, kind: "guide" | "step", slug: string, locale?: string, home = false): Promise<Response> {
  const x = await context(c, locale);
  const loc = locale ?? x.site.defaultLocale;
  const found = x.site.find(kind, slug, loc);
  if (!found) throw new ApiError(404, "not-found", `no page "${slug}"`);
  const stored = await storedPage(c.env.MODELS, found.page.at);
  if (!stored) throw new ApiError(404, "not-found", "this page's content is not available");
  const html = renderForReader(stored.html, x.reader, { basePath: x.basePath, defaults: x.defaults });
  const variants = x.site.variants(kind, slug);
  const abs = (l: string) => `${x.origin}${x.basePath}${x.site.path(kind, slug, l)}`;
  const nb = x.site.neighbours(kind, slug, loc);
  const first = x.site.first(loc);
  const linked = await liveOperationsByKey(c.env, x.data.portal.id, found.page.operations);
  const apis = new Map(readableApis(x.state, x.reader, x.data.apis).map((a) => [a.slug, a]));
  const operations = linked.flatMap((o) => {
    const api = apis.get(o.api);
    if (!api) return [];
    const ref = { slug: api.slug, title: api.title, layout: api.layout === "single-page" ? "single-page" as const : "page-per-operation" as const };
    return [{ title: `${o.method.toUpperCase()} ${o.summary || o.path}`, href: operationUrl(portalBasePath(x.data.portal), ref, api.liveLabel, o.slug) }];
  });
  const view = {
    shell: shell(x, loc, `${kind}:${slug}`, [{ title: "Home", href: `${x.basePath}/` }, ...(nb.group ? [{ title: nb.group }] : []), { title: found.page.title }], {
      localeLinks: x.site.config.locales.map((l) => ({ locale: l, href: x.basePath + x.site.path(kind, slug, l), current: l === loc })),
      toc: stored.toc.filter((t) => canRead(x.reader, t.labels)).map((t) => ({ id: t.id, level: t.level, text: text(x, t.text) })),
    }),
    head: {
      title: `${found.page.title} · ${portalName(x.data)}`,
      description: found.page.description, locale: found.page.locale, canonicalUrl: home && first ? `${x.origin}${x.basePath}${first.path}` : abs(found.fallback ? x.site.defaultLocale : loc),
      alternates: variants.map((l) => ({ locale: l, href: abs(l) })), rss: x.preview ? undefined : `${x.origin}${x.basePath}/changelog.rss`, noindex: x.preview,
    },
    title: found.page.title,
    html,
    tags: found.page.tags,
    fallbackFrom: found.fallback ? loc : undefined,
    operations,
    related: x.site.related(found.page).map((p) => ({ title: p.title, href: x.basePath + x.site.path(p.kind, p.slug, loc) })),
    prev: nb.prev && { title: nb.prev.title, href: x.basePath + nb.prev.path },
    next: nb.next && { title: nb.next.title, href: x.basePath + nb.next.path },
    steps: stored.steps && stored.sample ? {
      items: stored.steps.map((s) => ({ ...s, title: text(x, s.title), html: renderForReader(s.html, x.reader, { basePath: x.basePath, defaults: x.defaults }) })),
      sample: stored.sample.map((l) => ({ ...l, lines: l.lines.map((line) => renderForReader(line, x.reader, { basePath: x.basePath, defaults: x.defaults })) })),
    } : undefined,
  };
  return c.html(renderGuidePage(view));
}

/**
 * Whether the reader may fetch an asset: the brand's files (logos, favicon, fonts, stylesheet) always; else when the reader can read every page, or some page
 * they can read shows it outside the audience blocks they cannot read (an asset has no labels of its own).
 */
async function assetReadable(c: Context<AppEnv>, x: Ctx, sha: string): Promise<boolean> {
  if (brandUrls(effectiveBrand(x.data)).some((u) => u.includes(`/_content/${sha}.`))) return true;
  const readable = [...x.site.documents(), ...x.site.changelog()];
  if (readable.length === x.data.pages.length && !x.data.pages.some((p) => p.labels.length > 0)) return true;
  for (const meta of readable) {
    const stored = await storedPage(c.env.MODELS, meta.at);
    if (stored && filterAudiences(stored.html + (stored.steps ?? []).map((st) => st.html).join(""), x.reader).includes(`/_content/${sha}.`)) return true;
  }
  return false;
}

/** One changelog entry as pages and feeds show it. */
type Entry = { meta: PageMeta; html: string };

/**
 * Approved changelog drafts (issue 11) the reader may see: those of APIs their labels let them open, as entries
 * beside the release's own. Their Markdown goes through the reference renderer (hostile-input safe).
 */
async function approvedChangelog(c: Context<AppEnv>, x: Ctx): Promise<Entry[]> {
  const rows = await approvedEntries(getDb(c.env.DB), x.data.portal.id);
  return rows
    .filter((r) => canRead(x.reader, apiLabels(x.state.access.policy, r.apiSlug, x.state.access.navigation)))
    .map((r) => ({
      meta: {
        kind: "changelog" as const,
        slug: entrySlug(r.apiSlug, r.version),
        locale: x.site.defaultLocale,
        title: r.title,
        tags: [],
        labels: apiLabels(x.state.access.policy, r.apiSlug, x.state.access.navigation),
        order: 0,
        file: "",
        operations: [],
        changelog: { type: r.type as ChangeType, version: r.version, date: r.date, api: r.apiSlug },
      },
      html: renderMarkdown(r.body),
    }));
}

async function changelogEntries(c: Context<AppEnv>, x: Ctx, filter: { type?: string; api?: string; tag?: string }, locale: string, approved: Entry[], max = 50): Promise<Entry[]> {
  const metas = x.site.changelog(filter, locale).slice(0, max);
  const stored = await Promise.all(metas.map((m) => storedPage(c.env.MODELS, m.at)));
  const content: Entry[] = metas.map((meta, i) => ({ meta, html: stored[i] ? renderForReader(stored[i]!.html, x.reader, { basePath: x.basePath, defaults: x.defaults }) : "" }));
  const drafts = approved.filter(({ meta }) => (!filter.type || meta.changelog!.type === filter.type) && (!filter.api || meta.changelog!.api === filter.api) && (!filter.tag || meta.tags.includes(filter.tag)));
  return [...content, ...drafts]
    .sort((a, b) => b.meta.changelog!.date.localeCompare(a.meta.changelog!.date) || b.meta.changelog!.version.localeCompare(a.meta.changelog!.version))
    .slice(0, max);
}

/** `/changelog` (`/{locale}/changelog`): entries in the locale where translated, filterable by type, API and tag. */
async function changelogPage(c: Context<AppEnv>, locale?: string): Promise<Response> {
  const x = await context(c, locale);
  const loc = locale ?? x.site.defaultLocale;
  const q = (k: string) => c.req.query(k) || undefined;
  const filter = { type: q("type"), api: q("api"), tag: q("tag") };
  const approved = await approvedChangelog(c, x);
  const all = [...x.site.changelog(), ...approved.map((e) => e.meta)];
  const options = {
    types: [...new Set(all.map((p) => p.changelog!.type))].sort(),
    apis: [...new Set(all.flatMap((p) => (p.changelog!.api ? [p.changelog!.api] : [])))].sort(),
    tags: [...new Set(all.flatMap((p) => p.tags))].sort(),
  };
  const at = (l: string) => `${x.basePath}${l === x.site.defaultLocale ? "" : `/${l}`}/changelog`;
  const rss = `${at(loc)}.rss`;
  return c.html(renderChangelogPage({
    shell: shell(x, loc, "changelog", [{ title: "Home", href: `${x.basePath}/` }, { title: "Changelog" }], {
      localeLinks: x.site.config.locales.map((l) => ({ locale: l, href: at(l), current: l === loc })),
    }),
    head: {
      title: `Changelog · ${portalName(x.data)}`, locale: loc, canonicalUrl: `${x.origin}${at(loc)}`,
      alternates: x.site.config.locales.map((l) => ({ locale: l, href: `${x.origin}${at(l)}` })), rss: x.preview ? undefined : `${x.origin}${rss}`, noindex: x.preview,
    },
    entries: await changelogEntries(c, x, filter, loc, approved), filter, options, rssHref: rss,
  }));
}

/** `/changelog.rss` (`/{locale}/changelog.rss`): RSS 2.0 of the changelog in the locale, translated entries where they exist. */
async function changelogFeed(c: Context<AppEnv>, locale?: string): Promise<Response> {
  const x = await context(c, locale);
  const loc = locale ?? x.site.defaultLocale;
  const entries = await changelogEntries(c, x, {}, loc, await approvedChangelog(c, x));
  const siteUrl = `${x.origin}${x.basePath}${loc === x.site.defaultLocale ? "" : `/${loc}`}`;
  const xml = changelogRss({ title: portalName(x.data), siteUrl, entries });
  return c.body(xml, 200, { "content-type": "application/rss+xml; charset=utf-8" });
}

/** The routes a reader and a preview share, under `prefix` (`/p/:portal` or `/p/:portal/preview/:token`). */
function readerPages(app: Hono<AppEnv>, prefix: string): Hono<AppEnv> {
  return app
  .get(`${prefix}/guides/:slug{.+}`, (c) => page(c, "guide", c.req.param("slug")))
  .get(`${prefix}/steps/:slug{.+}`, (c) => page(c, "step", c.req.param("slug")))
  .get(`${prefix}/:locale{${LOCALE}}/guides/:slug{.+}`, (c) => page(c, "guide", c.req.param("slug"), c.req.param("locale")))
  .get(`${prefix}/:locale{${LOCALE}}/steps/:slug{.+}`, (c) => page(c, "step", c.req.param("slug"), c.req.param("locale")))
  .get(`${prefix}/`, async (c, next) => {
    // The home shows the navigation's first guide once the portal has content; else the reference home answers.
    const { data } = await siteData(c);
    if (!data.release) return next();
    const x = await context(c);
    const first = x.site.first(x.site.defaultLocale);
    if (!first || first.kind === "api") return next();
    return page(c, first.kind as "guide" | "step", first.key.slice(first.key.indexOf(":") + 1), undefined, true);
  })
  .get(`${prefix}/changelog`, (c) => changelogPage(c))
  .get(`${prefix}/:locale{${LOCALE}}/changelog`, (c) => changelogPage(c, c.req.param("locale")))
  .get(`${prefix}/theme.css`, async (c) => {
    // The brand's design tokens; public like the logo (no sign-in), versioned by the pages' `?v=`.
    const { data, basePath } = await siteData(c);
    const css = themeStylesheet(resolvedBrand(data, basePath));
    return c.body(css, 200, { "content-type": "text/css; charset=utf-8", "cache-control": "public, max-age=300" });
  })
  .get(`${prefix}/tags/:tag`, async (c) => {
    const x = await context(c);
    const tag = c.req.param("tag");
    const loc = x.site.defaultLocale;
    const items = x.site.tagged(tag, loc).map((p) => ({ title: p.title, href: x.basePath + x.site.path(p.kind, p.slug, loc), html: p.description ? escapeText(p.description) : undefined }));
    return c.html(renderListPage({
      shell: shell(x, loc, undefined, [{ title: "Home", href: `${x.basePath}/` }, { title: `Tag: ${tag}` }]),
      head: { title: `${tag} · ${portalName(x.data)}`, locale: loc }, title: `Pages tagged “${tag}”`, items, empty: "No page has this tag.",
    }));
  })
  .get(`${prefix}/glossary`, async (c) => {
    const x = await context(c);
    const loc = x.site.defaultLocale;
    return c.html(renderListPage({
      shell: shell(x, loc, "glossary", [{ title: "Home", href: `${x.basePath}/` }, { title: "Glossary" }]),
      head: { title: `Glossary · ${portalName(x.data)}`, locale: loc },
      title: "Glossary", items: x.data.release.glossary.map((t) => ({ id: glossaryAnchor(t.term), title: t.synonyms.length ? `${t.term} (${t.synonyms.join(", ")})` : t.term, html: t.html })), empty: "The glossary is empty.",
    }));
  })
  .get(`${prefix}/_content/:file{[0-9a-f]{64}\\.[a-z0-9]+}`, async (c) => {
    const x = await context(c);
    const sha = c.req.param("file").slice(0, 64);
    // A file PATCH /v1/portal's brand names stays served after a release without it (content-addressed in R2).
    const patched = brandUrls(portalBrand(x.data.portal)).some((u) => u.includes(`/_content/${sha}.`));
    const type = (await releaseAssetType(c.env.DB, x.data.release.id, sha)) ?? (patched ? assetType(c.req.param("file")) : undefined);
    const obj = type && (patched || (await assetReadable(c, x, sha))) ? await getAsset(c.env.DEFINITIONS, sha) : null;
    if (!type || !obj) throw new ApiError(404, "not-found", "no such asset");
    // Content-addressed, so immutable; SVG and PDF open sandboxed (no script of the asset's own).
    usePagePolicy(c, { ...DEFAULT_PAGE_POLICY, bodyCsp: ASSET_CSP });
    return new Response(obj.body, { headers: { "content-type": type, "cache-control": "public, max-age=31536000, immutable" } });
  });
}

export const contentPagesRoutes = readerPages(readerPages(new Hono<AppEnv>()
  // Previews are for writers: never indexed, never cached, and their secret URL never sent as a Referer.
  .use("/p/:portal/preview/*", async (c, next) => {
    await next();
    c.header("x-robots-tag", "noindex, nofollow");
    c.header("cache-control", "private, no-store");
    usePagePolicy(c, { ...(c.get("pagePolicy") ?? DEFAULT_PAGE_POLICY), referrerPolicy: "no-referrer" });
  }), "/p/:portal/preview/:token"), "/p/:portal")
  .get("/p/:portal/changelog.rss", (c) => changelogFeed(c))
  .get(`/p/:portal/:locale{${LOCALE}}/changelog.rss`, (c) => changelogFeed(c, c.req.param("locale")))
  .get("/p/:portal/llms.txt", async (c) => {
    const x = await context(c);
    return c.text(readerLlmsTxt(x));
  })
  .get("/p/:portal/llms-full.txt", async (c) => {
    const x = await context(c);
    const docs = x.site.documents();
    const stored = await Promise.all(docs.map((p) => storedPage(c.env.MODELS, p.at)));
    const name = portalName(x.data);
    return c.text(llmsFullTxt({
      title: name, summary: `Every public guide and code walkthrough of ${name}, inlined.`,
      pages: docs.map((p, i) => ({ title: p.title, url: `${x.origin}${x.basePath}${x.site.path(p.kind as PageKind, p.slug, p.locale)}`, text: stored[i] ? renderForReader(filterAudiences(stored[i]!.text, x.reader), x.reader, { basePath: x.basePath, defaults: x.defaults, html: false }) : "" })),
    }));
  })
  .get("/p/:portal/op/:api/:slug", async (c) => {
    const data = await loadContentSite(c.env, c.req.param("portal"));
    const state = data && (await readerState(c, data.portal));
    if (data && state) requireSignInFor(c, state, data.portal, `/reference/${c.req.param("api")}/`);
    const found = data?.apis.find((a) => a.slug === c.req.param("api"));
    // An API the reader may not open answers as if it did not exist (no live label revealed by the redirect).
    const api = found && state && readableApis(state, state.reader("en"), [found])[0];
    if (!data || !api) throw new ApiError(404, "not-found", `no published API "${c.req.param("api")}"`);
    const layout = api.layout === "single-page" ? "single-page" : "page-per-operation";
    return c.redirect(operationUrl(portalBasePath(data.portal), { slug: api.slug, title: api.title, layout }, api.liveLabel, c.req.param("slug")), 302);
  })
  // A guide's operation link in a Git branch preview opens the branch's version of the operation (docs/git.md).
  .get("/p/:portal/preview/:token/op/:api/:slug", async (c) => {
    const data = await loadContentSite(c.env, c.req.param("portal"));
    const token = c.req.param("token");
    const preview = data && isBranchSlug(token) ? await readablePreview(getDb(c.env.DB), data.portal.id, token) : undefined;
    if (!data || !preview) throw new ApiError(404, "not-found", "this preview is unknown or has expired");
    const state = await readerState(c, data.portal);
    requireSignInFor(c, state, data.portal, `/reference/${c.req.param("api")}/`);
    const own = preview.definitions[c.req.param("api")];
    const row = own ? await findApi(getDb(c.env.DB), data.portal.id, c.req.param("api")) : undefined;
    const found = row ? { slug: row.slug, title: row.title, layout: row.layout, liveLabel: own!.label } : data.apis.find((a) => a.slug === c.req.param("api"));
    const api = found && readableApis(state, state.reader("en"), [found])[0];
    if (!api) throw new ApiError(404, "not-found", `no published API "${c.req.param("api")}"`);
    const layout = api.layout === "single-page" ? "single-page" : "page-per-operation";
    return c.redirect(operationUrl(`${portalBasePath(data.portal)}/preview/${preview.slug}`, { slug: api.slug, title: api.title, layout }, api.liveLabel, c.req.param("slug")), 302);
  })
  .onError(async (error, c) => {
    if (error instanceof SignInRequired) return c.redirect(error.location, 303);
    if (error instanceof ApiError) {
      return c.html(renderErrorPage({ status: error.status, title: error.status === 404 ? "Not found" : "Error", message: error.message, chrome: await errorChrome(c) }), error.status as 404);
    }
    throw error;
  });
