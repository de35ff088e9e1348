/** @module Test support (Node only): reads a corpus definition as plain data. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parse } from "yaml";
import { CORPUS_DIR } from "../../../../test/harness/corpus-files";

export { CORPUS_DIR };

/** Loads `relPath` (YAML or JSON) from the corpus. */
export function loadCorpus(relPath: string): Record<string, unknown> {
  const text = readFileSync(resolve(CORPUS_DIR, relPath), "utf8");
  return relPath.endsWith(".json") ? JSON.parse(text) : parse(text, { maxAliasCount: -1 });
}
