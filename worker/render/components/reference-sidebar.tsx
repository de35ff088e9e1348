/**
 * @module The reference section's sidebar: API and version switchers (links without script), then the API's
 * operations ({@link SideNav}). The banner stays the same on every page; what is particular to one API lives here.
 */
import Switcher from "../../../client/islands/switcher";
import type { OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import type { PageProps } from "../types";
import { apiUrl, operationUrl, versionUrl } from "../urls";
import { Island } from "./island";
import { SideNav } from "./side-nav";

/** Props: those of {@link SideNav}; `slug` keeps the reader on the same operation when switching versions. */
export interface ReferenceSidebarProps {
  page: PageProps;
  header?: ReferenceHeader;
  operations?: OperationSummary[];
  currentSlug?: string;
  currentTag?: string;
  samePage?: boolean;
  listAll?: boolean;
}

/** Switchers above the operations; without a header (the changes page) the switchers alone. */
export function ReferenceSidebar(p: ReferenceSidebarProps) {
  const { page } = p;
  const slug = p.currentSlug;
  // Inside the navigation landmark: no content of the page is outside one (axe `region`).
  const switchers = (
    <div class="ref-switch">
      {page.apis.length > 1 ? (
        <Island name="switcher" component={Switcher} props={{
          label: "API", current: page.api.title, keepHash: false,
          items: page.apis.map((a) => ({ label: a.title, href: apiUrl(page.basePath, a.slug), current: a.slug === page.api.slug })),
        }} />
      ) : <span class="api-title">{page.api.title}</span>}
      <Island name="switcher" component={Switcher} props={{
        label: "Version", current: page.version.label, keepHash: !slug,
        items: page.versions.map((v) => ({
          label: v.label,
          href: slug && page.api.layout !== "single-page" ? operationUrl(page.basePath, page.api, v.label, slug) : versionUrl(page.basePath, page.api.slug, v.label),
          current: v.label === page.version.label,
          note: v.live ? "live" : undefined,
        })),
      }} />
    </div>
  );
  if (!p.header) return <nav class="side" aria-label="API reference">{switchers}</nav>;
  return <SideNav page={page} header={p.header} operations={p.operations ?? []} currentSlug={slug} currentTag={p.currentTag} samePage={p.samePage} listAll={p.listAll} top={switchers} />;
}
