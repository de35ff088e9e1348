/**
 * @module A commit's files as Git sync reads them: the provider's gzipped tarball → files, with the uploads'
 * archive rules (worker/openapi/archive/extract.ts: no absolute or `..` names, entry/byte/depth limits) plus no
 * links at all (a symlink in a repository could point anywhere), the archive's single top folder
 * (`owner-name-sha/`) removed; then the parts a portal uses: each definition (alone, or with the YAML/JSON files
 * of its folder when it has siblings, as a tar with its root) and the content folder (a file map for
 * compileBundle). Platform-free.
 */
import { createTar } from "nanotar";
import { ARCHIVE_LIMITS, extractArchive, gunzipBounded, isTar, type ArchiveLimits } from "../openapi/archive/extract";
import type { GitPaths } from "./config";

/** Largest tarball downloaded (compressed bytes). */
export const MAX_REPOSITORY_ARCHIVE_BYTES = 25 * 1024 * 1024;

export type RepoFiles = Map<string, Uint8Array>;

export type TreeOutcome = { ok: true; files: RepoFiles } | { ok: false; code: "repository-too-large" | "unsafe-archive" | "invalid-archive"; message: string };

/** The message every "too large" refusal carries (shown in the check run and the delivery's result). */
export function tooLargeMessage(detail: string, limits: ArchiveLimits = ARCHIVE_LIMITS): string {
  return `The repository is too large to sync (${detail}). Portico reads at most ${MAX_REPOSITORY_ARCHIVE_BYTES / 1048576} MiB of tarball, ` +
    `${limits.maxTotalBytes / 1048576} MiB of files and ${limits.maxEntries.toLocaleString("en")} files per commit: move large assets out, or publish with \`portico sync\` from a folder.`;
}

/** Reads a tarball (gzipped or not) into the repository's files. Never throws. */
export function readRepositoryArchive(body: Uint8Array, limits: ArchiveLimits = ARCHIVE_LIMITS): TreeOutcome {
  let data = body;
  if (body[0] === 0x1f && body[1] === 0x8b) {
    const inflated = gunzipBounded(body, limits.maxTotalBytes + 512 * limits.maxEntries);
    if (!inflated.ok) return inflated.tooLarge ? { ok: false, code: "repository-too-large", message: tooLargeMessage(inflated.message, limits) } : { ok: false, code: "invalid-archive", message: inflated.message };
    data = inflated.data;
  }
  if (!isTar(data)) return { ok: false, code: "invalid-archive", message: "the repository archive is not a tar archive" };
  const extracted = extractArchive(data, "tar", limits);
  if (!extracted.ok) {
    if (extracted.status === 413) return { ok: false, code: "repository-too-large", message: tooLargeMessage(extracted.message, limits) };
    return { ok: false, code: extracted.code === "unsafe-archive" ? "unsafe-archive" : "invalid-archive", message: extracted.message };
  }
  if (extracted.links.size) {
    const first = [...extracted.links][0];
    return { ok: false, code: "unsafe-archive", message: `archive entry ${JSON.stringify(first)} is a symbolic or hard link: links are refused (${extracted.links.size} in all)` };
  }
  const names = [...extracted.files.keys()];
  const top = names[0]?.split("/")[0];
  // GitHub and GitLab archives wrap everything in one folder named after the commit.
  if (top && names.every((n) => n.startsWith(top + "/"))) return { ok: true, files: new Map(names.map((n) => [n.slice(top.length + 1), extracted.files.get(n)!])) };
  return { ok: true, files: extracted.files };
}

const DEFINITION_FILE = /\.(ya?ml|json)$/i;

/** One definition's upload body: the file alone, or a tar of its folder's YAML/JSON files with `root`. */
export interface DefinitionSource {
  api: string;
  file: string;
  body: Uint8Array;
  contentType: string;
  root?: string;
}

/** The configured definitions found in `files`; `missing` lists the configured files absent from the commit. */
export function definitionSources(files: RepoFiles, paths: GitPaths): { sources: DefinitionSource[]; missing: string[] } {
  const sources: DefinitionSource[] = [];
  const missing: string[] = [];
  for (const { api, file } of paths.definitions) {
    const body = files.get(file);
    if (!body) {
      missing.push(file);
      continue;
    }
    const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/") + 1) : "";
    const siblings = [...files.keys()].filter((n) => n !== file && n.startsWith(dir) && DEFINITION_FILE.test(n) && (dir !== "" || !n.includes("/")));
    if (!siblings.length) {
      sources.push({ api, file, body, contentType: /\.json$/i.test(file) ? "application/json" : "application/yaml" });
      continue;
    }
    const tar = createTar([file, ...siblings].map((n) => ({ name: n.slice(dir.length), data: files.get(n)! })));
    sources.push({ api, file, body: tar, contentType: "application/x-tar", root: file.slice(dir.length) });
  }
  return { sources, missing };
}

/** The content folder's files, keyed relative to it (what compileBundle takes), or undefined without one. */
export function contentFiles(files: RepoFiles, paths: GitPaths): RepoFiles | undefined {
  if (paths.content === undefined) return undefined;
  const prefix = paths.content;
  const out: RepoFiles = new Map();
  for (const [name, data] of files) if (name.startsWith(prefix)) out.set(name.slice(prefix.length), data);
  return out;
}
