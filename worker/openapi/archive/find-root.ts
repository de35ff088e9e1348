/**
 * @module Which file of an archive is the definition's root: the one named by `?root=`, else the single
 * shallowest JSON/YAML file with a top-level `openapi` or `swagger` key.
 */

import { isStructuredFile } from "../bundle/file-path";

export type RootChoice = { ok: true; path: string } | { ok: false; code: "root-not-found" | "ambiguous-root"; message: string; candidates: string[] };

const ROOT_KEY_YAML = /^["']?(openapi|swagger)["']?[ \t]*:/m;
const ROOT_KEY_JSON = /"(openapi|swagger)"\s*:/;

/**
 * Picks the root. `text(path)` decodes a file (undefined when it is not text); `hasRootKey(path)` confirms a
 * candidate by parsing it. A named root may omit a single top folder every entry shares.
 */
export function findRoot(paths: readonly string[], requested: string | undefined, text: (path: string) => string | undefined, hasRootKey: (path: string) => boolean): RootChoice {
  const structured = paths.filter(isStructuredFile);
  if (requested !== undefined) {
    const wanted = requested.replace(/\\/g, "/").replace(/^(\.?\/)+/, "");
    const top = commonTopFolder(paths);
    const match = paths.includes(wanted) ? wanted : top && paths.includes(`${top}/${wanted}`) ? `${top}/${wanted}` : undefined;
    if (match) return { ok: true, path: match };
    return { ok: false, code: "root-not-found", message: `root ${JSON.stringify(requested)} is not in the archive`, candidates: structured.slice(0, 20) };
  }
  const candidates = structured.filter((p) => {
    const t = text(p);
    return t !== undefined && (/\.json$/i.test(p) ? ROOT_KEY_JSON : ROOT_KEY_YAML).test(t) && hasRootKey(p);
  });
  if (candidates.length === 0) {
    return { ok: false, code: "root-not-found", message: "no file in the archive has a top-level `openapi` or `swagger` key; name the root with ?root=", candidates: [] };
  }
  const depth = (p: string) => p.split("/").length;
  const shallowest = Math.min(...candidates.map(depth));
  const best = candidates.filter((p) => depth(p) === shallowest).sort();
  if (best.length > 1) {
    return { ok: false, code: "ambiguous-root", message: `several files could be the root (${best.join(", ")}); choose one with ?root=`, candidates: best };
  }
  return { ok: true, path: best[0] };
}

function commonTopFolder(paths: readonly string[]): string | undefined {
  const tops = new Set(paths.map((p) => (p.includes("/") ? p.slice(0, p.indexOf("/")) : "")));
  const [only] = tops;
  return tops.size === 1 && only ? only : undefined;
}
