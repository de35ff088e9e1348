/**
 * @module Operation slugs: the URL segment of an operation page. Stable for a given document, unique within a
 * version. The renderer and redirects compute them with the same functions.
 */

/** Lower-case, every run of non-alphanumerics becomes one "-", no leading/trailing "-". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
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
  return natural.map((slug) => {
    if (!used.has(slug)) {
      used.add(slug);
      return slug;
    }
    let n = 2;
    while (taken.has(`${slug}-${n}`) || used.has(`${slug}-${n}`)) n++;
    const unique = `${slug}-${n}`;
    used.add(unique);
    return unique;
  });
}
