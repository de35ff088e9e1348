/**
 * @module What other reader surfaces list of the written content, for the reader of the request: the sitemap's
 * guide, step and changelog URLs, and the guides linking to an operation (its page's "Guides" list, or each
 * operation's on the single page).
 */
import { portalBasePath, type PortalAddress } from "../render/shell/base-path";
import type { Context } from "hono";
import { labelPages } from "../access/labels";
import { canRead } from "../access/reader";
import { readerState } from "../access/resolve";
import { Site } from "../content/site";
import type { AppEnv } from "../env";
import { linkingPages, linkingPagesForApi } from "../store/content";
import { loadContentSite } from "../store/content-site";

/** Sitemap entries of the live content the reader may read (an anonymous crawler: the public ones) (guides and steps in every locale, changelog). */
export async function contentSitemapUrls(c: Context<AppEnv>, portalSlug: string, origin: string): Promise<{ loc: string; lastmod?: string }[]> {
  const data = await loadContentSite(c.env, portalSlug);
  if (!data?.release) return [];
  const config = data.release.config;
  const state = await readerState(c, data.portal);
  const site = new Site(config, labelPages(data.pages, state.access.policy, config.navigation, data.release.id), [], state.reader(config.locales[0]));
  const base = `${origin}${portalBasePath(data.portal)}`;
  const lastmod = data.release.createdAt.slice(0, 10);
  const urls = site.documents().map((p) => ({ loc: base + site.path(p.kind, p.slug, p.locale), lastmod }));
  if (site.changelog().length > 0) for (const l of config.locales) urls.push({ loc: `${base}${l === config.locales[0] ? "" : `/${l}`}/changelog`, lastmod });
  return urls;
}

/** Guides and code steps (default locale) linking to an operation of the live version that the reader may read. */
export async function guidesLinkingTo(c: Context<AppEnv>, portal: { id: number } & PortalAddress, api: string, slug: string): Promise<{ title: string; href: string }[]> {
  const rows = await linkingPages(c.env, portal.id, `${api}#${slug}`);
  const state = await readerState(c, portal);
  const reader = state.reader(rows[0]?.locale ?? "en");
  const labelled = labelPages(rows, state.access.policy, state.access.navigation);
  return labelled.filter((r) => canRead(reader, r.labels)).map((r) => ({ title: r.title, href: `${portalBasePath(portal)}/${r.kind === "step" ? "steps" : "guides"}/${r.slug}` }));
}

/**
 * {@link guidesLinkingTo} for every operation of `api` at once (the single-page reference): operation slug → the
 * guides and steps linking to it that the reader may read, at most 20 each.
 */
export async function guidesByOperation(c: Context<AppEnv>, portal: { id: number } & PortalAddress, api: string): Promise<Map<string, { title: string; href: string }[]>> {
  const rows = await linkingPagesForApi(c.env, portal.id, api);
  const byOp = new Map<string, { title: string; href: string }[]>();
  if (rows.length === 0) return byOp;
  const state = await readerState(c, portal);
  const reader = state.reader(rows[0].locale);
  for (const r of labelPages(rows, state.access.policy, state.access.navigation)) {
    if (!canRead(reader, r.labels)) continue;
    const slug = r.operation.slice(api.length + 1);
    const list = byOp.get(slug) ?? [];
    if (list.length < 20) list.push({ title: r.title, href: `${portalBasePath(portal)}/${r.kind === "step" ? "steps" : "guides"}/${r.slug}` });
    byOp.set(slug, list);
  }
  return byOp;
}
