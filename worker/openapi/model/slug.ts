/**
 * @module Operation slugs: the URL segment of an operation page. Stable for a given document, unique within a
 * version. The renderer and redirects compute them with the same functions.
 */

/** Longest slug, in characters: a slug is a URL segment, and a 1.5 MB operationId made a URL servers refuse (431). */
export const MAX_SLUG_LENGTH = 120;

/** Lower-case, every run of non-alphanumerics becomes one "-", no leading/trailing "-", at most {@link MAX_SLUG_LENGTH} characters. */
export function slugify(text: string): string {
  return text
    .slice(0, MAX_SLUG_LENGTH * 4)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, MAX_SLUG_LENGTH + 1)
    .replace(/^-+|-+$/g, "")
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, "");
}

/** Slug of a path operation: from its operationId when that yields anything, else `${method}-${path}`. */
export function operationSlug(method: string, path: string, operationId?: string): string {
  const fromId = operationId ? slugify(operationId) : "";
  return fromId || slugify(`${method} ${path}`) || "operation";
}

/** `webhook-<name>-<method>`. */
export function webhookSlug(name: string, method: string): string {
  return slugify(`webhook ${name} ${method}`);
}

/** `<parentSlug>-callback-<name>-<method>`. */
export function callbackSlug(parentSlug: string, callbackName: string, method: string): string {
  return slugify(`${parentSlug} callback ${callbackName} ${method}`);
}

/**
 * Makes slugs unique in order: the first holder of a slug keeps it, later ones get `-2`, `-3`, ... skipping any
 * suffix that another entry holds naturally (so adding a duplicate never renames an unrelated operation).
 * `reserved` slugs (assigned earlier) are never handed out again.
 */
export function dedupeSlugs(natural: readonly string[], reserved: ReadonlySet<string> = new Set()): string[] {
  const taken = new Set([...natural, ...reserved]);
  const used = new Set(reserved);
  // The next suffix to try per slug: 10,000 operations sharing one operationId stay linear.
  const next = new Map<string, number>();
  return natural.map((slug) => {
    if (!used.has(slug)) {
      used.add(slug);
      return slug;
    }
    let n = next.get(slug) ?? 2;
    while (taken.has(`${slug}-${n}`) || used.has(`${slug}-${n}`)) n++;
    next.set(slug, n + 1);
    const unique = `${slug}-${n}`;
    used.add(unique);
    return unique;
  });
}
