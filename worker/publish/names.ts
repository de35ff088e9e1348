/**
 * @module API slugs and version labels as they appear in reader URLs and switchers. A label is shown to readers
 * and chosen by whoever uploads, so it must not be able to break a page or pass for another label: it is
 * checked before anything is written (well-formed Unicode, no control, bidi, invisible or unassigned
 * characters) and stored in NFC, so that one label has one spelling.
 * @see https://www.unicode.org/reports/tr36/ (visual spoofing), https://www.unicode.org/reports/tr9/ (bidi controls)
 */

const API_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/** Longest label, in UTF-16 code units (one URL path segment). */
export const MAX_LABEL_LENGTH = 64;

/** A URL slug from an API title: lower case, runs of other characters to one dash, at most 64 characters. */
export function apiSlugFromTitle(title: string): string {
  const slug = title
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/g, "");
  return slug || "api";
}

/** True for 1-64 characters of lower-case letters, digits and inner dashes. */
export function isValidApiSlug(slug: string): boolean {
  return API_SLUG.test(slug);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Bidirectional controls (embeddings, overrides, isolates, marks): they reorder what a reader sees. */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/**
 * Characters that render as nothing (or as blank space) without being Unicode format characters: Hangul and
 * halfwidth fillers, the Braille blank, the combining grapheme joiner, Mongolian vowel separator's neighbours.
 */
const INVISIBLE = /[\u115F\u1160\u3164\uFFA0\u2800\u034F\u17B4\u17B5\u180B-\u180F]/u;
/** Control (Cc), format (Cf: zero-width characters, soft hyphen, BOM, tags), private use, unassigned, line/paragraph separators. */
const FORBIDDEN_CATEGORY = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}]/u;
/** Spaces other than U+0020 (no-break, em, ideographic...): they look like a space but are another label. */
const OTHER_SPACE = /[^\S ]|\p{Zs}/u;

function codePoint(ch: string): string {
  return "U+" + ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
}

/** Why `label` cannot be a version label, or undefined when it can (check {@link normalizeLabel}'s result). */
function labelProblem(label: string): string | undefined {
  if (LONE_SURROGATE.test(label)) return "is not well-formed Unicode (it contains a lone surrogate)";
  if (label.length === 0) return "is empty";
  if (label.length > MAX_LABEL_LENGTH) return `is longer than ${MAX_LABEL_LENGTH} characters`;
  if (label === "." || label === "..") return `cannot be "${label}"`;
  if (/[/\\]/.test(label)) return 'cannot contain "/" or "\\"';
  if (label !== label.trim()) return "cannot start or end with white space";
  for (const ch of label) {
    if (BIDI.test(ch)) return `contains ${codePoint(ch)}, a bidirectional control character`;
    if (/\p{Cc}/u.test(ch)) return `contains ${codePoint(ch)}, a control character`;
    if (INVISIBLE.test(ch) || /\p{Cf}/u.test(ch)) return `contains ${codePoint(ch)}, an invisible character`;
    if (ch !== " " && (OTHER_SPACE.test(ch) || FORBIDDEN_CATEGORY.test(ch))) {
      return `contains ${codePoint(ch)}, which is not allowed (unassigned, private-use, or a space other than U+0020)`;
    }
  }
  return undefined;
}

/**
 * Checks a version label and returns it in NFC (the form it is stored, compared and linked in).
 * Labels: 1-64 characters, well-formed Unicode, no "/" or "\\", no control, bidi, invisible, private-use or
 * unassigned characters, no space but U+0020 and none at either end.
 */
export function normalizeLabel(label: string): { ok: true; label: string } | { ok: false; reason: string } {
  const early = LONE_SURROGATE.test(label) ? labelProblem(label) : undefined;
  if (early) return { ok: false, reason: early };
  const nfc = label.normalize("NFC");
  const problem = labelProblem(nfc);
  return problem ? { ok: false, reason: problem } : { ok: true, label: nfc };
}

/** True for a label usable as it is (already NFC) as one URL path segment; see {@link normalizeLabel}. */
export function isValidVersionLabel(label: string): boolean {
  const checked = normalizeLabel(label);
  return checked.ok && checked.label === label;
}

/**
 * The label an `info.version` is published under: "/" and "\\" each become "-" (`N/A` → `N-A`), since a label is one
 * URL path segment and OpenAPI's `info.version` is any string (3.1.1 §4.8.2). Only `info.version` is changed so:
 * a `?version=` is chosen by the uploader, who is told to choose again (400). The result still goes through
 * {@link normalizeLabel}.
 * @see https://spec.openapis.org/oas/v3.1.1.html#info-object
 */
export function labelFromVersion(version: string): string {
  return version.replace(/[/\\]/g, "-");
}

/**
 * The label a definition without a version is published under (issue 12): the upload's date in UTC, `YYYY-MM-DD`
 * (ISO 8601). Used when `info.version` is empty, white space, missing or not text, and no `?version=` was given.
 * A date, not `latest`: every label is a snapshot that is kept, diffed (`/changes?from=&to=`) and drafted into the
 * changelog, so dated labels give an unversioned API a history readers can compare and tell the age of, where one
 * `latest` label would fold every upload into one entry. Re-posting the same day adds a publication to that label
 * (its URL serves the newest), as re-posting any label does.
 */
export function fallbackVersionLabel(now: Date): string {
  return now.toISOString().slice(0, 10);
}
