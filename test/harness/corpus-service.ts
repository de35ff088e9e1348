/**
 * @module Test-only service binding (runs in Node, outside workerd) that serves ../shared/corpus to tests.
 *
 * GET /manifest            MANIFEST.tsv
 * GET /file?path=P         one corpus file, raw
 * Both /file and /archive answer `x-path-item-ref-operations` (see corpus-files.ts) for the root.
 * GET /archive?root=P      a .tar.gz of the root and every file its relative `$ref`s reach (transitively),
 *                          names relative to the root's folder's nearest common ancestor; header
 *                          `x-archive-root` gives the root's name inside the archive
 */
import { readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { createTarGzip } from "nanotar";
import { commonDir, CORPUS_DIR, operationsBehindLocalPathItemRefs, referencedFiles } from "./corpus-files.ts";

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
