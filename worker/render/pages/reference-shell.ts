/** @module The shell props every reference page shares: its chrome, the API's tab and the breadcrumb trail. */
import { minimalChrome } from "../shell/chrome";
import type { Crumb, ShellChrome } from "../shell/types";
import type { PageProps } from "../types";
import { versionUrl } from "../urls";

/** The request's chrome, or a minimal one (unit tests render pages without a request). */
export function chromeOf(p: { chrome?: ShellChrome; portal: { name: string }; basePath: string }): ShellChrome {
  return p.chrome ?? minimalChrome(p.portal.name, p.basePath);
}

/** Tab key of an API's reference (shell/chrome.ts `shellTabs`). */
export function apiTab(p: PageProps): string {
  return `api:${p.api.slug}`;
}

/** Home › API version (linking to its index unless `here`) › `tail`. */
export function referenceCrumbs(p: PageProps, ...tail: Crumb[]): Crumb[] {
  const index = `${p.api.title} ${p.version.label}`;
  return [{ title: "Home", href: `${p.basePath}/` }, { title: index, href: versionUrl(p.basePath, p.api.slug, p.version.label) }, ...tail];
}
