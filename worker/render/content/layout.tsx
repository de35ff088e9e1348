/**
 * @module The written content's place in the reader shell: its sidebar (the navigation of portico.yaml, plus
 * Changelog and Glossary) and the props content pages pass. Every list comes from `Site`, so it only names pages
 * the reader may read.
 */
import type { ComponentChildren } from "preact";
import type { NavGroup, Site } from "../../content/site";
import { ReaderShell } from "../shell/reader-shell";
import type { Crumb, ShellChrome, TocItem } from "../shell/types";

/** What a content page passes to {@link ContentShell}. */
export interface ShellProps {
  chrome: ShellChrome;
  site: Site;
  locale: string;
  /** Nav key of the current page (`guide:intro`), highlighted. */
  current?: string;
  /** Top-bar tab of the page (`guides`, `changelog`). */
  tab?: string;
  crumbs: Crumb[];
  toc?: TocItem[];
  children: ComponentChildren;
}

/** Past this many links, only the current group lists its pages; the others link to their first page. */
export const NAV_FULL_LIMIT = 150;

function Nav({ groups, basePath, current }: { groups: NavGroup[]; basePath: string; current?: string }) {
  const full = groups.reduce((n, g) => n + g.links.length, 0) <= NAV_FULL_LIMIT;
  return (
    <nav class="cnav" aria-label="Documentation">
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

/** A content page in the reader shell, the guides' navigation as its sidebar. */
export function ContentShell(p: ShellProps) {
  return (
    <ReaderShell chrome={p.chrome} tab={p.tab} crumbs={p.crumbs} toc={p.toc} mainClass="cmain"
      sidebar={<Nav groups={p.site.navigation(p.locale)} basePath={p.chrome.basePath} current={p.current} />}>
      {p.children}
    </ReaderShell>
  );
}
