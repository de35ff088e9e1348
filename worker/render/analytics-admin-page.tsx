/**
 * @module The writers' analytics pages (issue 29), server-rendered shells like the changelog review page: writers
 * sign in with the portal token (sessionStorage, the editor's key) and the page's script
 * (client/entries/analytics-admin.ts) fetches the report or the backlog over the service API.
 * `/p/{portal}/admin/analytics`: a date range picker (from, to, presets), kind and audience; the report below is
 * `GET /v1/analytics/dashboard.html`. `/p/{portal}/admin/backlog`: no-hit queries grouped by meaning, a draft per
 * group to edit, discard, download as Markdown or open as a pull request (Git sync).
 */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { AdminHead, TokenSignIn } from "./components/admin-document";

/** The pages' script and stylesheet (scripts/build-client.mjs bundles client/entries/analytics-admin.ts). */
export const ANALYTICS_ADMIN_SCRIPT = "/assets/analytics-admin.js";
export const ANALYTICS_CSS = "/analytics.css";

function Page({ portal, title, view, children }: { portal: { slug: string; name: string }; title: string; view: "analytics" | "backlog"; children: ComponentChildren }) {
  const base = `/p/${encodeURIComponent(portal.slug)}/admin`;
  return (
    <html lang="en">
      <AdminHead title={`${title} · ${portal.name}`} stylesheets={[ANALYTICS_CSS]} />
      <body>
        <main id="main" class="an-admin" data-portal={portal.slug} data-view={view}>
          <nav class="an-nav" aria-label="Analytics">
            <a href={`${base}/analytics`} aria-current={view === "analytics" ? "page" : undefined}>Analytics</a>
            <a href={`${base}/backlog`} aria-current={view === "backlog" ? "page" : undefined}>Backlog</a>
          </nav>
          <h1>{title}</h1>
          <TokenSignIn />
          {children}
          <noscript>This page needs JavaScript; the same figures are available over the service API (docs/analytics.md).</noscript>
        </main>
        <script type="module" src={ANALYTICS_ADMIN_SCRIPT} />
      </body>
    </html>
  );
}

/** The dashboard page: range picker and an empty report the script fills. */
export function renderAnalyticsAdminPage({ portal }: { portal: { slug: string; name: string } }): string {
  return "<!doctype html>\n" + renderToString(
    <Page portal={portal} title="Search analytics" view="analytics">
      <form id="range" class="an-range" hidden>
        <label>From <input type="date" name="from" required /></label>
        <label>To <input type="date" name="to" required /></label>
        <label>Kind <select name="kind"><option value="search">Search</option><option value="assistant">Assistant</option></select></label>
        <label>Readers <select name="audience"><option value="all">All (writers only)</option><option value="public">Public only</option></select></label>
        <span class="an-presets">
          <button type="button" data-days="7">7 days</button> <button type="button" data-days="30">30 days</button> <button type="button" data-days="90">90 days</button> <button type="button" data-days="183">6 months</button>
        </span>
        <button type="submit">Show</button>
        <a id="csv-queries" href="#" hidden>Queries CSV</a> <a id="csv-pages" href="#" hidden>Pages CSV</a>
      </form>
      <div id="report" aria-live="polite"></div>
    </Page>,
  );
}

/** The backlog page: groups and drafts, filled by the script. */
export function renderBacklogAdminPage({ portal }: { portal: { slug: string; name: string } }): string {
  return "<!doctype html>\n" + renderToString(
    <Page portal={portal} title="No-hit backlog" view="backlog">
      <p>Queries that found nothing over the last 30 days, grouped by meaning (plurals, typos, synonyms). Draft a guide for one, edit it, then download it for the content repository or, when the portal is connected to one (Git sync), open it there as a pull request. A draft never goes live on its own: merging the request is the review.</p>
      <div id="backlog" aria-live="polite"></div>
    </Page>,
  );
}
