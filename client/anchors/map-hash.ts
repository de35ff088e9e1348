/**
 * @module Maps fragments that other renderers put in bookmarks to our anchors and URLs:
 * Redoc 2 `#operation/{operationId}` and `#tag/{tag}`; Redoc 3, Redocly and Swagger UI `#/{tag}/{operationId}`;
 * Scalar `#tag/{tag}/{METHOD}{path}` (and `#tag/{tag}`, `#description/...`). Pure: the page supplies the table.
 */

/** One operation as the page lists it. */
export interface AnchorOperation {
  slug: string;
  href: string;
  operationId?: string;
  method: string;
  path: string;
}

/** One tag heading. */
export interface AnchorTag {
  name: string;
  href: string;
}

/** Lower-case slug as Scalar and Redoc build them for tags. */
function slugify(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function findTag(tags: AnchorTag[], wanted: string): AnchorTag | undefined {
  const w = decode(wanted);
  return tags.find((t) => t.name === w) ?? tags.find((t) => slugify(t.name) === slugify(w));
}

function byOperationId(ops: AnchorOperation[], id: string): AnchorOperation | undefined {
  const w = decode(id);
  return ops.find((o) => o.operationId === w) ?? ops.find((o) => o.operationId !== undefined && slugify(o.operationId) === slugify(w)) ?? ops.find((o) => o.slug === w);
}

/**
 * The URL (or `#anchor`) a legacy fragment means on this page, or undefined when it is not a legacy form or
 * names nothing here (then the page leaves the fragment alone). `hash` includes the leading `#`.
 */
export function mapLegacyHash(hash: string, ops: AnchorOperation[], tags: AnchorTag[]): string | undefined {
  const h = hash.replace(/^#/, "");
  if (!h) return undefined;
  let m = /^operation\/(.+)$/.exec(h);
  if (m) return byOperationId(ops, m[1])?.href;
  m = /^tag\/([^/]+)\/([A-Za-z]+)(\/.*)$/.exec(h);
  if (m) {
    const method = m[2].toLowerCase();
    const path = decode(m[3]);
    return ops.find((o) => o.method === method && o.path === path)?.href;
  }
  m = /^tag\/([^/]+)\/operation\/(.+)$/.exec(h);
  if (m) return byOperationId(ops, m[2])?.href;
  m = /^tag\/([^/]+)$/.exec(h);
  if (m) return findTag(tags, m[1])?.href;
  m = /^\/([^/]+)\/([^/]+)$/.exec(h);
  if (m) return byOperationId(ops, m[2])?.href ?? undefined;
  m = /^\/([^/]+)\/?$/.exec(h);
  if (m) return findTag(tags, m[1])?.href;
  return undefined;
}
