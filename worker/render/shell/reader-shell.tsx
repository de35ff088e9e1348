/**
 * @module The reader shell: the one layout every reader page renders in. Skip link, the banner
 * ({@link ShellTopBar}), the section's sidebar (collapsed behind the menu button on phones), breadcrumbs, the
 * page in `<main>`, an on-this-page list where the page has one, the footer. Landmarks: banner, "Sections",
 * the sidebar's own navigation, "Breadcrumb", main, "On this page", contentinfo; each named once.
 */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { PageFeedback } from "./page-feedback";
import { ShellTopBar, SIDEBAR_ID } from "./top-bar";
import type { Crumb, ShellChrome, TocItem } from "./types";

/** What one page puts into the shell. */
export interface ShellPageProps {
  chrome: ShellChrome;
  /** Key of the current top-bar tab. */
  tab?: string;
  /** The section's navigation (a `<nav>` with its own label), shown as the sidebar. */
  sidebar?: ComponentChildren;
  crumbs?: Crumb[];
  toc?: TocItem[];
  /** Extra class of `<main>` (a page type's own spacing). */
  mainClass?: string;
  /** The search page's query, kept in the top bar's box. */
  query?: string;
  children?: ComponentChildren;
}

function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav class="crumbs" aria-label="Breadcrumb">
      <ol>{crumbs.map((c, i) => <li>{c.href && i < crumbs.length - 1 ? <a href={c.href}>{c.title}</a> : <span aria-current={i === crumbs.length - 1 ? "page" : undefined}>{c.title}</span>}</li>)}</ol>
    </nav>
  );
}

/** The footer (landmark `contentinfo`), the same on every page: the brand's links, and the "Connect your AI tool" page (MCP). */
export function ShellFooter({ chrome }: { chrome: ShellChrome }) {
  return (
    <footer class="foot">
      {chrome.footerLinks && chrome.footerLinks.length > 0 && (
        <ul class="foot-links">{chrome.footerLinks.map((l) => <li><a href={l.href}>{l.title}</a></li>)}</ul>
      )}
      <p>{chrome.name} · documentation rendered by Portico. <a href={`${chrome.basePath}/connect`}>Connect your AI tool</a></p>
    </footer>
  );
}

/** A whole page body (no document head) around `children`. */
export function ReaderShell(p: ShellPageProps) {
  const toc = p.toc && p.toc.length > 0 ? p.toc : undefined;
  const cls = ["layout", p.sidebar ? "" : "no-side", toc ? "has-toc" : ""].filter(Boolean).join(" ");
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <ShellTopBar chrome={p.chrome} tab={p.tab} menu={!!p.sidebar} query={p.query} />
      <div class={cls}>
        {p.sidebar && (
          <>
            {/* Without script, a checkbox and its label open the sidebar on phones; with script the banner's button does. */}
            <input type="checkbox" id="menu-open" class="menu-open nojs" aria-controls={SIDEBAR_ID} />
            <label for="menu-open" class="menu-lbl nojs">Menu</label>
            <div class="sidebar" id={SIDEBAR_ID}>{p.sidebar}</div>
          </>
        )}
        <main id="main" class={p.mainClass}>
          {p.crumbs && p.crumbs.length > 0 && <Breadcrumbs crumbs={p.crumbs} />}
          {p.children}
          {/* Live pages only (a preview's figures would mix with the portal's); not on the search page. */}
          {p.chrome.search && p.query === undefined && <PageFeedback basePath={p.chrome.basePath} />}
        </main>
        {toc && (
          <aside class="toc" aria-label="On this page">
            <p class="toc-h" aria-hidden="true">On this page</p>
            <ul>{toc.map((t) => <li class={`l${t.level}`}><a href={`#${t.id}`}>{t.text}</a></li>)}</ul>
          </aside>
        )}
      </div>
      <ShellFooter chrome={p.chrome} />
    </>
  );
}

/**
 * The shell as two strings around the inside of `<main>`, for pages that stream their body (the single-page
 * reference). A random marker splits one render, so the two halves are exactly what {@link ReaderShell} writes.
 */
export function shellParts(p: Omit<ShellPageProps, "children">): { start: string; end: string } {
  const marker = `\u0000shell-${crypto.randomUUID()}\u0000`;
  const html = renderToString(<ReaderShell {...p}>{marker}</ReaderShell>);
  const at = html.indexOf(marker);
  return { start: html.slice(0, at), end: html.slice(at + marker.length) };
}
