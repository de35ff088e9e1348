// The reader page types of the demo, one path each: the list the accessibility test (test/e2e/a11y.test.ts) judges
// and the shell benchmark (bench/shell.mjs) measures, so a new page type is added to both at once.

/**
 * Page type → path (under the server's origin) on the demo content and definition as they publish it.
 * @param {{ portal: string, single: string, api: string, version: string, singleApi: string, singleVersion: string }} where
 *   the demo portal, a second portal whose API `singleApi` uses the single-page layout, and the versions shown
 * @returns {[string, string][]}
 */
export function readerPageTypes({ portal, single, api, version, singleApi, singleVersion }) {
  return [
    ["home (first guide)", `/p/${portal}/`],
    ["guide", `/p/${portal}/guides/authentication`],
    ["guide (fr)", `/p/${portal}/fr/guides/quickstart`],
    ["code steps", `/p/${portal}/steps/create-first-shipment`],
    ["reference index", `/p/${portal}/reference/${api}/${version}/`],
    ["operation", `/p/${portal}/reference/${api}/${version}/createshipment`],
    ["single page", `/p/${single}/reference/${singleApi}/${singleVersion}/`],
    ["changes", `/p/${portal}/reference/${api}/changes`],
    ["changelog", `/p/${portal}/changelog`],
    ["glossary", `/p/${portal}/glossary`],
    ["tag", `/p/${portal}/tags/shipping`],
    ["search", `/p/${portal}/search?q=shipment`],
    ["sign-in", `/p/${portal}/auth/signin`],
    ["connect (MCP)", `/p/${portal}/connect`],
    ["portal home (no guides)", `/p/${single}/`],
    ["404", `/p/${portal}/guides/no-such-page`],
  ];
}

/**
 * The dashboard's page types (issue 32), one path each, for a signed-in owner of organisation `org` whose portal
 * `portal` holds API `api` at `version` (the demo's, from "Start from a sample"): what test/e2e/dashboard.test.ts
 * judges with axe.
 * @param {{ org: string, portal: string, api: string, version: string }} where
 * @returns {[string, string][]}
 */
export function dashboardPageTypes({ org, portal, api, version }) {
  const base = `/app/orgs/${org}/portals/${portal}`;
  return [
    ["organisations", "/app"],
    ["organisation", `/app/orgs/${org}`],
    ["portal overview", base],
    ["versions", `${base}/versions`],
    ["lint report", `${base}/versions/${api}/${version}/lint`],
    ["content", `${base}/content`],
    ["access", `${base}/access`],
    ["branding", `${base}/branding`],
    ["domain", `${base}/domain`],
    ["git", `${base}/git`],
    ["analytics", `${base}/analytics`],
  ];
}
