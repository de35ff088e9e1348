/**
 * @module Large YAML in bounded memory: the document is parsed entry by entry (see yaml-chunks.ts) and merged;
 * `locate` re-parses only the entry a path falls in (a few are cached). Any entry that does not parse alone
 * (an alias to another entry's anchor, a syntax error) makes the caller parse the whole text instead, which
 * also gives the exact error.
 */

import { splitYaml } from "./yaml-chunks";
import type { YamlChunk } from "./yaml-chunks";
import type { ParsedDocument, ParseOptions, ParseOutcome, ParseWarning, SourcePosition } from "./types";

type ParseEntry = (text: string, options: Required<Pick<ParseOptions, "maxDepth" | "maxAliasCount">>) => ParseOutcome;

/** Entries larger than this are split into their own entries. */
const MAX_CHUNK_CHARS = 64 * 1024;
const LOCATE_CACHE = 8;

/**
 * Parses `text` entry by entry with `parseEntry` (the ordinary YAML parser). Undefined when the text cannot be
 * split or an entry does not parse on its own: parse it whole then.
 */
export function parseLargeYaml(text: string, maxDepth: number, maxAliasCount: number, parseEntry: ParseEntry): ParseOutcome | undefined {
  const split = splitYaml(text, MAX_CHUNK_CHARS);
  if (!split) return undefined;
  const root: Record<string, unknown> = {};
  const warnings: ParseWarning[] = [];
  for (const chunk of split.chunks) {
    const outcome = parseEntry(text.slice(chunk.start, chunk.end), { maxDepth: maxDepth - chunk.path.length, maxAliasCount });
    if (!outcome.ok) {
      // Limits are final wherever they are hit; other errors may come from splitting, so parse whole.
      if (outcome.error.code !== "too-deep" && outcome.error.code !== "aliases") return undefined;
      const line = outcome.error.line === undefined ? undefined : outcome.error.line + chunk.line;
      return { ok: false, error: { ...outcome.error, ...(line === undefined ? {} : { line }) } };
    }
    for (const w of outcome.doc.warnings) warnings.push(w.line === undefined ? w : { ...w, line: w.line + chunk.line });
    const target = containerAt(root, chunk.path);
    if (!target) return undefined;
    for (const [key, value] of Object.entries(outcome.doc.data as Record<string, unknown>)) {
      if (Object.hasOwn(target, key)) warnings.push({ code: "duplicate-key", message: "Duplicate mapping key (the last one wins)", line: chunk.line + 1, column: 1 });
      target[key] = value;
    }
  }
  const doc: ParsedDocument = { format: "yaml", data: root, warnings, locate: createChunkLocator(text, split.chunks, split.containers, maxDepth, maxAliasCount, parseEntry) };
  return { ok: true, doc };
}

function containerAt(root: Record<string, unknown>, path: string[]): Record<string, unknown> | undefined {
  let node = root;
  for (const key of path) {
    if (!Object.hasOwn(node, key)) node[key] = {};
    const next = node[key];
    if (next === null || typeof next !== "object" || Array.isArray(next)) return undefined;
    node = next as Record<string, unknown>;
  }
  return node;
}

function createChunkLocator(text: string, chunks: YamlChunk[], containers: { path: string[]; line: number; column: number }[], maxDepth: number, maxAliasCount: number, parseEntry: ParseEntry) {
  const cache = new Map<YamlChunk, ParsedDocument>();
  const startsWith = (path: readonly (string | number)[], prefix: string[]) => prefix.length <= path.length && prefix.every((k, i) => String(path[i]) === k);
  return (path: readonly (string | number)[]): SourcePosition | undefined => {
    let chunk: YamlChunk | undefined;
    for (let i = chunks.length - 1; i >= 0 && !chunk; i--) {
      const c = chunks[i];
      if (path.length > c.path.length && startsWith(path, c.path) && String(path[c.path.length]) === c.key) chunk = c;
    }
    if (!chunk) {
      const container = containers.filter((c) => startsWith(path, c.path)).sort((a, b) => b.path.length - a.path.length)[0];
      const firstChunk = chunks[0];
      return container ? { line: container.line, column: container.column } : firstChunk ? { line: firstChunk.line + 1, column: 1 } : undefined;
    }
    let parsed = cache.get(chunk);
    if (!parsed) {
      const outcome = parseEntry(text.slice(chunk.start, chunk.end), { maxDepth: maxDepth - chunk.path.length, maxAliasCount });
      if (!outcome.ok) return { line: chunk.line + 1, column: 1 };
      parsed = outcome.doc;
      if (cache.size >= LOCATE_CACHE) cache.delete(cache.keys().next().value as YamlChunk);
      cache.set(chunk, parsed);
    }
    const at = parsed.locate(path.slice(chunk.path.length));
    return at && { line: at.line + chunk.line, column: at.column };
  };
}
