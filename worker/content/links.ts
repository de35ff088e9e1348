/**
 * @module Link targets of guides: `op:<api>#<operationId>` / `op:<api>#<METHOD> <path>` operation links, guide
 * paths relative to the linking file, same-page anchors, and assets. Pure; the compiler records what they find.
 */
import type { OperationIndex, OperationRef } from "./types";

/** `op:pets#getPet` or `op:pets#GET /pets/{id}` → its parts; undefined when not an `op:` link. */
export function parseOpLink(href: string): { api: string; ref: string } | undefined {
  const m = /^op:([^#\s]+)#(.+)$/.exec(href.trim());
  return m ? { api: m[1], ref: m[2].trim() } : undefined;
}

/** The live operation an `op:` link names, by operationId or by method and path. */
export function findOperation(index: OperationIndex, api: string, ref: string): OperationRef | undefined {
  const ops = index.get(api);
  if (!ops) return undefined;
  const mp = /^([A-Za-z]+)\s+(\/\S*)$/.exec(ref);
  if (mp) {
    const method = mp[1].toLowerCase();
    return ops.find((o) => o.method.toLowerCase() === method && o.path === mp[2]);
  }
  return ops.find((o) => o.operationId === ref);
}

/** Resolves `target` (POSIX, relative) against the directory of `from`; undefined when it leaves the bundle. */
export function resolvePath(from: string, target: string): string | undefined {
  const parts = target.startsWith("/") ? [] : from.split("/").slice(0, -1);
  for (const seg of target.replace(/^\/+/, "").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (parts.length === 0) return undefined;
      parts.pop();
    } else parts.push(seg);
  }
  return parts.join("/");
}

/** True for targets that leave the portal (an absolute URL with a scheme, or protocol-relative). */
export function isExternal(href: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(href) || href.startsWith("//");
}

const MEDIA: Record<string, string> = {
  png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp", avif: "image/avif", svg: "image/svg+xml",
  pdf: "application/pdf", txt: "text/plain; charset=utf-8", ico: "image/x-icon",
  // Brand files (docs/branding.md): fonts, and stylesheets (sanitised at publish, worker/content/brand-files.ts).
  woff2: "font/woff2", woff: "font/woff", ttf: "font/ttf", otf: "font/otf", css: "text/css; charset=utf-8",
};

/** Media type of an asset path, or undefined when the extension is not an accepted asset. */
export function assetType(path: string): string | undefined {
  const ext = path.slice(path.lastIndexOf(".") + 1).toLowerCase();
  return MEDIA[ext];
}
