/** @module API slugs and version labels as they appear in reader URLs. */

const API_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

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

/** True for a label usable as one URL path segment: 1-64 printable characters, no "/" or "\\". */
export function isValidVersionLabel(label: string): boolean {
  return label.length > 0 && label.length <= 64 && !/[\/\\\u0000-\u001f\u007f]/.test(label) && label !== "." && label !== "..";
}
