/// <reference types="node" />
/**
 * @module Corpus sweep: every root definition of ../shared/corpus goes through buildReference. Each one builds
 * with the manifest's operation count and every slice serialises, or is refused with a 4xx and a reason.
 * Multi-file definitions are uploaded as archives (tar, tar.gz and zip in turn) of the files they reference.
 * In CI, a slice of the corpus (test/harness/corpus-slice.ts); `CORPUS_SWEEP=all` (the corpus-sweep benchmark)
 * takes every root.
 */

import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { commonDir, CORPUS_DIR as CORPUS, operationsBehindLocalPathItemRefs, referencedFiles } from "../../test/harness/corpus-files";
import { inSweepSlice } from "../../test/harness/corpus-slice";
import { buildReference } from "./build";
import type { BuildOutcome } from "./build";

interface Row {
  path: string;
  operations: number;
  multiFile: boolean;
  version: string;
}

function roots(): Row[] {
  const lines = readFileSync(join(CORPUS, "MANIFEST.tsv"), "utf8").trim().split("\n");
  const header = lines[0].split("\t");
  const col = (name: string) => header.indexOf(name);
  return lines
    .slice(1)
    .map((l) => l.split("\t"))
    .filter((r) => r[col("kind")] === "root")
    .map((r) => ({ path: r[col("local_path")], operations: Number(r[col("operation_count")]), multiFile: r[col("multi_file")] === "yes", version: r[col("declared_version")] }));
}

/** A POSIX ustar archive; names longer than 100 bytes use the `prefix` field, as node-tar writes them. */
function ustar(entries: { name: string; data: Uint8Array }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  const put = (header: Uint8Array, at: number, text: string) => header.set(new TextEncoder().encode(text), at);
  for (const { name, data } of entries) {
    const header = new Uint8Array(512);
    const cut = name.length > 100 ? name.lastIndexOf("/", 155) : -1;
    put(header, 0, cut === -1 ? name : name.slice(cut + 1));
    put(header, 100, "0000644\0");
    put(header, 108, "0000000\0");
    put(header, 116, "0000000\0");
    put(header, 124, data.length.toString(8).padStart(11, "0") + "\0");
    put(header, 136, "00000000000\0");
    put(header, 148, "        ");
    put(header, 156, "0");
    put(header, 257, "ustar\u000000");
    if (cut !== -1) put(header, 345, name.slice(0, cut));
    const sum = header.reduce((a, b) => a + b, 0);
    put(header, 148, sum.toString(8).padStart(6, "0") + "\0 ");
    blocks.push(header, data, new Uint8Array((512 - (data.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

function archive(row: Row, index: number): { body: Uint8Array; root: string } {
  const rootAbs = join(CORPUS, row.path);
  const files = referencedFiles(rootAbs);
  const base = commonDir(files);
  const entries = files.map((f) => ({ name: relative(base, f), data: new Uint8Array(readFileSync(f)) }));
  const root = relative(base, rootAbs);
  const format = index % 3;
  if (format === 0) return { body: ustar(entries), root };
  if (format === 1) return { body: gzipSync(ustar(entries)), root };
  return { body: zipSync(Object.fromEntries(entries.map((e) => [e.name, e.data]))), root };
}

describe("corpus sweep", () => {
  it("builds every root definition of the sweep (a CI slice; CORPUS_SWEEP=all: the corpus) with the manifest's operation count, or refuses it with a 4xx and a reason", () => {
    const all = roots();
    expect(all.length).toBe(568);
    const rows = all.filter((r, i) => inSweepSlice(i, r.multiFile, process.env.CORPUS_SWEEP === "all"));
    const refusals: string[] = [];
    const mismatches: string[] = [];
    const followedRefs: string[] = [];
    let built = 0;
    let slices = 0;
    let archives = 0;
    rows.forEach((row) => {
      let outcome: BuildOutcome;
      if (row.multiFile) {
        archives++;
        outcome = buildReference(archive(row, archives));
      } else {
        outcome = buildReference({ body: new Uint8Array(readFileSync(join(CORPUS, row.path))) });
      }
      if (!outcome.ok) {
        expect([400, 413, 415, 422]).toContain(outcome.status);
        expect(outcome.code).not.toBe("unprocessable");
        expect(outcome.message.length).toBeGreaterThan(10);
        refusals.push(`${row.path} (${row.version}): ${outcome.status} ${outcome.code}: ${outcome.message.slice(0, 160)}`);
        return;
      }
      built++;
      const paths = outcome.operations.filter((o) => o.kind === "operation").length;
      const behindRefs = row.multiFile ? 0 : operationsBehindLocalPathItemRefs(join(CORPUS, row.path));
      if (behindRefs) followedRefs.push(`${row.path}: ${row.operations} + ${behindRefs} behind path-item $refs`);
      const expected = row.operations + behindRefs;
      if (paths !== expected || outcome.header.counts.operations !== expected) {
        mismatches.push(`${row.path}: built ${paths} operations, expected ${expected} (manifest ${row.operations})`);
      }
      for (const op of outcome.operations) {
        expect(JSON.stringify(outcome.slice(op.slug)).length).toBeGreaterThan(0);
        slices++;
      }
    });
    console.log(`corpus sweep: ${rows.length} of ${all.length} roots (${archives} as archives), ${built} built with ${slices} slices, ${refusals.length} refused`);
    for (const r of refusals) console.log(`  refused: ${r}`);
    for (const r of followedRefs) console.log(`  path-item refs followed: ${r}`);
    expect(mismatches).toEqual([]);
  }, 120_000);
});
