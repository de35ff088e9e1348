/**
 * @module Git sync (docs/git.md): a portal's connected repository, the webhook deliveries it has received
 * (idempotency by delivery id), and its branch previews.
 */
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { portals } from "./portals";

/** One connected repository per portal (`PUT /v1/portal/git`). Holds no secret: the app's are service secrets. */
export const gitConnections = sqliteTable(
  "git_connections",
  {
    portalId: integer("portal_id").primaryKey().references(() => portals.id),
    /** "github" or "gitlab". */
    provider: text("provider").notNull(),
    /** REST API base (`https://api.github.com`, a GitHub Enterprise Server's `/api/v3`, or GitLab's `/api/v4`). */
    apiUrl: text("api_url").notNull(),
    /** `owner/name` (GitLab: the project's path with namespace), lower-cased for lookups. */
    repository: text("repository").notNull(),
    /** The GitHub App installation id (GitHub only). */
    installationId: integer("installation_id"),
    productionBranch: text("production_branch").notNull(),
    /** JSON GitPaths: `{ definitions: [{ api, file }], content?: "docs/" }`. */
    paths: text("paths").notNull(),
    /** "pull-requests", "all-branches" or "off". */
    previews: text("previews").notNull(),
    releases: integer("releases", { mode: "boolean" }).notNull(),
    /** JSON string[]: the check ids whose failure fails the check run (lint, broken-links, undocumented-operations, breaking-changes). */
    blocking: text("blocking").notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("git_connections_repository").on(t.provider, t.repository)],
);

/** Webhook deliveries once verified: a redelivered id is answered without doing the work again. */
export const gitDeliveries = sqliteTable(
  "git_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    provider: text("provider").notNull(),
    /** `X-GitHub-Delivery` (GitLab: `X-Gitlab-Event-UUID`). */
    deliveryId: text("delivery_id").notNull(),
    event: text("event").notNull(),
    /** The portal whose queue ran it (null: no connected portal matched). */
    portalId: integer("portal_id").references(() => portals.id),
    /** "queued", "done", "failed" or "ignored". */
    status: text("status").notNull(),
    /** JSON: what the work did (release, preview URL, check conclusion) or why it failed. */
    result: text("result"),
    receivedAt: text("received_at").notNull(),
    finishedAt: text("finished_at"),
  },
  (t) => [uniqueIndex("git_deliveries_delivery").on(t.provider, t.deliveryId, t.portalId)],
);

/** A branch's preview: the content release built from it (status "preview", never live), by branch slug. */
export const gitPreviews = sqliteTable(
  "git_previews",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    portalId: integer("portal_id").notNull().references(() => portals.id),
    /** `[a-z0-9-]{1,63}` from the branch name: the URL segment of `/p/{portal}/preview/{slug}/`. */
    slug: text("slug").notNull(),
    branch: text("branch").notNull(),
    commitSha: text("commit_sha").notNull(),
    /** The content release of the preview (no foreign key: expired previews' releases are deleted under it, store/content.ts). */
    releaseId: integer("release_id"),
    /** JSON: per API slug, the branch's build summary (label, operations, lint counts). */
    definitions: text("definitions").notNull(),
    pullRequest: integer("pull_request"),
    /** The pull-request comment Portico keeps updated (provider id). */
    commentId: text("comment_id"),
    /** JSON PreviewSearchPointer (worker/git/preview-search.ts): the preview's own search index in KV; null: none (yet). */
    searchIndex: text("search_index"),
    /** ISO 8601: when the pull request closed (the preview is dropped 7 days later). */
    closedAt: text("closed_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("git_previews_portal_slug").on(t.portalId, t.slug)],
);
