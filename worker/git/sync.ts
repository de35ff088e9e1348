/**
 * @module One Git sync job, run in the portal's PortalPublisher queue (docs/git.md):
 *
 * - `production`: the commit's tarball → every configured definition built first (nothing is published unless all
 *   of them build, and the content compiles against them), then each definition published (publish-definition.ts,
 *   version label from `info.version`) and the content folder published (publish-content.ts): one release.
 * - `release`: the same at the tag, under the release's version label (`v2.1.0` → `2.1.0`); a changelog draft is
 *   stored by the definition publish as for any upload with a previous version (changelog-drafts.ts).
 * - `preview`: a check run started, the tarballs of the branch and of the production branch read, the checks run
 *   (checks.ts), the content built as a preview at `/p/{portal}/preview/{branch-slug}/` (never live, never indexed),
 *   the check run completed and the pull request's one Portico comment written or updated.
 * - `close`: the branch's preview expires 7 days after its pull request closed.
 *
 * Every outcome is stored on the delivery (`GET /v1/portal/git/deliveries`). Refused archives (links, `..`,
 * absolute paths, too large) fail the check run with the reason and publish nothing.
 */
import { createTar } from "nanotar";
import { sha256 } from "../content/hash";
import { getDb } from "../store/db";
import { getBundle, putBundle, liveOperationIndex, liveRelease, releaseLiveStatements } from "../store/content";
import { failVersion } from "../store/apis";
import { afterIndexLive, buildReleaseIndex, rebuildPortalIndex, type PortalIndex } from "../publish/search-index";
import { searchPointerStatements } from "../store/search";
import type { LateLint } from "../publish/types";
import { closePreview, deletePreview, findConnection, findPreview, findPreviewOfBranch, finishDelivery, listPreviews, savePreview, setPreviewComment, setPreviewDefinitions, setPreviewSearch, type StoredConnection } from "../store/git";
import { catalogFor } from "../store/portal-catalog";
import { loadPreviewSite } from "../store/content-site";
import { buildPreviewSearch, type PreviewSearchPointer } from "./preview-search";
import { CLOSED_PREVIEW_TTL_MS, dropPreviewVersions, previewDefinitions, previewVersionIds, type PreviewDefinition } from "./preview-versions";
import { buildReference } from "../openapi/build";
import { compileBundle } from "../content/compile";
import { findApi } from "../store/apis";
import { findPortalById } from "../store/portals";
import { ensureDrafts } from "../publish/changelog-drafts";
import { embeddedChangelogWriter } from "../publish/changelog-writer";
import { PublishAttempt, settleWithin } from "../publish/deadline";
import { publishDefinition } from "../publish/publish-definition";
import { publishContent } from "../publish/publish-content";
import type { PublishResponse } from "../publish/types";
import { branchPreviewTokenHash, DEFAULT_BLOCKING, previewSlug } from "./config";
import { runChecks, reportSummary, reportTitle, diffSummaryMarkdown, type CheckReport } from "./checks";
import type { GitJob } from "./events";
import { GitHubApp } from "./github";
import { GitLabProject } from "./gitlab";
import { UploadedTree, type CheckAnnotation, type GitHost } from "./host";
import { OutboundError, TooLarge } from "./outbound";
import { contentFiles, definitionSources, type DefinitionSource, MAX_REPOSITORY_ARCHIVE_BYTES, readRepositoryArchive, tooLargeMessage, type RepoFiles } from "./tree";

export { CLOSED_PREVIEW_TTL_MS };
/** An open branch's preview does not expire on its own (a later build or the pull request's closing replaces it). */
const OPEN_PREVIEW_EXPIRY = "9999-12-31T00:00:00.000Z";
const EXPIRED = "1970-01-01T00:00:00.000Z";

/** A job's result as stored on its delivery. */
export type SyncResult = Record<string, unknown>;

/** The provider adapter for a connection (tests replace `hostFor` through the PortalPublisher). */
export function hostFor(env: Env, conn: StoredConnection): GitHost {
  if (conn.provider === "gitlab") return new GitLabProject(env, conn.apiUrl, conn.repository, env.GITLAB_TOKEN ?? "");
  return new GitHubApp(env, conn.apiUrl, conn.repository, conn.installationId ?? 0);
}


/** The connection an uploaded folder runs under when the portal connected no repository (its paths are the upload's). */
function uploadConnection(portalId: number): StoredConnection {
  const now = new Date().toISOString();
  return {
    portalId, provider: "github", apiUrl: "", repository: "", installationId: null, productionBranch: "main", paths: { definitions: [] },
    previews: "all-branches", releases: true, blocking: DEFAULT_BLOCKING, createdAt: now, updatedAt: now,
  };
}

class SyncFailure extends Error {
  constructor(message: string, readonly code: string) {
    super(message);
  }
}

async function repositoryFiles(host: GitHost, ref: string): Promise<RepoFiles> {
  let body: Uint8Array;
  try {
    body = await host.archive(ref, MAX_REPOSITORY_ARCHIVE_BYTES);
  } catch (error) {
    if (error instanceof TooLarge) throw new SyncFailure(tooLargeMessage(`its tarball is over ${MAX_REPOSITORY_ARCHIVE_BYTES / 1048576} MiB`), "repository-too-large");
    throw error;
  }
  const tree = readRepositoryArchive(body);
  if (!tree.ok) throw new SyncFailure(tree.code === "unsafe-archive" ? `The repository archive was refused: ${tree.message}.` : tree.message, tree.code);
  return tree.files;
}

function parseAnswer(response: PublishResponse): Record<string, unknown> {
  try {
    return JSON.parse(response.json) as Record<string, unknown>;
  } catch {
    return {};
  }
}

async function contentTar(env: Env, files: RepoFiles): Promise<string> {
  const tar = createTar([...files].map(([name, data]) => ({ name, data })));
  const sha = await sha256(tar);
  await putBundle(env.DEFINITIONS, sha, tar);
  return sha;
}

/** Test seams of a release (tests inject failures between its parts). */
export interface ReleaseHooks {
  /** Runs once every definition is staged, before the content is. */
  afterDefinitions?: () => Promise<void>;
  /** Runs once every part is staged (and the release's search index built), before the flip. */
  beforeFlip?: () => Promise<void>;
  /** Runs right after the flip's batch, before anything else. */
  afterFlip?: () => Promise<void>;
}

/**
 * Publishes the definitions and the content of one commit as one release: refused whole when any part does not
 * build; every part staged, then all made live in one D1 batch.
 */
async function publishRelease(env: Env, job: GitJob, conn: StoredConnection, files: RepoFiles, versionLabel?: string, options: ReleaseHooks = {}): Promise<SyncResult> {
  const { sources, missing } = definitionSources(files, conn.paths);
  if (missing.length) throw new SyncFailure(`configured definition(s) missing at this commit: ${missing.join(", ")}`, "definition-missing");
  // All of it builds before any of it is published.
  const operations = await liveOperationIndex(env, job.portalId);
  for (const source of sources) {
    const built = buildReference({ body: source.body, contentType: source.contentType, root: source.root });
    if (!built.ok) throw new SyncFailure(`${source.file}${built.line ? `:${built.line}` : ""}: ${built.message}; nothing was published`, built.code);
    operations.set(source.api, built.operations.filter((o) => o.kind === "operation").map((o) => ({ slug: o.slug, method: o.method, path: o.path, operationId: o.operationId ?? null })));
  }
  const content = contentFiles(files, conn.paths);
  let compiled: Awaited<ReturnType<typeof compileBundle>> | undefined;
  if (content?.size) {
    compiled = await compileBundle(content, operations);
    if (compiled.refusal) {
      const n = compiled.checks.brokenLinks.length + compiled.checks.invalidFrontMatter.length;
      throw new SyncFailure(`the content folder cannot be published (${compiled.refusal}, ${n} problem(s)); nothing was published`, compiled.refusal);
    }
  }
  // Every part is stored first, none live ("staged": publish-definition.ts, publish-content.ts), then one D1 batch
  // makes the definitions and the content live together: a failure before it leaves the previous release whole.
  const published: Record<string, unknown>[] = [];
  const staged: { api: string; version: number; apiId: number; title: string }[] = [];
  const lateLints: LateLint[] = [];
  let stagedRelease: number | undefined;
  let search: PortalIndex | undefined;
  let contentResult: Record<string, unknown> | undefined;
  try {
    for (const source of sources) {
      const bytes = source.body;
      const answer = await settleWithin(new PublishAttempt(), publishDefinition(env, {
        portalId: job.portalId, portalSlug: job.portalSlug, basePath: job.basePath, sha256: await sha256(bytes), body: bytes, contentType: source.contentType,
        apiSlug: source.api, ...(source.root ? { root: source.root } : {}), ...(versionLabel ? { versionLabel } : {}), origin: job.origin, target: "staged",
      }));
      if (answer.lateLint) lateLints.push(answer.lateLint);
      const body = parseAnswer(answer);
      if (answer.status >= 400) throw new SyncFailure(`${source.file}: ${(body.error as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`}; nothing was published`, "publish-failed");
      const flip = body.staged as { apiId: number; title: string } | undefined;
      if (flip && typeof body.publication === "number") staged.push({ api: source.api, version: body.publication, ...flip });
      published.push({ api: source.api, status: answer.status, version: body.version ?? (body as { label?: unknown }).label, url: body.url });
    }
    await (options.afterDefinitions?.() ?? Promise.resolve());
    if (content?.size) {
      const sha = await contentTar(env, content);
      const answer = await settleWithin(new PublishAttempt(), publishContent(env, { portalId: job.portalId, portalSlug: job.portalSlug, basePath: job.basePath, sha256: sha, origin: job.origin, staged: { operations, ...(compiled ? { compiled } : {}) } }, new PublishAttempt()));
      const body = parseAnswer(answer);
      if (answer.status >= 400) throw new SyncFailure(`content: ${(body.error as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`}; nothing was published`, "publish-failed");
      if (body.staged === true && typeof body.release === "number") stagedRelease = body.release;
      contentResult = { status: answer.status, release: body.release, url: body.url, unchanged: body.unchanged === true };
    }
    const now = new Date().toISOString();
    // The search shards as they will be with the release live, built now and made live by the same batch: readers
    // never search the previous release's pages beside the new one's (nor the reverse). Search must not cost a
    // release: should the build fail, the release goes live and the index is rebuilt right after.
    if (staged.length || stagedRelease !== undefined) {
      search = await buildReleaseIndex(env, job.portalId, { apis: staged.map((v) => ({ api: v.api, versionId: v.version })), ...(stagedRelease !== undefined ? { release: stagedRelease } : {}) }, now)
        .catch((error) => void console.error("git release: its search index could not be built before the flip", job.deliveryId, error));
    }
    await (options.beforeFlip?.() ?? Promise.resolve());
    const flip = [
      ...staged.flatMap((v) => [
        env.DB.prepare("UPDATE versions SET status = 'published' WHERE id = ? AND status = 'staged'").bind(v.version),
        env.DB.prepare("UPDATE apis SET live_version_id = ?, title = ? WHERE id = ?").bind(v.version, v.title, v.apiId),
      ]),
      ...(stagedRelease !== undefined ? releaseLiveStatements(env.DB, job.portalId, stagedRelease, now) : []),
      ...(search ? searchPointerStatements(env.DB, search.pointer) : []),
    ];
    if (flip.length) await env.DB.batch(flip);
    await (options.afterFlip?.() ?? Promise.resolve());
  } catch (error) {
    // Nothing flipped: the staged parts are marked failed (kept for the record, never served).
    const db = getDb(env.DB);
    for (const v of staged) await failVersion(db, v.version, catalogFor(env, job.portalId)).catch(() => undefined);
    if (stagedRelease !== undefined) await env.DB.prepare("UPDATE content_releases SET status = 'failed' WHERE id = ? AND status = 'staged'").bind(stagedRelease).run().catch(() => undefined);
    throw error;
  }
  // The previous index's vectors go (production); an index that could not be built before the flip is built now.
  // Then the lints of large definitions run (their versions are live; lint never fails a publish).
  if (search) await afterIndexLive(env, job.portalId, search).catch((error) => console.error("git release: retiring vectors failed", job.deliveryId, error));
  else if (staged.length || stagedRelease !== undefined) await rebuildPortalIndex(env, job.portalId).catch((error) => console.error("git release: the search index was not rebuilt", job.deliveryId, error));
  for (const late of lateLints) await late.run(new PublishAttempt()).catch((error) => console.error("git release: late lint failed", job.deliveryId, error));
  let drafts = 0;
  if (job.kind === "release") {
    // A release keeps its versions and gets its changelog draft from the diff to the previous one now, not when a
    // writer next lists drafts (changelog-drafts.ts).
    const db = getDb(env.DB);
    const portal = await findPortalById(db, job.portalId);
    for (const source of sources) {
      const api = portal ? await findApi(db, portal.id, source.api) : undefined;
      if (portal && api) drafts += await ensureDrafts(env, db, portal, api, job.origin, new Date().toISOString(), embeddedChangelogWriter, 1);
    }
  }
  return { kind: job.kind, definitions: published, ...(contentResult ? { content: contentResult } : {}), ...(versionLabel ? { label: versionLabel, changelogDrafts: drafts } : {}) };
}

/** Annotations from a report: failures and warnings first, at most 1,000 (GitHub keeps 50 per request; more in updates). */
export function annotationsOf(report: CheckReport): CheckAnnotation[] {
  const all = report.checks.flatMap((c) => c.items.map((i) => ({
    path: i.path, start_line: Math.max(1, i.line), end_line: Math.max(1, i.line), annotation_level: i.level,
    title: `${c.title}${i.rule ? ` (${i.rule})` : ""}`, message: i.message.slice(0, 64_000),
  })));
  const rank = { failure: 0, warning: 1, notice: 2 } as const;
  return all.sort((a, b) => rank[a.annotation_level] - rank[b.annotation_level]).slice(0, 1000);
}

/** The pull-request comment: preview link, checks and the diff summary (one comment, updated on every build). */
export function commentBody(report: CheckReport | undefined, previewUrl: string | undefined, sha: string, failure?: string, listFindings = false): string {
  const lines = ["<!-- portico -->", "### Portico", ""];
  if (previewUrl) lines.push(`**Preview:** ${previewUrl}`, "");
  if (failure) lines.push(`❌ ${failure}`, "");
  if (report) {
    lines.push(`**Checks:** ${report.conclusion === "success" ? "✅" : "❌"} ${reportTitle(report)}`, "");
    if (report.diff.length) lines.push(diffSummaryMarkdown(report), "");
    // GitLab has no line annotations: the findings that fail a check are listed here (at most 30).
    if (listFindings) {
      const findings = report.checks.flatMap((c) => c.items.filter((i) => i.level !== "notice").map((i) => `- \`${i.path}:${i.line}\` ${c.title}: ${i.message}`));
      if (findings.length) lines.push("**Findings**", ...findings.slice(0, 30), ...(findings.length > 30 ? [`- …and ${findings.length - 30} more (run \`portico check\`)`] : []), "");
    }
  }
  lines.push(`<sub>Commit ${sha.slice(0, 7)}</sub>`);
  return lines.join("\n");
}

/** Operations by API slug as content links resolve against them (content/compile.ts). */
type OperationIndex = Parameters<typeof compileBundle>[1];

/**
 * Publishes each of the branch's definitions as a preview version (never live); a definition that does not build is
 * left out of the preview (its lint check says why) and named in `failures`. A definition of the same bytes as the
 * branch's previous build keeps that build's version. Returns each API's version and label.
 */
async function publishPreviewDefinitions(env: Env, job: GitJob, sources: DefinitionSource[], previous: Record<string, PreviewDefinition>): Promise<{ versions: Record<string, PreviewDefinition>; failures: string[] }> {
  const versions: Record<string, PreviewDefinition> = {};
  const failures: string[] = [];
  for (const source of sources) {
    const sha = await sha256(source.body);
    // The same bytes as the branch's previous build (a commit that changed only guides): its version is kept as is.
    const before = previous[source.api];
    const same = before && (await env.DB.prepare("SELECT 1 FROM versions WHERE id = ? AND sha256 = ? AND root IS ? AND status IN ('preview', 'published')").bind(before.version, sha, source.root ?? null).first());
    if (before && same) {
      versions[source.api] = before;
      continue;
    }
    const answer = await settleWithin(new PublishAttempt(), publishDefinition(env, {
      portalId: job.portalId, portalSlug: job.portalSlug, basePath: job.basePath, sha256: sha, body: source.body, contentType: source.contentType,
      apiSlug: source.api, ...(source.root ? { root: source.root } : {}), origin: job.origin, target: "preview",
    }));
    const body = parseAnswer(answer);
    if (answer.status >= 400 || typeof body.publication !== "number") {
      failures.push(`${source.file}: ${(body.error as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`}`);
      continue;
    }
    // No late lint: the check run's lint check already reported this definition.
    versions[source.api] = { version: body.publication, label: String(body.version), ...(typeof body.documents === "string" ? { documents: body.documents } : {}) };
  }
  return { versions, failures };
}

/** `git_previews.definitions`: per API, the branch's diff summary and the version the preview reads. */
function previewSummary(diff: Map<string, CheckReport["diff"][number]>, versions: Record<string, PreviewDefinition>): string {
  return JSON.stringify(Object.fromEntries([...new Set([...diff.keys(), ...Object.keys(versions)])].map((api) => [api, {
    ...(diff.has(api) ? { added: diff.get(api)!.added.length, breaking: diff.get(api)!.breaking } : {}), ...(versions[api] ?? {}),
  }])));
}

/**
 * Builds and names the preview's own search shards, reusing those of the branch's previous build (`previous`, its
 * `git_previews.search_index`) or of the live portal whose documents did not change (best effort: a failure leaves
 * the preview without search, logged). Returns what was built and reused.
 */
async function indexPreview(env: Env, job: GitJob, slug: string, versions: Record<string, PreviewDefinition>, hasContent: boolean, previous: string | null | undefined): Promise<{ built: string[]; reused: string[] } | undefined> {
  try {
    const site = hasContent ? await loadPreviewSite(env, job.portalSlug, await branchPreviewTokenHash(job.portalSlug, slug), new Date().toISOString()) : undefined;
    const release = site?.release ? { digest: site.release.digest, config: site.release.config, glossary: site.release.glossary, pages: site.pages } : undefined;
    const before = previous ? (JSON.parse(previous) as PreviewSearchPointer) : undefined;
    const build = await buildPreviewSearch(env, job.portalId, versions, release, before?.shards ? before : undefined);
    await setPreviewSearch(getDb(env.DB), job.portalId, slug, build ? JSON.stringify(build.pointer) : null);
    return build ? { built: build.built, reused: build.reused } : undefined;
  } catch (error) {
    console.error("git preview: its search index could not be built", job.deliveryId, error);
    return undefined;
  }
}

async function runPreview(env: Env, job: Extract<GitJob, { kind: "preview" }>, conn: StoredConnection, host: GitHost): Promise<SyncResult> {
  const db = getDb(env.DB);
  // Branches that slug alike (`feature/a`, `feature-a`) get distinct previews; a branch keeps the slug it has.
  const previous = await findPreviewOfBranch(db, job.portalId, job.branch);
  const slug = await previewSlug(job.branch, async (s) => (await findPreview(db, job.portalId, s))?.branch, previous?.slug);
  const previewUrl = job.build ? `${job.origin}${job.basePath}/preview/${slug}/` : undefined;
  const checkId = await host.startCheck(job.sha, previewUrl);
  let report: CheckReport | undefined;
  let failure: string | undefined;
  let release: number | undefined;
  let versions: Record<string, PreviewDefinition> = {};
  let sources: DefinitionSource[] = [];
  try {
    // Both tarballs at once (the base is read while the branch's downloads). An uploaded folder has no production
    // branch to fetch: it is not compared here. Without a base (a new repository), the new-operation and
    // breaking-change checks are skipped, not failed.
    const baseFiles = job.upload ? Promise.resolve(undefined) : repositoryFiles(host, conn.productionBranch).catch((error) => {
      if (error instanceof OutboundError && error.status === 404) return undefined;
      throw error;
    });
    baseFiles.catch(() => undefined); // awaited below; a branch failure must not leave it unhandled
    const files = await repositoryFiles(host, job.sha);
    const base = await baseFiles;
    const found = definitionSources(files, conn.paths);
    sources = found.sources;
    const missing = found.missing;
    if (missing.length) throw new SyncFailure(`configured definition(s) missing on ${job.branch}: ${missing.join(", ")}`, "definition-missing");
    const content = contentFiles(files, conn.paths);
    const live = await liveRelease(env.DB, job.portalId);
    const other: OperationIndex = await liveOperationIndex(env, job.portalId);
    for (const s of sources) other.delete(s.api);
    let branchOperations: OperationIndex | undefined;
    let compiled: Parameters<NonNullable<Parameters<typeof runChecks>[0]["onContent"]>>[0] | undefined;
    report = await runChecks({
      definitions: sources, base: base ? definitionSources(base, conn.paths).sources : undefined, content, contentPath: conn.paths.content,
      ruleset: live?.config.lint, otherOperations: other, blocking: conn.blocking, onOperations: (index) => (branchOperations = index), onContent: (c) => (compiled = c),
    });
    if (job.build && content?.size) {
      const tokenHash = await branchPreviewTokenHash(job.portalSlug, slug);
      // The branch's earlier preview is dropped by the batch that stores the new one (store/content.ts).
      await env.DB.prepare("UPDATE content_previews SET expires_at = ? WHERE token_hash = ?").bind(EXPIRED, tokenHash).run();
      const sha = await contentTar(env, content);
      // Links resolve against the branch's operations (as the checks built them), so a guide may link a new one.
      const answer = await settleWithin(new PublishAttempt(), publishContent(env, {
        portalId: job.portalId, portalSlug: job.portalSlug, basePath: job.basePath, sha256: sha, origin: job.origin, dryRun: true, allowBrokenLinks: true,
        branchPreview: { tokenHash, path: slug, expiresAt: OPEN_PREVIEW_EXPIRY, operations: branchOperations ?? other, ...(compiled ? { compiled } : {}) },
      }, new PublishAttempt()));
      const body = parseAnswer(answer);
      if (answer.status >= 400) failure = `The preview could not be built: ${(body.error as { message?: string } | undefined)?.message ?? `HTTP ${answer.status}`}`;
      else release = (body.preview as { release?: number } | undefined)?.release;
    } else if (job.build && sources.length) release = 0;
    if (job.build) {
      // Until the branch's definitions are published (after the check run), the preview keeps its previous versions.
      const diff = new Map(report.diff.map((d) => [d.api, d]));
      const kept = previewDefinitions(previous?.definitions);
      await savePreview(db, { portalId: job.portalId, slug, branch: job.branch, commitSha: job.sha, releaseId: release || null, definitions: previewSummary(diff, kept), pullRequest: job.pullRequest ?? null, updatedAt: new Date().toISOString() });
    }
  } catch (error) {
    if (error instanceof SyncFailure || error instanceof OutboundError) failure = error.message;
    else {
      failure = "Portico could not finish the checks (internal error); push again to retry.";
      console.error("git preview failed", job.deliveryId, error);
    }
  }
  const conclusion = failure ? "failure" : report!.conclusion;
  await host.completeCheck(checkId, job.sha, {
    conclusion, title: failure ? "Not checked" : reportTitle(report!),
    summary: failure ? failure : reportSummary(report!, previewUrl && release !== undefined ? previewUrl : undefined),
    annotations: report ? annotationsOf(report) : [], ...(previewUrl && release !== undefined ? { detailsUrl: previewUrl } : {}),
  });
  let commentId: string | undefined;
  if (job.pullRequest) {
    // The branch's row holds the comment's id even without a preview (previews off, a refused archive), so a
    // pull request gets one comment, updated.
    const existing = (await findPreview(db, job.portalId, slug)) ??
      (await savePreview(db, { portalId: job.portalId, slug, branch: job.branch, commitSha: job.sha, releaseId: null, definitions: "{}", pullRequest: job.pullRequest, updatedAt: new Date().toISOString() }));
    commentId = await host.upsertComment(job.pullRequest, commentBody(report, release !== undefined ? previewUrl : undefined, job.sha, failure, conn.provider === "gitlab"), existing?.commentId);
    if (existing.commentId !== commentId) await setPreviewComment(db, existing.id, commentId);
  }
  // Once the check run and the comment are out (the checks do not wait for them): the branch's definitions as
  // versions that are never live (publish-definition.ts target "preview"), then the preview's own search.
  let previewFailure: string | undefined;
  let searchShards: { built: string[]; reused: string[] } | undefined;
  if (job.build && release !== undefined && !failure) {
    try {
      const built = await publishPreviewDefinitions(env, job, sources, previewDefinitions(previous?.definitions));
      versions = built.versions;
      if (built.failures.length) previewFailure = `left out of the preview's reference: ${built.failures.join("; ")}`;
      await setPreviewDefinitions(db, job.portalId, slug, previewSummary(new Map(report!.diff.map((d) => [d.api, d])), versions));
      // The versions the branch's previous build stored and this one no longer uses go now.
      if (previous) await dropPreviewVersions(env, job.portalId, previewVersionIds(previous.definitions), new Set(Object.values(versions).map((v) => v.version)));
    } catch (error) {
      previewFailure = "the branch's definitions could not be published in the preview (internal error)";
      console.error("git preview: publishing the branch's definitions failed", job.deliveryId, error);
    }
    searchShards = await indexPreview(env, job, slug, versions, release > 0, previous?.searchIndex);
  }
  return {
    kind: "preview", branch: job.branch, conclusion, ...(failure ? { failure } : {}), ...(previewFailure ? { previewFailure } : {}), ...(release !== undefined ? { previewUrl, release } : {}),
    ...(searchShards ? { searchShards } : {}),
    ...(report ? { checks: report.checks.map((c) => ({ id: c.id, passed: c.passed, blocking: c.blocking, failures: c.failures })) } : {}),
    summary: failure ?? reportSummary(report!, release !== undefined ? previewUrl : undefined),
  };
}

async function runClose(env: Env, job: Extract<GitJob, { kind: "close" }>): Promise<SyncResult> {
  const db = getDb(env.DB);
  const preview = await findPreviewOfBranch(db, job.portalId, job.branch);
  if (!preview) return { kind: "close", branch: job.branch, preview: false };
  const tokenHash = await branchPreviewTokenHash(job.portalSlug, preview.slug);
  if (job.deleted) {
    // A deleted branch's preview goes now: its definitions' versions and models, its content release (expired,
    // deleted by the portal's next content batch), its row.
    const dropped = await dropPreviewVersions(env, job.portalId, previewVersionIds(preview.definitions));
    await env.DB.prepare("UPDATE content_previews SET expires_at = ? WHERE token_hash = ?").bind(EXPIRED, tokenHash).run();
    await deletePreview(db, preview.id);
    return { kind: "close", branch: job.branch, deleted: true, droppedVersions: dropped };
  }
  const at = new Date();
  const expiresAt = new Date(at.getTime() + CLOSED_PREVIEW_TTL_MS).toISOString();
  await closePreview(db, job.portalId, preview.slug, at.toISOString());
  await env.DB.prepare("UPDATE content_previews SET expires_at = ? WHERE token_hash = ? AND expires_at > ?").bind(expiresAt, tokenHash, expiresAt).run();
  return { kind: "close", branch: job.branch, expiresAt };
}

/**
 * Drops the portal's previews whose pull request closed more than {@link CLOSED_PREVIEW_TTL_MS} before `now`: their
 * definitions' versions and models, and their rows (their content releases expired at the same instant and are
 * deleted by the next content batch). Returns how many went. Run before each Git job and by the PortalPublisher's alarm.
 */
export async function sweepClosedPreviews(env: Env, portalId: number, now = new Date()): Promise<number> {
  const db = getDb(env.DB);
  const cutoff = new Date(now.getTime() - CLOSED_PREVIEW_TTL_MS).toISOString();
  let swept = 0;
  for (const preview of await listPreviews(db, portalId)) {
    if (!preview.closedAt || preview.closedAt > cutoff) continue;
    await dropPreviewVersions(env, portalId, previewVersionIds(preview.definitions));
    await deletePreview(db, preview.id);
    swept++;
  }
  return swept;
}

/**
 * Runs one job to the end and records its result on the delivery. Never throws (a failure is recorded).
 * @param host the provider adapter (default: {@link hostFor} the connection).
 */
export async function runGitJob(env: Env, job: GitJob, host?: (conn: StoredConnection) => GitHost, hooks: ReleaseHooks = {}): Promise<SyncResult> {
  const db = getDb(env.DB);
  const stored = await findConnection(db, job.portalId);
  // An uploaded folder needs no connection: its paths come with it (or from the connection when there is one).
  const conn: StoredConnection | undefined = job.upload
    ? { ...(stored ?? uploadConnection(job.portalId)), ...(job.upload.paths ? { paths: job.upload.paths } : {}) }
    : stored;
  if (!conn) {
    await finishDelivery(db, job.provider, job.deliveryId, job.portalId, "ignored", { reason: "the portal was disconnected" });
    return { ignored: true };
  }
  const upload = job.upload;
  const adapter = upload ? new UploadedTree(() => getBundle(env.DEFINITIONS, upload.sha256)) : (host ?? ((c) => hostFor(env, c)))(conn);
  let result: SyncResult;
  try {
    await sweepClosedPreviews(env, job.portalId);
    if (job.kind === "preview") result = await runPreview(env, job, conn, adapter);
    else if (job.kind === "close") result = await runClose(env, job);
    else {
      const files = await repositoryFiles(adapter, job.sha);
      result = await publishRelease(env, job, conn, files, job.kind === "release" ? job.label : undefined, hooks);
    }
  } catch (error) {
    const message = error instanceof SyncFailure || error instanceof OutboundError ? error.message : "internal error";
    if (!(error instanceof SyncFailure || error instanceof OutboundError)) console.error("git sync failed", job.deliveryId, error);
    result = { kind: job.kind, error: { code: error instanceof SyncFailure ? error.code : "sync-failed", message } };
    await finishDelivery(db, job.provider, job.deliveryId, job.portalId, "failed", result);
    return result;
  }
  await finishDelivery(db, job.provider, job.deliveryId, job.portalId, (result as { failure?: unknown }).failure ? "failed" : "done", result);
  return result;
}
