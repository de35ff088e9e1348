/** @module Building a {@link ShellChrome} from what a request already knows; pure (no bindings). */
import type { ShellChrome, ShellTab } from "./types";

/** What the tabs are made of, already filtered for the reader. */
export interface TabSources {
  basePath: string;
  /** Path (under basePath) of the first guide or code step in navigation order, when the reader may read one. */
  firstGuide?: string;
  /** The reader's live APIs, in the portal's order. */
  apis: { slug: string; title: string }[];
  /** Whether the portal has a content release (its changelog page exists). */
  changelog: boolean;
}

/**
 * The top-bar tabs, in a fixed order: Guides, the API reference (one tab; with several APIs, one tab per API, so
 * each is one click away), Changelog.
 */
export function shellTabs(s: TabSources): ShellTab[] {
  const tabs: ShellTab[] = [];
  if (s.firstGuide) tabs.push({ key: "guides", title: "Guides", href: s.basePath + s.firstGuide });
  const api = (a: { slug: string }) => `${s.basePath}/reference/${encodeURIComponent(a.slug)}/`;
  if (s.apis.length === 1) tabs.push({ key: `api:${s.apis[0].slug}`, title: "API reference", href: api(s.apis[0]) });
  else for (const a of s.apis) tabs.push({ key: `api:${a.slug}`, title: a.title, href: api(a) });
  if (s.changelog) tabs.push({ key: "changelog", title: "Changelog", href: `${s.basePath}/changelog` });
  return tabs;
}

/**
 * The chrome of a page rendered without the request's (unit tests, a 404 before any portal is known): the name
 * and a home link only, so such pages still have the shell's landmarks.
 */
export function minimalChrome(name = "Portico", basePath = ""): ShellChrome {
  return { name, basePath, tabs: [], locale: "en", search: false };
}
