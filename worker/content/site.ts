/**
 * @module What a reader sees of a content release: navigation, page lookup with locale fallback, prev/next,
 * tags and related pages. Every list is filtered through `canRead` first (nothing of a page the reader cannot
 * open appears anywhere: title, slug, count). Platform-free; the routes feed it D1 rows.
 */
import { canRead, type ReaderContext } from "../access/reader";
import type { ContentConfig, PageKind, PageMeta } from "./types";

/** An API reference as navigation lists it. */
export interface SiteApi {
  slug: string;
  title: string;
}

export interface NavLink {
  title: string;
  /** Path after the portal base (`/guides/intro`, `/de/guides/intro`, `/reference/pets/`). */
  path: string;
  kind: PageKind | "api";
  key: string;
}

export interface NavGroup {
  title: string;
  links: NavLink[];
}

/** A release's pages for one reader: only what the reader may read. */
export class Site<P extends PageMeta = PageMeta> {
  readonly defaultLocale: string;
  private readonly pages: P[];
  /** `kind:locale:slug` → page (lookups stay O(1) on releases of thousands of pages). */
  private readonly index = new Map<string, P>();
  private navCache = new Map<string, NavGroup[]>();

  constructor(readonly config: ContentConfig, pages: P[], readonly apis: SiteApi[], readonly reader: ReaderContext) {
    this.defaultLocale = config.locales[0];
    this.pages = pages.filter((p) => canRead(reader, p.labels));
    for (const p of this.pages) this.index.set(`${p.kind}:${p.locale}:${p.slug}`, p);
  }

  /** Path (after the base) of a page in a locale. */
  path(kind: PageKind, slug: string, locale: string): string {
    const prefix = locale === this.defaultLocale ? "" : `/${locale}`;
    return kind === "changelog" ? `${prefix}/changelog#${slug}` : `${prefix}/${kind === "guide" ? "guides" : "steps"}/${slug}`;
  }

  /** The page in `locale`, else in the default locale (`fallback` true); undefined when unreadable or absent. */
  find(kind: PageKind, slug: string, locale: string): { page: P; fallback: boolean } | undefined {
    const exact = this.index.get(`${kind}:${locale}:${slug}`);
    if (exact) return { page: exact, fallback: false };
    const main = this.index.get(`${kind}:${this.defaultLocale}:${slug}`);
    return main ? { page: main, fallback: locale !== this.defaultLocale } : undefined;
  }

  /** Locales a page exists in (for hreflang and the locale switcher). */
  variants(kind: PageKind, slug: string): string[] {
    return this.config.locales.filter((l) => this.index.has(`${kind}:${l}:${slug}`));
  }

  private link(kind: "guide" | "step", slug: string, locale: string): NavLink | undefined {
    const found = this.find(kind, slug, locale);
    if (!found) return undefined;
    return { title: found.page.title, path: this.path(kind, slug, locale), kind, key: `${kind}:${slug}` };
  }

  private byOrder(kind: PageKind): P[] {
    return this.pages.filter((p) => p.kind === kind && p.locale === this.defaultLocale).sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
  }

  /** Navigation groups of portico.yaml (or Guides / Code steps / API reference by default), readable items only. */
  navigation(locale: string): NavGroup[] {
    const cached = this.navCache.get(locale);
    if (cached) return cached;
    const groups: NavGroup[] = [];
    this.navCache.set(locale, groups);
    const api = (slug: string): NavLink | undefined => {
      const a = this.apis.find((x) => x.slug === slug);
      return a ? { title: a.title, path: `/reference/${encodeURIComponent(a.slug)}/`, kind: "api", key: `api:${a.slug}` } : undefined;
    };
    if (this.config.navigation.length > 0) {
      for (const g of this.config.navigation) {
        const links = g.items.map((item) => {
          const m = /^(guides|steps)\/(.+)$/.exec(item);
          if (m) return this.link(m[1] === "guides" ? "guide" : "step", m[2].replace(/\.md$/, ""), locale);
          return item.startsWith("api:") ? api(item.slice(4)) : undefined;
        }).filter((l): l is NavLink => l !== undefined);
        if (links.length) groups.push({ title: g.title, links });
      }
    } else {
      const guides = this.byOrder("guide").map((p) => this.link("guide", p.slug, locale)!).filter(Boolean);
      const steps = this.byOrder("step").map((p) => this.link("step", p.slug, locale)!).filter(Boolean);
      if (guides.length) groups.push({ title: "Guides", links: guides });
      if (steps.length) groups.push({ title: "Code steps", links: steps });
      if (this.apis.length) groups.push({ title: "API reference", links: this.apis.map((a) => api(a.slug)!) });
    }
    return groups;
  }

  /** Previous and next pages (guides and steps) in navigation order. */
  neighbours(kind: PageKind, slug: string, locale: string): { prev?: NavLink; next?: NavLink; group?: string } {
    const flat = this.navigation(locale).flatMap((g) => g.links.filter((l) => l.kind !== "api").map((l) => ({ ...l, group: g.title })));
    const i = flat.findIndex((l) => l.key === `${kind}:${slug}`);
    if (i < 0) return {};
    return { prev: flat[i - 1], next: flat[i + 1], group: flat[i].group };
  }

  /** Pages of the default locale (or their variant in `locale`) carrying `tag`. */
  tagged(tag: string, locale: string): P[] {
    return this.pages.filter((p) => p.kind !== "changelog" && p.locale === this.defaultLocale && p.tags.includes(tag)).map((p) => this.find(p.kind, p.slug, locale)!.page);
  }

  /** Up to `max` pages sharing the most tags with `page`. */
  related(page: P, max = 5): P[] {
    if (page.tags.length === 0) return [];
    return this.pages
      .filter((p) => p.kind !== "changelog" && p.locale === page.locale && !(p.kind === page.kind && p.slug === page.slug))
      .map((p) => ({ p, shared: p.tags.filter((t) => page.tags.includes(t)).length }))
      .filter((x) => x.shared > 0)
      .sort((a, b) => b.shared - a.shared || a.p.title.localeCompare(b.p.title))
      .slice(0, max)
      .map((x) => x.p);
  }

  /**
   * Readable changelog entries, newest first, optionally filtered: the default locale's entries (they decide
   * which entries exist and how they filter), each in its `locale` variant where one exists.
   */
  changelog(filter: { type?: string; api?: string; tag?: string } = {}, locale = this.defaultLocale): P[] {
    return this.pages
      .filter((p) => p.kind === "changelog" && p.changelog && p.locale === this.defaultLocale)
      .filter((p) => (!filter.type || p.changelog!.type === filter.type) && (!filter.api || p.changelog!.api === filter.api) && (!filter.tag || p.tags.includes(filter.tag)))
      .sort((a, b) => b.changelog!.date.localeCompare(a.changelog!.date) || b.changelog!.version.localeCompare(a.changelog!.version))
      .map((p) => (locale === this.defaultLocale ? p : this.find("changelog", p.slug, locale)!.page));
  }

  /** Every readable guide and step (all locales), for the sitemap and llms.txt. */
  documents(): P[] {
    return this.pages.filter((p) => p.kind !== "changelog");
  }

  /** The home page's guide: the navigation's first guide or step, else the first guide by order. */
  first(locale: string): NavLink | undefined {
    return this.navigation(locale).flatMap((g) => g.links).find((l) => l.kind !== "api");
  }
}
