/**
 * @module Reader pages (server-rendered HTML): the portal home, a reference's live version, a version's index
 * and one operation. Routes are `/p/{portal}/…`; on a custom hostname the Host router adds that prefix inside the
 * Worker (worker/domains/route-host.ts), so every URL a page shows is built on `portalBasePath`.
 */
import { Hono, type Context } from "hono";
import { apiLabels } from "../access/labels";
import { canRead } from "../access/reader";
import { readerState, readerStateWith, requireSignInFor, SignInRequired, type ReaderState } from "../access/resolve";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { changesLabel } from "../http/upload-query";
import { publicOrigin } from "../http/public-origin";
import { portalPagePolicy, usePagePolicy } from "../http/security-headers";
import { operationUrl, renderChangesPage, renderErrorPage, renderOperationFragment, renderOperationPage, renderPortalHome, renderSinglePage, renderVersionIndex, tagAnchor } from "../render";
import type { ApiRef, PageProps } from "../render";
import {
  findMovedOperation,
  findVersionById,
  listApis,
  listOperations,
  operationSummariesOfTag,
  operationSummaryOf,
  sliceLocationOf,
} from "../store/apis";
import { getDb } from "../store/db";
import { catalogFor } from "../store/portal-catalog";
import { liveVariableDefaults, loadContentSite, loadPreviewSite } from "../store/content-site";
import { branchPreviewTokenHash, isBranchSlug } from "../git/config";
import { readablePreview, type ReadablePreview } from "../git/preview-versions";
import { portalBasePath, readerPath } from "../render/shell/base-path";
import { allowChromeStyle, buildChrome, errorChrome, loadChrome } from "./shell-chrome";
import { getHeader, getSlice, readSlicesInOrder } from "../store/models";
import { portalSettings, type PortalRow } from "../store/portals";
import { loadPortal, loadReaderHead, loadReaderRest, readerHeadHint, requireReadersServed, type ReaderContext, type ReaderHead, type ReaderPageRows } from "../store/reader";
import type { ApiRow, OperationRow } from "../store/apis";
import { sha256Hex } from "../store/tokens";
import { levelOf } from "../openapi/diff/rules";
import { historyBadges, type DraftBullet } from "../publish/changelog-writer";
import { versionChanges } from "../publish/changes";
import { approvedEntriesOfApi } from "../store/changelog";
import { authorizeState } from "./api-key";
import { guidesByOperation, guidesLinkingTo } from "./content-links";
import { buildTrySpec, fillTrySpec } from "../openapi/samples/try-spec";

import { BoundedCache } from "../lib/bounded-cache";

const HTML_HEADERS = { "content-type": "text/html; charset=utf-8" };

/** Once the portal is known, its page policy (frame-ancestors, external images) applies to the answer, errors included. */
function seePortal<T extends { portal: PortalRow }>(c: Context<AppEnv>, found: T): T {
  usePagePolicy(c, portalPagePolicy(portalSettings(found.portal)));
  return found;
}

/** The `:version` of a reader URL in NFC, the form labels are stored in (publish/names.ts), so a decomposed spelling finds it too. */
function labelParam(c: Context<AppEnv>): string {
  return (c.req.param("version") ?? "").normalize("NFC");
}

/** Whether the reader of this request may open an API's reference (any version, any operation). */
function mayRead(state: ReaderState, apiSlug: string): boolean {
  return canRead(state.reader("en"), apiLabels(state.access.policy, apiSlug, state.access.navigation));
}

/**
 * The reference behind a reader URL, once the reader is allowed: signed out on a gated path → sign in; an API the
 * reader may not open → the very 404 of an API that does not exist (its versions, read meanwhile, are never used).
 */
async function readable(c: Context<AppEnv>, label?: string, operationSlug?: string, page = false): Promise<ReaderContext & { operation?: OperationRow; page?: ReaderPageRows; state: ReaderState; base: string }> {
  const db = getDb(c.env.DB);
  const apiSlug = c.req.param("api") ?? "";
  const token = previewSegment(c);
  // One round trip for portal and API, then the reader's state and the reference's rows side by side; the rows are
  // used only once the reader is allowed, so the refusals come in the same order as ever (sign-in, then 404). A page
  // reads the portal's access in the reference's batch (and the state from it), saving a round trip.
  const portalSlug = c.req.param("portal") ?? "";
  // A page of a published API this isolate has served before starts every read at once from the head it saw last,
  // the batch re-reading the head; when the head moved (or anything failed) it is read afresh, in order.
  const hint = page && token === undefined ? readerHeadHint(portalSlug, apiSlug) : undefined;
  const warm = hint && (await loadReaderRest(db, c.env, hint, label, operationSlug, undefined, page, { portalSlug, apiSlug }).catch(() => undefined));
  if (warm) requireReadersServed(warm.portal);
  const head: ReaderHead = warm ? { portal: warm.portal, api: warm.api } : await loadReaderHead(db, portalSlug, apiSlug, token !== undefined);
  const { portal } = head;
  // A Git branch preview (docs/git.md) reads the branch's versions, under its own base path.
  const preview = token !== undefined ? await branchPreview(c, portal, token) : undefined;
  const own = preview?.definitions[apiSlug];
  const api = head.api && (head.api.liveVersionId !== null || own) ? head.api : undefined;
  const pin = own ? { version: own.version, label: own.label, apis: new Set(Object.keys(preview!.definitions)) } : undefined;
  const liveLabel = head.liveLabel !== undefined ? { liveLabel: head.liveLabel } : {};
  const found = warm ? Promise.resolve(warm) : api ? loadReaderRest(db, c.env, { portal, api, ...liveLabel }, label, operationSlug, pin, page) : undefined;
  found?.catch(() => {}); // awaited below, unless an access check throws first
  const rows = page && found ? await found.then((f) => f.page, () => undefined) : undefined;
  const state = await (rows ? readerStateWith(c, portal, rows.access) : readerState(c, portal));
  requireSignInFor(c, state, portal, `/reference/${apiSlug}/`);
  if (!mayRead(state, apiSlug) || !found) throw new ApiError(404, "not-found", `no API reference "${apiSlug}" in this portal`);
  const ctx = seePortal(c, await found);
  const base = preview ? previewBase(portal, preview.slug) : portalBasePath(portal);
  return { ...ctx, apis: ctx.apis.filter((a) => mayRead(state, a.slug)), state, base };
}

/** The branch-preview segment of a `/p/{portal}/preview/{slug}/…` request, else undefined. */
function previewSegment(c: Context<AppEnv>): string | undefined {
  return (c.req.param() as Record<string, string | undefined>).token;
}

/** The base path of a branch preview's pages. */
function previewBase(portal: PortalRow, slug: string): string {
  return `${portalBasePath(portal)}/preview/${slug}`;
}

/** The readable branch preview named by a URL segment; 404 when there is none (or it expired). */
async function branchPreview(c: Context<AppEnv>, portal: PortalRow, segment: string): Promise<ReadablePreview> {
  const preview = isBranchSlug(segment) ? await readablePreview(getDb(c.env.DB), portal.id, segment) : undefined;
  if (!preview) throw new ApiError(404, "not-found", "this preview is unknown or has expired");
  return preview;
}

function apiRef(api: ApiRow): ApiRef {
  return { slug: api.slug, title: api.title, layout: api.layout as ApiRef["layout"] };
}

/** What every reference page shows of its portal, API and version; no reader state (fragments need no more). */
function baseProps(c: Context<AppEnv>, ctx: ReaderContext & { base: string }, canonicalPath: string): PageProps {
  return {
    portal: { slug: ctx.portal.slug, name: ctx.portal.name },
    basePath: ctx.base,
    apis: ctx.apis.map(apiRef),
    api: apiRef(ctx.api),
    versions: ctx.versions.map((v) => ({ label: v.label, live: v.id === ctx.api.liveVersionId })),
    version: { label: ctx.version.label, live: ctx.live },
    // The portal's configured origin, never the request's Host (which the client chooses).
    canonicalUrl: publicOrigin(c.env, ctx.portal) + canonicalPath,
  };
}

/**
 * Props of a reference page for its reader: the Authorize control (reading the API-key cookie makes the answer
 * `private, no-store`) and the `{{name}}` values of code samples and examples: the live content's defaults, under
 * the reader's own (JWT claims, SAML attributes), under the API key they entered (`api_key`), as guides fill them.
 */
async function pageProps(c: Context<AppEnv>, ctx: ReaderContext & { page?: ReaderPageRows; state: ReaderState; base: string }, canonicalPath: string): Promise<PageProps> {
  return (await pagePropsAndRelease(c, ctx, canonicalPath)).props;
}

/** {@link pageProps}, and whether the portal has live content (its changelog page exists): read in the same D1 batch. */
async function pagePropsAndRelease(c: Context<AppEnv>, ctx: ReaderContext & { page?: ReaderPageRows; state: ReaderState; base: string }, canonicalPath: string): Promise<{ props: PageProps; hasRelease: boolean }> {
  // The content site gives both the variables' defaults and the shell's chrome (name, logo, tabs) in one D1 batch
  // (the reference's own batch, when the page read it there).
  // A branch preview's chrome is its own content release's (the live one's when the branch has none), under its base.
  const token = previewSegment(c);
  const [authorize, site] = await Promise.all([
    authorizeState(c, ctx.portal, readerPath(ctx.portal, c.req.path)),
    token === undefined ? (ctx.page?.site ?? loadContentSite(c.env, ctx.portal.slug)) : previewSite(c, ctx.portal.slug, token),
  ]);
  const defaults = Object.fromEntries(Object.entries(site?.release?.config.variables ?? {}).map(([k, v]) => [k, v.default]));
  const reader = ctx.state.reader(site?.release?.config.locales[0] ?? "en");
  const variables = { ...defaults, ...reader.variables, ...(authorize.apiKey ? { api_key: authorize.apiKey } : {}) };
  const chrome = site ? buildChrome({ data: site, state: ctx.state, reader, authorize, ...(token !== undefined ? { basePath: ctx.base, branchPreview: true } : {}) }) : undefined;
  if (chrome) allowChromeStyle(c, chrome);
  return { props: { ...baseProps(c, ctx, canonicalPath), authorize, variables, ...(chrome ? { chrome } : {}) }, hasRelease: site?.release !== undefined };
}

/** A branch preview's content site: its own release, else the live one's (the branch changed only definitions). */
async function previewSite(c: Context<AppEnv>, portalSlug: string, segment: string) {
  return (await loadPreviewSite(c.env, portalSlug, await branchPreviewTokenHash(portalSlug, segment), new Date().toISOString())) ?? loadContentSite(c.env, portalSlug);
}

/** Bumped when rendering changes how deferred bodies are numbered, so cached fragment URLs never go stale. */
const FRAGMENT_FORMAT = 1;

/** Fragment tags of recent model keys (a digest per page view otherwise). */
const FRAGMENT_TAGS = new BoundedCache<string, string>({ maxEntries: 256 });

/** The `m` of fragment URLs: the model and the numbering format (16 hex digits). */
async function fragmentTag(modelKey: string): Promise<string> {
  return FRAGMENT_TAGS.get(modelKey) ?? FRAGMENT_TAGS.set(modelKey, (await sha256Hex(`${FRAGMENT_FORMAT}:${modelKey}`)).slice(0, 16));
}

function fragmentHref(ctx: ReaderContext & { base: string }, slug: string, tag: string): (id: string) => string {
  const base = `${versionPath(ctx)}${encodeURIComponent(slug)}/fragments/`;
  return (id) => `${base}${id}?m=${tag}`;
}

function versionPath(ctx: ReaderContext & { base: string }): string {
  return `${ctx.base}/reference/${ctx.api.slug}/${encodeURIComponent(ctx.version.label)}/`;
}

async function versionIndex(c: Context<AppEnv>, ctx: ReaderContext & { page?: ReaderPageRows; state: ReaderState; base: string }): Promise<Response> {
  const [header, rows] = await Promise.all([getHeader(c.env.MODELS, ctx.version.modelKey), listOperations(catalogFor(c.env, ctx.portal.id), ctx.version.id)]);
  if (!header) throw new ApiError(404, "not-found", "this version's model is not available");
  const props = { ...(await pageProps(c, ctx, versionPath(ctx))), header, operations: rows.map(operationSummaryOf) };
  if (ctx.api.layout === "single-page") {
    // Each operation's guides at the end of its section, as an operation page has them at the end of <main>.
    const guides = ctx.live ? await guidesByOperation(c, ctx.portal, ctx.api.slug) : undefined;
    const stream = renderSinglePage({ ...props, ...(guides?.size ? { guides } : {}), slices: readSlicesInOrder(c.env.MODELS, ctx.version.modelKey, rows.map(sliceLocationOf)) });
    return new Response(stream, { headers: { ...HTML_HEADERS, "cache-control": "private, no-store" } });
  }
  return c.html(renderVersionIndex(props));
}


/**
 * 301 to the same path with a trailing slash, as a relative reference (`./pets/`): right on the service host and on
 * a custom hostname alike, where the route's `/p/{portal}` prefix is not the reader's.
 */
function addSlash(c: Context<AppEnv>): Response {
  const last = new URL(c.req.url).pathname.split("/").pop() ?? "";
  return c.redirect(`./${last}/`, 301);
}

/** The reference routes under `prefix`: `/p/:portal`, and `/p/:portal/preview/:token` for a Git branch preview. */
function referencePages(app: Hono<AppEnv>, prefix: string): Hono<AppEnv> {
  return app
    .get(`${prefix}/reference/:api`, (c) => addSlash(c))
    .get(`${prefix}/reference/:api/`, async (c) => {
      return versionIndex(c, await readable(c, undefined, undefined, true));
    })
    // Before `/:version`: a version labelled "changes" stays reachable with its trailing slash.
    .get(`${prefix}/reference/:api/changes`, async (c) => {
      const ctx = await readable(c);
      const db = getDb(c.env.DB);
      const { from, to, result } = await versionChanges(c.env, db, ctx.api, changesLabel(c.req.url, "from"), changesLabel(c.req.url, "to"));
      const catalog = catalogFor(c.env, ctx.portal.id);
      const [toRows, fromRows] = await Promise.all([listOperations(catalog, to.id), listOperations(catalog, from.id)]);
      const slugs = (rows: OperationRow[]) => new Map(rows.filter((r) => r.kind !== "callback").map((r) => [`${r.method.toUpperCase()} ${r.path}`, r.slug]));
      const toSlugs = slugs(toRows);
      const fromSlugs = slugs(fromRows);
      const ref = apiRef(ctx.api);
      const html = renderChangesPage({
        ...(await pageProps(c, ctx, `${ctx.base}/reference/${ctx.api.slug}/changes`)),
        from: from.label,
        to: to.label,
        labels: ctx.versions.map((v) => v.label),
        result,
        operationHref: (method, path) => {
          const key = `${method} ${path}`;
          const slug = toSlugs.get(key);
          if (slug !== undefined) return operationUrl(ctx.base, ref, to.label, slug);
          const old = fromSlugs.get(key);
          return old !== undefined ? operationUrl(ctx.base, ref, from.label, old) : undefined;
        },
      });
      return c.html(html);
    })
    .get(`${prefix}/reference/:api/:version`, (c) => addSlash(c))
    .get(`${prefix}/reference/:api/:version/`, async (c) => {
      return versionIndex(c, await readable(c, labelParam(c), undefined, true));
    })
    .get(`${prefix}/reference/:api/:version/:slug`, async (c) => {
      const db = getDb(c.env.DB);
      const slug = c.req.param("slug");
      const ctx = await readable(c, labelParam(c), slug, true);
      const row = ctx.operation;
      if (!row) {
        // A renamed operationId (same method + path) answers 301 to its new slug; an operation absent from this
        // version sends the reader to its tag on the version index; else there is nothing to show.
        const moved = await findMovedOperation(db, catalogFor(c.env, ctx.portal.id), ctx.api.id, ctx.version.id, slug);
        if (moved && "slug" in moved) return c.redirect(versionPath(ctx) + encodeURIComponent(moved.slug), 301);
        if (moved) return c.redirect(`${versionPath(ctx)}#${tagAnchor(moved.tag)}`, 302);
        throw new ApiError(404, "not-found", `no operation "${slug}" in ${ctx.api.slug} ${ctx.version.label}`);
      }
      // Everything the page reads, in one round of parallel reads (the page's props too: they need no slice).
      const [header, slice, siblings, guides, approved, tag, page] = await Promise.all([
        getHeader(c.env.MODELS, ctx.version.modelKey),
        getSlice(c.env.MODELS, ctx.version.modelKey, sliceLocationOf(row)),
        operationSummariesOfTag(catalogFor(c.env, ctx.portal.id), ctx.version, row.tag),
        ctx.live ? guidesLinkingTo(c, ctx.portal, ctx.api.slug, slug) : [],
        ctx.page?.approved ?? approvedEntriesOfApi(db, ctx.api.id, ctx.version.id),
        fragmentTag(ctx.version.modelKey),
        pagePropsAndRelease(c, ctx, versionPath(ctx) + encodeURIComponent(slug)),
      ]);
      // Badges from approved changelog entries of this API up to the version shown, newest first.
      const entries = approved.map((e) => ({ version: e.version, apiSlug: e.apiSlug, bullets: JSON.parse(e.bullets) as DraftBullet[] }));
      const badges = historyBadges(entries, row.method.toUpperCase(), row.path, levelOf);
      // The changelog page belongs to the portal's content release: without one, badges are not links.
      const linked = badges.length > 0 && page.hasRelease;
      const history = badges.map((b) => ({ kind: b.kind, label: b.label, ...(linked ? { href: `${ctx.base}/changelog#${b.slug}` } : {}) }));
      if (!header || !slice) throw new ApiError(404, "not-found", "this operation's model is not available");
      const html = renderOperationPage({
        ...page.props,
        header,
        slice,
        nav: [...siblings],
        guides,
        history,
        fragmentHref: fragmentHref(ctx, slug, tag),
        articleKey: `${ctx.version.modelKey}/${slug}`,
      });
      return c.html(html);
    })
    // A deferred schema body (`3.1`) or example (`x0`) of an operation page (render/components/defer.tsx). `m` names the model and render
    // format it was numbered under, so the URL is immutable; another `m` (the label re-published since) is a 404.
    .get(`${prefix}/reference/:api/:version/:slug/fragments/:id{(?:x[0-9]+|[0-9]+(?:\\.[0-9]+){0,31})}`, async (c) => {
      const slug = c.req.param("slug");
      const ctx = await readable(c, labelParam(c), slug);
      const row = ctx.operation;
      if (!row) throw new ApiError(404, "not-found", `no operation "${slug}" in ${ctx.api.slug} ${ctx.version.label}`);
      const tag = await fragmentTag(ctx.version.modelKey);
      if (c.req.query("m") !== tag) throw new ApiError(404, "not-found", "this part belongs to an earlier publication of the page: reload the operation");
      const [header, slice] = await Promise.all([
        getHeader(c.env.MODELS, ctx.version.modelKey),
        getSlice(c.env.MODELS, ctx.version.modelKey, sliceLocationOf(row)),
      ]);
      if (!header || !slice) throw new ApiError(404, "not-found", "this operation's model is not available");
      const html = renderOperationFragment({
        // No Authorize control or variables: fragments are public and immutable (an example carrying a `{{name}}`
        // placeholder is never deferred, so no fragment needs a reader's values).
        ...baseProps(c, ctx, versionPath(ctx) + encodeURIComponent(slug)),
        header, slice, nav: [],
        fragmentHref: fragmentHref(ctx, slug, tag),
        operationHref: versionPath(ctx) + encodeURIComponent(slug),
      }, c.req.param("id"));
      if (html === undefined) throw new ApiError(404, "not-found", "no such part of this operation's page");
      c.header("x-robots-tag", "noindex");
      // Public portals: immutable (the access middleware turns this into private, no-store where readers matter).
      c.header("cache-control", "public, max-age=31536000, immutable");
      return c.html(html);
    })
    // The Try-it panel's spec of one operation (worker/openapi/samples/try-spec.ts), loaded when a reader opens the
    // panel so that pages carry only its URL. Carries the reader's API key: private, never cached.
    .get(`${prefix}/reference/:api/:version/:slug/try.json`, async (c) => {
      const slug = c.req.param("slug");
      const ctx = await readable(c, labelParam(c), slug);
      const row = ctx.operation;
      if (!row) throw new ApiError(404, "not-found", `no operation "${slug}" in ${ctx.api.slug} ${ctx.version.label}`);
      const [header, slice, authorize, defaults] = await Promise.all([
        getHeader(c.env.MODELS, ctx.version.modelKey),
        getSlice(c.env.MODELS, ctx.version.modelKey, sliceLocationOf(row)),
        authorizeState(c, ctx.portal, versionPath(ctx) + encodeURIComponent(slug)),
        liveVariableDefaults(c.env.DB, ctx.portal.id),
      ]);
      if (!header || !slice || slice.summary.kind !== "operation") throw new ApiError(404, "not-found", "this operation cannot be tried");
      // The `{{name}}` values the page's code samples carry (pageProps), so the panel starts from the same request.
      const variables = { ...defaults, ...ctx.state.reader("en").variables, ...(authorize.apiKey ? { api_key: authorize.apiKey } : {}) };
      const spec = fillTrySpec(buildTrySpec(slice, header, ctx.api.slug, ctx.version.label), variables);
      c.header("cache-control", "private, no-store");
      c.header("x-robots-tag", "noindex");
      return c.json(authorize.apiKey ? { ...spec, apiKey: authorize.apiKey } : spec);
    })
}

export const referenceRoutes = referencePages(referencePages(new Hono<AppEnv>()
  .get("/p/:portal", (c) => addSlash(c))
  .get("/p/:portal/", async (c) => {
    const db = getDb(c.env.DB);
    const { portal } = seePortal(c, { portal: await loadPortal(db, c.req.param("portal")) });
    const state = await readerState(c, portal);
    requireSignInFor(c, state, portal, "/");
    const apis = (await listApis(db, portal.id)).filter((a) => a.liveVersionId !== null && mayRead(state, a.slug));
    const entries = await Promise.all(
      apis.map(async (a) => {
        const live = await findVersionById(db, a.liveVersionId!);
        return { ...apiRef(a), liveVersion: live?.label, operations: live?.operations };
      }),
    );
    const chrome = (await loadChrome(c, portal.slug))?.chrome;
    return c.html(renderPortalHome({ portal: { slug: portal.slug, name: portal.name }, basePath: portalBasePath(portal), apis: entries, ...(chrome ? { chrome } : {}) }));
  })
  , "/p/:portal/preview/:token"), "/p/:portal")
  .onError(async (error, c) => {
    if (error instanceof SignInRequired) return c.redirect(error.location, 303);
    if (error instanceof ApiError) {
      return new Response(renderErrorPage({ status: error.status, title: error.status === 404 ? "Not found" : "Error", message: error.message, chrome: await errorChrome(c) }), {
        status: error.status,
        headers: HTML_HEADERS,
      });
    }
    throw error;
  });
