/**
 * @module Test-only service binding (runs in Node, outside workerd) that serves ../shared/corpus to tests.
 *
 * GET /manifest            MANIFEST.tsv
 * GET /file?path=P         one corpus file, raw
 * Both /file and /archive answer `x-path-item-ref-operations` (see path-item-refs.ts) for the root.
 * GET /archive?root=P      a .tar.gz of the root and every file its relative `$ref`s reach (transitively),
 *                          names relative to the root's folder's nearest common ancestor; header
 *                          `x-archive-root` gives the root's name inside the archive
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { createTarGzip } from "nanotar";
import { parse as parseYaml } from "yaml";
import { operationsBehindLocalPathItemRefs } from "./path-item-refs.ts";

/** Where the shared corpus lives (beside the project, as CI lays it out). */
export const CORPUS_DIR = resolve(import.meta.dirname, "../../../shared/corpus");

function collectRefs(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectRefs(item, out);
  } else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") out.add(value);
      else collectRefs(value, out);
    }
  }
}

/** The root plus every file reachable through relative file `$ref`s; missing targets are skipped. */
export function referencedFiles(rootAbs: string): string[] {
  const seen = new Set<string>();
  const queue = [rootAbs];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file) || !statSync(file).isFile()) continue;
    seen.add(file);
    let data: unknown;
    try {
      data = parseYaml(readFileSync(file, "utf8"), { maxAliasCount: -1, uniqueKeys: false, strict: false });
    } catch {
      continue;
    }
    const refs = new Set<string>();
    collectRefs(data, refs);
    for (const ref of refs) {
      const target = ref.split("#")[0];
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      queue.push(resolve(dirname(file), decodeURI(target)));
    }
  }
  return [...seen];
}

function commonDir(files: string[]): string {
  let base = dirname(files[0]);
  for (const f of files) {
    while (!(f + sep).startsWith(base + sep) && base !== dirname(base)) base = dirname(base);
    while (!f.startsWith(base + sep)) base = dirname(base);
  }
  return base;
}

function safePath(p: string | null): string {
  if (!p) throw new Error("path required");
  const abs = resolve(CORPUS_DIR, p);
  if (!abs.startsWith(CORPUS_DIR + sep)) throw new Error("path escapes the corpus");
  return abs;
}

/** The service binding's handler (miniflare calls it with a Fetch API Request). */
export async function corpusService(request: Request): Promise<Response> {
  const url = new URL(request.url);
  try {
    if (url.pathname === "/manifest") {
      return new Response(readFileSync(join(CORPUS_DIR, "MANIFEST.tsv")));
    }
    if (url.pathname === "/file") {
      const file = safePath(url.searchParams.get("path"));
      return new Response(readFileSync(file), { headers: { "x-path-item-ref-operations": String(operationsBehindLocalPathItemRefs(file)) } });
    }
    if (url.pathname === "/archive") {
      const rootAbs = safePath(url.searchParams.get("root"));
      const files = referencedFiles(rootAbs);
      const base = commonDir(files);
      const tgz = await createTarGzip(
        files.map((f) => ({ name: relative(base, f).split(sep).join("/"), data: new Uint8Array(readFileSync(f)) })),
      );
      return new Response(tgz as Uint8Array<ArrayBuffer>, {
        headers: {
          "x-archive-root": relative(base, rootAbs).split(sep).join("/"),
          "x-archive-files": String(files.length),
          "x-path-item-ref-operations": String(operationsBehindLocalPathItemRefs(rootAbs)),
        },
      });
    }
    return new Response("not found", { status: 404 });
  } catch (error) {
    return new Response(String(error), { status: 400 });
  }
}
