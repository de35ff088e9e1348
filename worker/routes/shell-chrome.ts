/**
 * @module The reader shell's chrome for a request (render/shell/types.ts): the portal's name and logo, the tabs
 * this reader may open, the locale links and the reader's controls. One builder for every reader route, so the
 * guides, the reference, search, sign-in and error pages show the same banner.
 */
import { can } from "../workspace/plans";
import type { Context } from "hono";
import { apiLabels, labelPages } from "../access/labels";
import { canRead, type ReaderContext } from "../access/reader";
import { pathNeedsSignIn } from "../access/policy";
import { readerState, type ReaderState } from "../access/resolve";
import { hasThemeStylesheet, mergeBrand, themeStylesheet, type Brand } from "../content/brand";
import { allowInlineStyle } from "../http/security-headers";
import { BASE_MARKER } from "../content/markers";
import { Site } from "../content/site";
import type { AppEnv } from "../env";
import { portalBasePath, type PortalAddress } from "../render/shell/base-path";
import { shellTabs } from "../render/shell/chrome";
import type { ShellAccount, ShellChrome } from "../render/shell/types";
import type { AuthorizeState } from "../render/types";
import type { PageRow } from "../store/content";
import { portalBrand } from "../store/portals";
import { loadContentSite, type ContentSiteData } from "../store/content-site";

/** The live APIs this reader may open (tabs, navigation, llms.txt, the home). */
export function readableApis<A extends { slug: string }>(state: ReaderState, reader: ReaderContext, apis: A[]): A[] {
  return apis.filter((a) => canRead(reader, apiLabels(state.access.policy, a.slug, state.access.navigation)));
}

/** The content release as this reader sees it (navigation, first guide), or undefined without a release. */
export function readerSite(data: ContentSiteData, state: ReaderState, reader: ReaderContext): Site<PageRow> | undefined {
  if (!data.release) return undefined;
  const config = data.release.config;
  const pages = labelPages(data.pages, state.access.policy, config.navigation, data.release.id);
  return new Site(config, pages, readableApis(state, reader, data.apis).map((a) => ({ slug: a.slug, title: a.title })), reader);
}

/** The banner's account control: sign-out for a signed-in reader, a sign-in link when the portal has a way in. */
export function shellAccount(state: ReaderState, portal: PortalAddress): ShellAccount | undefined {
  const who = state.identity;
  const auth = `${portalBasePath(portal)}/auth`;
  if (who) return { signedInAs: who.email ?? (who.method === "password" ? "Signed in" : who.readerId), signOutAction: `${auth}/signout` };
  return state.access.policy.methods.length > 0 ? { signInHref: `${auth}/signin` } : undefined;
}

/** What {@link buildChrome} needs beyond the portal's data. */
export interface ChromeInput {
  data: ContentSiteData;
  state: ReaderState;
  reader: ReaderContext;
  /** The reader's view of the release, when the caller has built it already. */
  site?: Site<PageRow>;
  /** Reader URLs' prefix; a preview's differs from the portal's. */
  basePath?: string;
  locale?: string;
  localeLinks?: ShellChrome["localeLinks"];
  authorize?: AuthorizeState;
  /** A writer's preview: no search, no account control. */
  preview?: boolean;
  /** A Git branch preview (docs/git.md): its own search (`{basePath}/search.json`), no account control. */
  branchPreview?: boolean;
}

/** The brand readers see: PATCH /v1/portal's over the release's portico.yaml `brand`, file URLs still marked. */
export function effectiveBrand(data: ContentSiteData): Brand {
  return mergeBrand(data.release?.config.brand, portalBrand(data.portal));
}

/** {@link effectiveBrand} with its file URLs under `basePath` (the portal's, or a preview's). */
export function resolvedBrand(data: ContentSiteData, basePath: string): Brand {
  return JSON.parse(JSON.stringify(effectiveBrand(data)).replaceAll(BASE_MARKER, basePath)) as Brand;
}

/** The portal's name as readers see it: brand `name`, else portico.yaml `name`, else the portal's own. */
export function portalName(data: ContentSiteData): string {
  return effectiveBrand(data).name ?? data.release?.config.name ?? data.portal.name;
}

/**
 * The brand's design tokens and `@font-face` rules (content/brand.ts themeStylesheet) for pages under `basePath`,
 * written into each page's head as one `<style>` (a few hundred bytes): a separate `/theme.css` was one more
 * render-blocking request, a Worker route reading D1, before the first paint. Undefined without a brand colour or
 * font. Every value in it was validated at publish or PATCH; a `<` would still be refused here, as it could close
 * the element.
 */
export function themeStyle(data: ContentSiteData, basePath: string): string | undefined {
  return themeStyleOf(resolvedBrand(data, basePath));
}

/** {@link themeStyle} of a brand already resolved under the page's base path. */
function themeStyleOf(brand: Brand): string | undefined {
  if (!hasThemeStylesheet(brand)) return undefined;
  const css = themeStylesheet(brand);
  return css && !css.includes("<") ? css : undefined;
}

/** Admits the page's {@link themeStyle} in its CSP (by hash), for routes that build chromes of `data` later. */
export function allowThemeStyle(c: Context<AppEnv>, data: ContentSiteData, basePath: string): void {
  const css = themeStyle(data, basePath);
  if (css) allowInlineStyle(c, css);
}

/** Admits the `<style>` a built chrome carries in the page's CSP (by hash), without resolving the brand again. */
export function allowChromeStyle(c: Context<AppEnv>, chrome: ShellChrome): void {
  if (chrome.themeStyle) allowInlineStyle(c, chrome.themeStyle);
}

/** A brand link's URL: portal paths (`/guides/x`) under the portal's base path, other URLs as written. */
function linkHref(basePath: string, href: string): string {
  return href.startsWith("/") ? basePath + href : href;
}

/** The chrome of one page for this reader. */
export function buildChrome(i: ChromeInput): ShellChrome {
  const basePath = i.basePath ?? portalBasePath(i.data.portal);
  const release = i.data.release;
  const site = i.site ?? readerSite(i.data, i.state, i.reader);
  const locale = i.locale ?? release?.config.locales[0] ?? "en";
  const first = site?.first(locale);
  const brand = resolvedBrand(i.data, basePath);
  const themeCss = themeStyleOf(brand);
  // A signed-out reader of a private portal is shown no way into what would only send them to sign in.
  const open = (path: string) => !!i.state.identity || !pathNeedsSignIn(i.state.access.policy, path);
  return {
    name: portalName(i.data),
    ...(brand.logo ? { logo: brand.logo } : {}),
    ...(brand.favicon ? { favicon: brand.favicon } : {}),
    basePath,
    tabs: shellTabs({ basePath, firstGuide: first && first.kind !== "api" ? first.path : undefined, apis: readableApis(i.state, i.reader, i.data.apis), changelog: !!release && open("/changelog") }),
    ...(brand.navigation?.length ? { links: brand.navigation.map((l) => ({ title: l.title, href: linkHref(basePath, l.href) })) } : {}),
    ...(brand.footer?.length ? { footerLinks: brand.footer.map((l) => ({ title: l.title, href: linkHref(basePath, l.href) })) } : {}),
    ...(brand.themeDefault === "light" || brand.themeDefault === "dark" ? { themeDefault: brand.themeDefault } : {}),
    locale,
    ...(i.localeLinks ? { localeLinks: i.localeLinks } : {}),
    search: (!i.preview || !!i.branchPreview) && open("/search"),
    // (A branch preview has no assistant: its answers would come from the live portal, not the branch.)
    ...(i.branchPreview || (i.data.portal.owner && !can(i.data.portal.owner, "assistant")) ? { assistant: false } : {}),
    ...(i.authorize ? { authorize: i.authorize } : {}),
    ...(i.preview || i.branchPreview ? {} : { account: shellAccount(i.state, i.data.portal) }),
    ...(themeCss ? { themeStyle: themeCss } : {}),
    ...(brand.css ? { customCss: brand.css } : {}),
  };
}

/**
 * The chrome for a page of portal `slug` when the route has not loaded the content site (reference, search,
 * sign-in, error pages): one D1 batch (the release itself is cached per isolate). Undefined for an unknown portal.
 */
export async function loadChrome(c: Context<AppEnv>, slug: string, extra: Pick<ChromeInput, "authorize"> = {}): Promise<{ chrome: ShellChrome; data: ContentSiteData } | undefined> {
  const data = await loadContentSite(c.env, slug);
  if (!data) return undefined;
  const state = await readerState(c, data.portal);
  const chrome = buildChrome({ data, state, reader: state.reader(data.release?.config.locales[0] ?? "en"), ...extra });
  allowChromeStyle(c, chrome);
  return { chrome, data };
}

/** The chrome of an error page: the portal's when the URL names one that exists, else none (a minimal shell). */
export async function errorChrome(c: Context<AppEnv>): Promise<ShellChrome | undefined> {
  const slug = c.req.param("portal");
  if (!slug) return undefined;
  try {
    return (await loadChrome(c, slug))?.chrome;
  } catch {
    // An error page must render even when the portal's data cannot be read (the error may be that very failure).
    return undefined;
  }
}
