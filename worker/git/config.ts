/**
 * @module A portal's Git connection as `PUT /v1/portal/git` takes it (docs/git.md): validation of the body
 * into a {@link GitConnection}, and the API base URL rules (https; a loopback or private host only when
 * `PORTICO_ENVIRONMENT` is "local", as the playground's private hosts are). Platform-free.
 */
import { ApiError } from "../http/errors";
import { blockedIPv4, blockedIPv6, parseIPv4, parseIPv6 } from "../playground/address";
import { isValidApiSlug } from "../publish/names";
import { sha256 } from "../content/hash";

export type GitProvider = "github" | "gitlab";
export type PreviewMode = "pull-requests" | "all-branches" | "off";
/** The checks of a check run, by id (docs/git.md, "Checks"). */
export const CHECK_IDS = ["lint", "broken-links", "undocumented-operations", "breaking-changes"] as const;
export type CheckId = (typeof CHECK_IDS)[number];
/** Checks whose failure fails the check run unless the portal says otherwise: breaking changes only inform. */
export const DEFAULT_BLOCKING: CheckId[] = ["lint", "broken-links", "undocumented-operations"];

/** Where the portal's sources are in the repository (paths relative to its root, `/`-separated). */
export interface GitPaths {
  definitions: { api: string; file: string }[];
  /** The content folder (guides, steps, changelog, portico.yaml), or undefined: no content. */
  content?: string;
}

/** A connection as stored (store/git.ts) and used by the sync. */
export interface GitConnection {
  provider: GitProvider;
  apiUrl: string;
  /** `owner/name` as given (matched case-insensitively). */
  repository: string;
  installationId: number | null;
  productionBranch: string;
  paths: GitPaths;
  previews: PreviewMode;
  releases: boolean;
  blocking: CheckId[];
}

export const DEFAULT_API_URL: Record<GitProvider, string> = { github: "https://api.github.com", gitlab: "https://gitlab.com/api/v4" };

const bad = (message: string) => new ApiError(400, "invalid-git-connection", message);

/** A relative repository path: no `..`, no leading `/`, no backslash, printable, at most 512 characters. */
function repoPath(value: unknown, name: string, folder = false): string {
  if (typeof value !== "string" || !value || value.length > 512 || /[\\\x00-\x1f]/.test(value)) throw bad(`${name} must be a relative path in the repository`);
  const path = value.replace(/^\.\//, "");
  if (path.startsWith("/") || path.split("/").some((s) => s === "..")) throw bad(`${name} must be a relative path without ".." segments`);
  if (folder) return path === "." || path === "" ? "" : path.endsWith("/") ? path : path + "/";
  if (path.endsWith("/")) throw bad(`${name} must name a file`);
  return path;
}

/**
 * Checks an API base URL: https (http only for a loopback host locally), no user info, no query, and no
 * loopback, private or link-local address unless `local`.
 * @throws ApiError 400 `invalid-git-connection`.
 */
export function checkApiUrl(raw: unknown, local: boolean): string {
  if (typeof raw !== "string" || raw.length > 2048) throw bad("apiUrl must be an absolute https URL");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad("apiUrl must be an absolute https URL");
  }
  if (url.username || url.password || url.search || url.hash) throw bad("apiUrl takes no user name, password, query or fragment");
  const reason = privateReason(url.hostname);
  // Cloud metadata stays closed everywhere, as in the playground.
  if (reason?.includes("metadata")) throw bad(`apiUrl's host ${url.hostname} is ${reason}`);
  if (reason && !local) throw bad(`apiUrl's host ${url.hostname} is ${reason}: only allowed when PORTICO_ENVIRONMENT is "local"`);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local && reason)) throw bad("apiUrl must use https");
  return url.href.replace(/\/+$/, "");
}

/** Why a host is not public (loopback name, blocked address), or undefined. */
export function privateReason(hostname: string): string | undefined {
  if (/(^|\.)localhost\.?$/i.test(hostname)) return "this machine (loopback)";
  const v6 = hostname.startsWith("[") ? parseIPv6(hostname) : undefined;
  if (v6) return blockedIPv6(v6) ? `a ${blockedIPv6(v6)} address` : undefined;
  const v4 = parseIPv4(hostname);
  if (v4) return blockedIPv4(v4) ? `a ${blockedIPv4(v4)} address` : undefined;
  return undefined;
}

/**
 * Validates a `PUT /v1/portal/git` body.
 * @param local whether the Worker runs with `PORTICO_ENVIRONMENT = "local"`.
 * @throws ApiError 400 `invalid-git-connection` naming the field.
 */
export function parseGitConnection(body: Record<string, unknown>, local: boolean): GitConnection {
  const provider = body.provider;
  if (provider !== "github" && provider !== "gitlab") throw bad('provider must be "github" or "gitlab"');
  const apiUrl = checkApiUrl(body.apiUrl ?? DEFAULT_API_URL[provider], local);
  const repository = body.repository;
  if (typeof repository !== "string" || !/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/.test(repository) || repository.length > 255) {
    throw bad('repository must be "owner/name"');
  }
  let installationId: number | null = null;
  if (provider === "github") {
    const id = body.installationId;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) throw bad("installationId must be the GitHub App installation's id (a positive integer)");
    installationId = id;
  }
  const productionBranch = body.productionBranch ?? "main";
  if (typeof productionBranch !== "string" || !validBranch(productionBranch)) throw bad("productionBranch must be a branch name");
  const paths = body.paths;
  if (!paths || typeof paths !== "object" || Array.isArray(paths)) throw bad('paths must be an object: { "definitions": [{ "api", "file" }], "content": "docs/" }');
  const p = paths as Record<string, unknown>;
  const defs = p.definitions ?? [];
  if (!Array.isArray(defs) || defs.length > 50) throw bad("paths.definitions must be an array of at most 50 { api, file }");
  const definitions = defs.map((d, i) => {
    if (!d || typeof d !== "object") throw bad(`paths.definitions[${i}] must be { "api", "file" }`);
    const { api, file } = d as Record<string, unknown>;
    if (typeof api !== "string" || !isValidApiSlug(api)) throw bad(`paths.definitions[${i}].api must be an API slug (lower-case letters, digits, hyphens)`);
    return { api, file: repoPath(file, `paths.definitions[${i}].file`) };
  });
  if (new Set(definitions.map((d) => d.api)).size !== definitions.length) throw bad("paths.definitions names an API twice");
  const content = p.content === undefined || p.content === null ? undefined : repoPath(p.content, "paths.content", true);
  if (!definitions.length && content === undefined) throw bad("paths must name at least one definition or a content folder");
  const previews = body.previews ?? "pull-requests";
  if (previews !== "pull-requests" && previews !== "all-branches" && previews !== "off") throw bad('previews must be "pull-requests", "all-branches" or "off"');
  const releases = body.releases ?? true;
  if (typeof releases !== "boolean") throw bad("releases must be true or false");
  const blocking = body.blocking ?? DEFAULT_BLOCKING;
  if (!Array.isArray(blocking) || !blocking.every((b) => (CHECK_IDS as readonly unknown[]).includes(b))) throw bad(`blocking must list check ids among ${CHECK_IDS.join(", ")}`);
  return { provider, apiUrl, repository, installationId, productionBranch, paths: { definitions, ...(content !== undefined ? { content } : {}) }, previews, releases, blocking: [...new Set(blocking as CheckId[])] };
}

/** A git branch name as `git check-ref-format --branch` would take it (the subset webhooks can carry). */
export function validBranch(name: string): boolean {
  return name.length > 0 && name.length <= 255 && !/[\x00-\x20~^:?*[\\\x7f]|\.\.|@\{|\/\/|^\/|\/$|\.lock$|^-|\.$/.test(name);
}

/** The URL segment of a branch's preview: lower-case `[a-z0-9-]`, at most 63 characters, never empty. */
export function branchSlug(branch: string): string {
  const slug = branch.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 63).replace(/-+$/, "");
  return slug || "branch";
}

/**
 * The URL segment of `branch`'s preview among the portal's previews: its {@link branchSlug}, unless another branch
 * already holds that slug (`feature/a` and `feature-a`), then the slug shortened to 55 characters plus `-` and the
 * first 7 hex digits of the branch name's SHA-256 (stable for the branch). `ownerOf(slug)` names the branch whose
 * preview holds a slug, or undefined; `current` is the slug the branch's preview already has, kept as it is.
 */
export async function previewSlug(branch: string, ownerOf: (slug: string) => Promise<string | undefined>, current?: string): Promise<string> {
  if (current) return current;
  const base = branchSlug(branch);
  const owner = await ownerOf(base);
  if (owner === undefined || owner === branch) return base;
  return `${base.slice(0, 55).replace(/-+$/, "")}-${(await sha256(`branch:${branch}`)).slice(0, 7)}`;
}

/** True for a preview URL segment that names a branch (a dry run's token starts with `pv_`, never a slug). */
export function isBranchSlug(segment: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(segment);
}

/**
 * The hash under which a branch's preview release is stored in content_previews (store/content.ts): the URL's
 * segment is the branch slug, and the portal's slug keeps two portals' branches of one name apart.
 */
export async function branchPreviewTokenHash(portalSlug: string, slug: string): Promise<string> {
  return sha256(`git-preview:${portalSlug}:${slug}`);
}
