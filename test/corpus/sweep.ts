/**
 * @module The corpus sweep, sharded so that vitest runs shards in parallel: every root definition of
 * ../shared/corpus is uploaded through HTTP and either publishes with the manifest's operation count, or is
 * refused with a 4xx and a reason. Then its index and a sample of operation pages must answer 200.
 * (Operations behind local path-item `$ref`s are added to the manifest's count: see harness/corpus-files.ts.)
 * In CI, a slice of the corpus (harness/corpus-slice.ts); `CORPUS_SWEEP=all` (the corpus-sweep benchmark) takes
 * every root.
 */
import { env } from "cloudflare:test";
import { expect } from "vitest";
import { inSweepSlice } from "../harness/corpus-slice";
import { corpusArchive, corpusFile, corpusManifest, createPortal, getPage, upload } from "../harness/client";

/** How many shard files exist (test/corpus/sweep-*.test.ts). */
export const SHARDS = 4;

export interface SweepReport {
  published: number;
  refused: { path: string; status: number; message: string }[];
}

/** Operation page links found in a version index page. */
function operationLinks(html: string, versionPath: string): string[] {
  const links = new Set<string>();
  for (const m of html.matchAll(/href="([^"#?]+)"/g)) {
    const href = m[1].replace(/&amp;/g, "&");
    if (href.startsWith(versionPath) && href.length > versionPath.length && !href.slice(versionPath.length).includes("/")) links.add(href);
  }
  return [...links];
}

/** Runs one shard of the sweep and returns what happened. */
export async function runShard(shard: number): Promise<SweepReport> {
  const roots = (await corpusManifest()).filter((r) => r.kind === "root");
  const swept = roots.filter((r, i) => inSweepSlice(i, r.multi_file === "yes", env.CORPUS_SWEEP === "all"));
  const mine = swept.filter((_, i) => i % SHARDS === shard);
  const token = await createPortal(`sweep-${shard}`);
  const report: SweepReport = { published: 0, refused: [] };
  for (const [i, row] of mine.entries()) {
    const api = `c${shard}-${i}`;
    const label = `${row.local_path} (#${i})`;
    let res;
    let expected = Number(row.operation_count);
    if (row.multi_file === "yes") {
      const archive = await corpusArchive(row.local_path);
      expected += archive.pathItemRefOperations;
      res = await upload(token, archive.body, { api, version: "v", root: archive.root }, "application/gzip");
    } else {
      const file = await corpusFile(row.local_path);
      expected += file.pathItemRefOperations;
      res = await upload(token, file.body, { api, version: "v" }, row.format === "json" ? "application/json" : "application/yaml");
    }
    expect(res.status, `${label}: ${JSON.stringify(res.json).slice(0, 300)}`).toBeLessThan(500);
    if (res.status >= 400) {
      expect(res.json.error?.message, label).toBeTruthy();
      report.refused.push({ path: row.local_path, status: res.status, message: res.json.error.message });
      continue;
    }
    expect(res.status, label).toBe(201);
    expect(res.json.operations, label).toBe(expected);
    report.published++;
    const versionPath = `/p/sweep-${shard}/reference/${api}/v/`;
    const index = await getPage(versionPath);
    expect(index.status, `${label} index`).toBe(200);
    const links = operationLinks(index.html, versionPath);
    expect(links.length, `${label} operation links`).toBeGreaterThanOrEqual(Math.min(1, expected));
    const sample = links.length <= 3 ? links : [links[0], links[links.length >> 1], links[links.length - 1]];
    for (const href of sample) {
      const page = await getPage(href);
      expect(page.status, `${label} ${href}`).toBe(200);
    }
  }
  return report;
}
