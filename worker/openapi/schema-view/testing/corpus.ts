/** @module Test support (Node only): reads a corpus definition as plain data. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse } from "yaml";

/** Root of the shared corpus, next to the project checkout. */
export const CORPUS_DIR = resolve(process.cwd(), "../shared/corpus");

/** Loads `relPath` (YAML or JSON) from the corpus. */
export function loadCorpus(relPath: string): Record<string, unknown> {
  const text = readFileSync(resolve(CORPUS_DIR, relPath), "utf8");
  return relPath.endsWith(".json") ? JSON.parse(text) : parse(text, { maxAliasCount: -1 });
}
