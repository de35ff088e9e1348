/**
 * @module The changelog review page's shell (`/p/{portal}/admin/changelog`, server-rendered): writers sign in with
 * the portal token (kept in sessionStorage, shared with the editor) and client/entries/changelog-admin.ts lists
 * each API's drafts beside the diff they came from, to edit, approve or discard over the service API.
 */
import { renderToString } from "preact-render-to-string";
import { AdminHead, TokenSignIn } from "./components/admin-document";

export interface ChangelogAdminProps {
  portal: { slug: string; name: string };
}

/** The script of the review page (scripts/build-client.mjs bundles client/entries/changelog-admin.ts). */
export const CHANGELOG_ADMIN_SCRIPT = "/assets/changelog-admin.js";

/** The full HTML document of the review page (no inline script or style). */
export function renderChangelogAdminPage({ portal }: ChangelogAdminProps): string {
  return "<!doctype html>\n" + renderToString(
    <html lang="en">
      <AdminHead title={`Changelog drafts · ${portal.name}`} />
      <body>
        <main id="main" class="changes admin-changelog" data-portal={portal.slug}>
          <h1>Changelog drafts</h1>
          <p>Drafts are written from the differences between consecutive versions. Edit, then approve to publish an entry to the changelog and its feed, or discard it.</p>
          <TokenSignIn />
          <div id="drafts" aria-live="polite"></div>
          <noscript>This page needs JavaScript; the same review is available over the service API (docs/diff.md).</noscript>
        </main>
        <script type="module" src={CHANGELOG_ADMIN_SCRIPT} />
      </body>
    </html>,
  );
}
