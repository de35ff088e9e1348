/**
 * @module `.tar.gz`, `.tar` and `.zip` uploads → an in-memory file map, with hostile-archive limits: entry count,
 * total and per-file uncompressed bytes (gzip is inflated as a stream and stopped at the limit, zip sizes are
 * checked before inflating), path depth, and no absolute or `..` names.
 *
 * The byte limits follow the publisher's memory (128 MB per isolate, issue 14): a definition's text costs
 * about twice its size as a string and several times that once parsed, so an archive may expand to at most
 * 32 MiB, and one file to the upload limit (25 MiB).
 */

import { Gunzip, unzipSync } from "fflate";
import { readTar } from "./tar";
import { concatBytes } from "../../lib/read-stream";

/** Entries (files), total and per-file uncompressed bytes, and path segments of one entry. */
export const ARCHIVE_LIMITS = {
  maxEntries: 10_000,
  maxTotalBytes: 32 * 1024 * 1024,
  maxFileBytes: 25 * 1024 * 1024,
  maxPathDepth: 32,
};

export type ArchiveLimits = typeof ARCHIVE_LIMITS;

export type ExtractOutcome =
  /** `links`: names of symbolic and hard link entries (tar), never followed; a `$ref` to one is reported. */
  | { ok: true; files: Map<string, Uint8Array>; links: Set<string> }
  | { ok: false; status: 400 | 413; code: string; message: string };

/** Compressed bytes pushed at a time: deflate expands at most ~1032:1, so one push overshoots a limit by ≤ 4 MiB. */
const GZIP_CHUNK = 4 * 1024;

/** Inflates gzip data, refusing output past `maxBytes` (a gzip bomb stops after one chunk too many). */
export function gunzipBounded(body: Uint8Array, maxBytes: number): { ok: true; data: Uint8Array } | { ok: false; tooLarge: boolean; message: string } {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  try {
    const gunzip = new Gunzip((chunk) => {
      total += chunk.length;
      if (total > maxBytes) over = true;
      else chunks.push(chunk);
    });
    for (let i = 0; i < body.length && !over; i += GZIP_CHUNK) gunzip.push(body.subarray(i, i + GZIP_CHUNK), i + GZIP_CHUNK >= body.length);
  } catch (e) {
    return { ok: false, tooLarge: false, message: `invalid gzip data: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (over) return { ok: false, tooLarge: true, message: `the archive inflates to more than ${maxBytes} bytes` };
  return { ok: true, data: concatBytes(chunks, total) };
}

/** True when `data` looks like a POSIX/GNU tar (the "ustar" magic of the first header). */
export function isTar(data: Uint8Array): boolean {
  return data.length >= 263 && String.fromCharCode(...data.subarray(257, 262)) === "ustar";
}

/** Reads a tar (already inflated) or zip into a file map keyed by normalised relative path. */
export function extractArchive(data: Uint8Array, kind: "tar" | "zip", limits: ArchiveLimits = ARCHIVE_LIMITS): ExtractOutcome {
  const files = new Map<string, Uint8Array>();
  const links = new Set<string>();
  let total = 0;
  let admitted = 0;
  let refusal: ExtractOutcome | undefined;
  const admit = (rawName: string, size: number): string | undefined => {
    if (refusal) return undefined;
    const name = rawName.replace(/\\/g, "/").replace(/^(\.\/)+/, "");
    if (name.endsWith("/") || isJunk(name)) return undefined;
    if (name.startsWith("/") || /^[A-Za-z]:/.test(name) || name.split("/").includes("..")) {
      refusal = { ok: false, status: 400, code: "unsafe-archive", message: `archive entry ${JSON.stringify(rawName)} has an absolute or parent-directory path` };
      return undefined;
    }
    if (name.split("/").length > limits.maxPathDepth) {
      refusal = { ok: false, status: 413, code: "archive-too-deep", message: `archive entry ${JSON.stringify(name.slice(0, 200))} is nested more than ${limits.maxPathDepth} folders deep` };
      return undefined;
    }
    total += size;
    if (++admitted > limits.maxEntries) refusal = { ok: false, status: 413, code: "archive-too-large", message: `the archive has more than ${limits.maxEntries} files` };
    else if (size > limits.maxFileBytes) refusal = { ok: false, status: 413, code: "archive-too-large", message: `${name} is larger than ${limits.maxFileBytes} bytes` };
    else if (total > limits.maxTotalBytes) refusal = { ok: false, status: 413, code: "archive-too-large", message: `the archive's files add up to more than ${limits.maxTotalBytes} bytes` };
    return refusal ? undefined : name;
  };
  try {
    if (kind === "zip") {
      const names = new Map<string, string>();
      const unzipped = unzipSync(data, {
        filter: (file) => {
          const name = admit(file.name, file.originalSize);
          if (name) names.set(file.name, name);
          return name !== undefined;
        },
      });
      for (const [raw, content] of Object.entries(unzipped)) {
        const name = names.get(raw);
        if (name && content.length <= limits.maxFileBytes) files.set(name, content);
      }
    } else {
      for (const item of readTar(data)) {
        if (item.type === "link") {
          const name = admit(item.name, 0);
          if (name) links.add(name);
        }
        if (item.type !== "file") continue;
        const name = admit(item.name, item.size);
        if (name) files.set(name, item.data);
      }
    }
  } catch (e) {
    return { ok: false, status: 400, code: "invalid-archive", message: `the archive could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (refusal) return refusal;
  if (files.size === 0) return { ok: false, status: 400, code: "empty-archive", message: "the archive contains no files" };
  return { ok: true, files, links };
}

/** macOS and editor litter that is never part of a definition. */
function isJunk(name: string): boolean {
  const base = name.slice(name.lastIndexOf("/") + 1);
  return name.startsWith("__MACOSX/") || base.startsWith("._") || base === ".DS_Store";
}
