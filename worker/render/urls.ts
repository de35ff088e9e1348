/** @module Reader URLs, built in one place so links, switchers and the anchor map agree. */
import type { ApiRef } from "./types";

/** `/p/acme/reference/pets/1.0/` (the version index, or the single page). */
export function versionUrl(basePath: string, api: string, version: string): string {
  return `${basePath}/reference/${encodeURIComponent(api)}/${encodeURIComponent(version)}/`;
}

/** `/p/acme/reference/pets/1.0/get-pet` on page-per-operation APIs, `.../1.0/#get-pet` on single-page ones. */
export function operationUrl(basePath: string, api: ApiRef, version: string, slug: string): string {
  const base = versionUrl(basePath, api.slug, version);
  return api.layout === "single-page" ? `${base}#${encodeURIComponent(slug)}` : base + encodeURIComponent(slug);
}

/** The API's default entry: its live version's reference. */
export function apiUrl(basePath: string, api: string): string {
  return `${basePath}/reference/${encodeURIComponent(api)}/`;
}

/** Anchor id of a tag heading: `tag-` + a lower-case slug of its name. */
export function tagAnchor(tag: string): string {
  return "tag-" + (tag.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "") || "x");
}

/** Where the static assets are served (Workers static assets, at the host root). */
export const ASSETS = { css: "/portico.css", themeInit: "/assets/theme-init.js", islands: "/assets/islands.js", anchors: "/assets/anchors.js" } as const;
