/**
 * @module A content upload's body (`.tar.gz`, `.tar` or `.zip`) → its file map, through the definition
 * uploads' archive module (worker/openapi/archive) and its limits: entry count, bytes, no traversal names.
 * A single folder wrapping everything (`docs/portico.yaml`, `docs/guides/...`) is unwrapped.
 */
import { ARCHIVE_LIMITS, extractArchive, gunzipBounded, isTar, type ArchiveLimits } from "../openapi/archive/extract";

export type BundleFiles = Map<string, Uint8Array>;

export type ArchiveOutcome = { ok: true; files: BundleFiles } | { ok: false; status: 400 | 413 | 415; code: string; message: string };

const CONTENT_ROOTS = ["portico.yaml", "guides/", "steps/", "changelog/", "glossary.yaml"];

/** Reads the upload body; never throws. */
export function readContentArchive(body: Uint8Array, limits: ArchiveLimits = ARCHIVE_LIMITS): ArchiveOutcome {
  if (body.length === 0) return { ok: false, status: 400, code: "empty", message: "the body is empty: post the bundle as a .tar.gz or .zip" };
  let data = body;
  let kind: "tar" | "zip";
  if (body[0] === 0x1f && body[1] === 0x8b) {
    const inflated = gunzipBounded(body, limits.maxTotalBytes);
    if (!inflated.ok) return { ok: false, status: inflated.tooLarge ? 413 : 400, code: inflated.tooLarge ? "archive-too-large" : "invalid-archive", message: inflated.message };
    data = inflated.data;
    if (!isTar(data)) return { ok: false, status: 415, code: "unsupported-media-type", message: "the gzip data is not a tar archive" };
    kind = "tar";
  } else if (body[0] === 0x50 && body[1] === 0x4b) kind = "zip";
  else if (isTar(body)) kind = "tar";
  else return { ok: false, status: 415, code: "unsupported-media-type", message: "post the content bundle as a .tar.gz, .tar or .zip archive" };
  const extracted = extractArchive(data, kind, limits);
  if (!extracted.ok) return extracted;
  return { ok: true, files: unwrap(extracted.files) };
}

/** Strips one wrapping folder when the content lives under it (archives made with `tar czf b.tgz docs/`). */
function unwrap(files: BundleFiles): BundleFiles {
  const names = [...files.keys()];
  if (names.some((n) => CONTENT_ROOTS.some((r) => n === r || n.startsWith(r)))) return files;
  const first = names[0]?.split("/")[0];
  if (!first || !names.every((n) => n.startsWith(first + "/"))) return files;
  return new Map(names.map((n) => [n.slice(first.length + 1), files.get(n)!]));
}
