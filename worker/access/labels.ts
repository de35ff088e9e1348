/**
 * @module The access labels of a release's units under a portal's policy: pages (guides, code steps, changelog
 * entries) and API references. Platform-free; the result goes to `canRead` through `Site` and the routes.
 */
import type { NavGroup } from "../content/types";
import { unitLabels, type AccessSettings } from "./policy";
import { canRead, type ReaderContext } from "./reader";

/** Path of a page after `/p/{portal}`, without locale, as section prefixes see it. */
export function pagePath(kind: string, slug: string): string {
  return kind === "changelog" ? `/changelog/${slug}` : `/${kind === "step" ? "steps" : "guides"}/${slug}`;
}

const GROUP_INDEXES = new WeakMap<readonly NavGroup[], Map<string, string[]>>();

/** Navigation group titles listing each item (`guides/intro`, `steps/x`, `api:pets`; a `.md` suffix dropped). */
function groupIndex(navigation: readonly NavGroup[]): Map<string, string[]> {
  // Search asks once per distinct page with the same navigation array: build its index once.
  const known = GROUP_INDEXES.get(navigation);
  if (known) return known;
  const index = new Map<string, string[]>();
  for (const g of navigation) {
    for (const item of g.items) {
      const key = item.replace(/\.md$/, "");
      index.set(key, [...(index.get(key) ?? []), g.title]);
    }
  }
  GROUP_INDEXES.set(navigation, index);
  return index;
}

const MEMO = new Map<string, unknown[]>();
const MAX_MEMO = 32;

/**
 * `pages` with `labels` replaced by their effective labels (own, else section, else portal default). Memoised per
 * `memoKey` (a release id) and policy: releases are immutable, so the same pair always gives the same labels.
 */
export function labelPages<P extends { kind: string; slug: string; labels: string[] }>(pages: P[], policy: AccessSettings, navigation: readonly NavGroup[], memoKey?: string | number): P[] {
  const key = memoKey === undefined ? undefined : `${memoKey}|${JSON.stringify(policy)}`;
  const hit = key === undefined ? undefined : MEMO.get(key);
  if (hit) return hit as P[];
  if (policy.default === "public" && policy.sections.length === 0) return pages;
  const groups = groupIndex(navigation);
  const out = pages.map((p) => {
    const item = p.kind === "changelog" ? "" : `${p.kind === "step" ? "steps" : "guides"}/${p.slug}`;
    return { ...p, labels: unitLabels(policy, pagePath(p.kind, p.slug), p.labels, groups.get(item) ?? []) };
  });
  if (key !== undefined) {
    if (MEMO.size >= MAX_MEMO) MEMO.delete(MEMO.keys().next().value!);
    MEMO.set(key, out);
  }
  return out;
}

/** Labels of an API reference (all its versions and operations): sections with prefix `/reference/<api>` or its navigation group. */
export function apiLabels(policy: AccessSettings, apiSlug: string, navigation: readonly NavGroup[]): string[] {
  const groups = navigation.filter((g) => g.items.includes(`api:${apiSlug}`)).map((g) => g.title);
  return unitLabels(policy, `/reference/${apiSlug}/`, [], groups);
}

/**
 * Labels the policy gives a unit without labels of its own, from its path after `/p/{portal}` (no locale):
 * `/guides/x`, `/steps/x`, `/changelog/x`, `/reference/<api>/`, `/glossary`. The same answer as
 * {@link labelPages} and {@link apiLabels} for that unit; search applies it at query time.
 */
export function policyLabels(policy: AccessSettings, path: string, navigation: readonly NavGroup[]): string[] {
  const api = /^\/reference\/([^/]+)\//.exec(path);
  if (api) return apiLabels(policy, api[1], navigation);
  const item = /^\/(guides|steps)\/(.+)$/.exec(path);
  const groups = item ? (groupIndex(navigation).get(`${item[1]}/${item[2]}`) ?? []) : [];
  return unitLabels(policy, path, [], groups);
}

/**
 * Whether `reader` may open a search document: its own labels, and for a unit without labels of its own
 * (`policyPath` set) the labels the portal's current policy gives that path, so a policy change applies at once.
 */
export function documentReadable(reader: Pick<ReaderContext, "audiences">, access: { policy: AccessSettings; navigation: readonly NavGroup[] }, labels: readonly string[], policyPath?: string): boolean {
  if (!canRead(reader, labels)) return false;
  return policyPath === undefined || canRead(reader, policyLabels(access.policy, policyPath, access.navigation));
}
