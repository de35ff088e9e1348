/** @module The banner: portal name, API and version switchers (links without script), theme toggle. */
import Switcher from "../../../client/islands/switcher";
import SearchBox from "../../../client/islands/search-box";
import ThemeToggle from "../../../client/islands/theme-toggle";
import type { PageProps } from "../types";
import { apiUrl, operationUrl, versionUrl } from "../urls";
import { Authorize } from "./authorize";
import { Island } from "./island";

/**
 * `slug` keeps the reader on the same operation when switching versions (page-per-operation layout);
 * on single pages and indexes the switcher island carries the `#fragment` instead.
 */
export function TopBar({ page, slug }: { page?: PageProps; slug?: string }) {
  return (
    <header class="top">
      <a class="skip" href="#main">Skip to content</a>
      {page ? <a class="brand" href={`${page.basePath}/`}>{page.portal.name}</a> : <span class="brand">Portico</span>}
      {page && page.apis.length > 1 && (
        <Island name="switcher" component={Switcher} props={{
          label: "API", current: page.api.title, keepHash: false,
          items: page.apis.map((a) => ({ label: a.title, href: apiUrl(page.basePath, a.slug), current: a.slug === page.api.slug })),
        }} />
      )}
      {page && page.apis.length <= 1 && <span class="api-title">{page.api.title}</span>}
      {page && (
        <Island name="switcher" component={Switcher} props={{
          label: "Version", current: page.version.label, keepHash: !slug,
          items: page.versions.map((v) => ({
            label: v.label,
            href: slug && page.api.layout !== "single-page" ? operationUrl(page.basePath, page.api, v.label, slug) : versionUrl(page.basePath, page.api.slug, v.label),
            current: v.label === page.version.label,
            note: v.live ? "live" : undefined,
          })),
        }} />
      )}
      <span class="grow" />
      {page?.authorize && <Authorize state={page.authorize} />}
      {page && <Island name="search-box" component={SearchBox} props={{ base: page.basePath }} />}
      <Island name="theme-toggle" component={ThemeToggle} props={{}} />
    </header>
  );
}
