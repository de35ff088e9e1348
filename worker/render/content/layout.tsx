/**
 * @module The portal layout of written content: top bar (brand, sections, locale switcher, theme toggle), the
 * navigation sidebar from portico.yaml (behind a menu button on phones: a checkbox and CSS, no script),
 * breadcrumbs, the main column and an on-this-page table of contents. Every list comes from `Site`, so it only
 * names pages the reader may read.
 */
import type { ComponentChildren } from "preact";
import SearchBox from "../../../client/islands/search-box";
import ThemeToggle from "../../../client/islands/theme-toggle";
import type { NavGroup, Site } from "../../content/site";
import { documentEnd, documentStart, esc } from "../components/document";
import { Authorize } from "../components/authorize";
import { Island } from "../components/island";
import type { AuthorizeState } from "../types";

/** Stylesheet and script of content pages (Workers static assets). */
export const CONTENT_ASSETS = { css: "/content.css", script: "/assets/content.js" } as const;

export interface ShellProps {
  site: Site;
  basePath: string;
  locale: string;
  portalName: string;
  /** The portal's logo (an asset URL), shown before its name. */
  logoUrl?: string;
  /** Nav key of the current page (`guide:intro`), highlighted. */
  current?: string;
  crumbs: { title: string; href?: string }[];
  /** Locale → path of this page in that locale, for the switcher. */
  localeLinks?: { locale: string; href: string; current: boolean }[];
  toc?: { id: string; text: string; level: number }[];
  /** The Authorize control (API key once), when the page offers it. */
  authorize?: AuthorizeState;
  /** The reader's account control: who is signed in (and a sign-out form), or where to sign in. */
  account?: { signedInAs: string; signOutAction: string } | { signInHref: string };
  children: ComponentChildren;
}

/** Past this many links, only the current group lists its pages; the others link to their first page. */
export const NAV_FULL_LIMIT = 150;

function Nav({ groups, basePath, current }: { groups: NavGroup[]; basePath: string; current?: string }) {
  const full = groups.reduce((n, g) => n + g.links.length, 0) <= NAV_FULL_LIMIT;
  return (
    <nav class="cnav" id="cnav" aria-label="Documentation">
      {groups.map((g) => full || g.links.some((l) => l.key === current) || g.links.every((l) => l.kind === "api") ? (
        <section>
          <p class="cnav-h">{g.title}</p>
          <ul>{g.links.map((l) => <li><a href={basePath + l.path} aria-current={l.key === current ? "page" : undefined}>{l.title}</a></li>)}</ul>
        </section>
      ) : (
        <section><p class="cnav-h"><a href={basePath + g.links[0].path}>{g.title}</a> <small>({g.links.length})</small></p></section>
      ))}
      <section>
        <p class="cnav-h">More</p>
        <ul>
          <li><a href={`${basePath}/changelog`} aria-current={current === "changelog" ? "page" : undefined}>Changelog</a></li>
          <li><a href={`${basePath}/glossary`} aria-current={current === "glossary" ? "page" : undefined}>Glossary</a></li>
        </ul>
      </section>
    </nav>
  );
}

/** The page body around `children` (no document head). */
export function ContentShell(p: ShellProps) {
  const groups = p.site.navigation(p.locale);
  const first = p.site.first(p.locale);
  return (
    <>
      <header class="top">
        <a class="skip" href="#main">Skip to content</a>
        <a class="brand" href={`${p.basePath}/`}>{p.logoUrl && <img class="logo" src={p.logoUrl} alt="" />}{p.portalName}</a>
        <nav class="sections" aria-label="Sections">
          {first && <a href={p.basePath + first.path}>Guides</a>}
          {p.site.apis.length > 0 && <a href={`${p.basePath}/reference/${encodeURIComponent(p.site.apis[0].slug)}/`}>API reference</a>}
          <a href={`${p.basePath}/changelog`}>Changelog</a>
        </nav>
        <span class="grow" />
        {!p.basePath.includes("/preview/") && <Island name="search-box" component={SearchBox} props={{ base: p.basePath, locale: p.locale }} />}
        {p.localeLinks && p.localeLinks.length > 1 && (
          <nav class="locales" aria-label="Language">
            {p.localeLinks.map((l) => <a href={l.href} hrefLang={l.locale} lang={l.locale} aria-current={l.current ? "true" : undefined}>{l.locale.toUpperCase()}</a>)}
          </nav>
        )}
        {p.authorize && <Authorize state={p.authorize} />}
        {p.account && ("signOutAction" in p.account ? (
          <form class="account" method="post" action={p.account.signOutAction}>
            <span class="who">{p.account.signedInAs}</span> <button type="submit">Sign out</button>
          </form>
        ) : <a class="account" href={p.account.signInHref}>Sign in</a>)}
        <Island name="theme-toggle" component={ThemeToggle} props={{}} />
      </header>
      <div class="cshell">
        <input type="checkbox" id="nav-open" class="nav-open" aria-controls="cnav" />
        <label for="nav-open" class="nav-btn">Menu</label>
        <Nav groups={groups} basePath={p.basePath} current={p.current} />
        <main id="main" class="cmain">
          <nav class="crumbs" aria-label="Breadcrumb">
            <ol>{p.crumbs.map((c, i) => <li>{c.href && i < p.crumbs.length - 1 ? <a href={c.href}>{c.title}</a> : <span aria-current={i === p.crumbs.length - 1 ? "page" : undefined}>{c.title}</span>}</li>)}</ol>
          </nav>
          {p.children}
        </main>
        {p.toc && p.toc.length > 0 && (
          <aside class="ctoc" aria-label="On this page">
            <p class="cnav-h">On this page</p>
            <ul>{p.toc.map((t) => <li class={`l${t.level}`}><a href={`#${t.id}`}>{t.text}</a></li>)}</ul>
          </aside>
        )}
      </div>
      <footer class="foot"><p>Rendered by Portico.</p></footer>
    </>
  );
}

export interface ContentHead {
  title: string;
  description?: string;
  canonicalUrl?: string;
  locale: string;
  /** Alternate locale URLs (absolute), hreflang. */
  alternates?: { locale: string; href: string }[];
  rss?: string;
  noindex?: boolean;
  /** The portal's theme stylesheet (branding accent), when it has one. */
  theme?: string;
}

/** The document around a rendered body: head with hreflang, feed link, content stylesheet and page script. */
export function contentDocument(head: ContentHead, body: string): string {
  const extra = [`<link rel="stylesheet" href="${CONTENT_ASSETS.css}">`];
  if (head.theme) extra.push(`<link rel="stylesheet" href="${esc(head.theme)}">`);
  for (const a of head.alternates ?? []) extra.push(`<link rel="alternate" hreflang="${esc(a.locale)}" href="${esc(a.href)}">`);
  // The default locale's page (listed first) also answers for languages without a variant.
  if (head.alternates && head.alternates.length > 1) extra.push(`<link rel="alternate" hreflang="x-default" href="${esc(head.alternates[0].href)}">`);
  if (head.rss) extra.push(`<link rel="alternate" type="application/rss+xml" title="Changelog" href="${esc(head.rss)}">`);
  extra.push(`<script type="module" src="${CONTENT_ASSETS.script}"></script>`);
  if (head.noindex) extra.push('<meta name="robots" content="noindex">');
  const start = documentStart({ title: head.title, description: head.description, canonicalUrl: head.canonicalUrl })
    .replace('<html lang="en">', `<html lang="${esc(head.locale)}">`)
    .replace("</head>", `${extra.join("\n")}\n</head>`);
  return start + body + documentEnd();
}
