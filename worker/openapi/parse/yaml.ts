/**
 * @module YAML branch of {@link parseDocument}, on the `yaml` library: CST first (iterative), depth checked on
 * it before the recursive composer runs, then the document with aliases bounded and cycles refused.
 */

import { Composer, isMap, isNode, isPair, isScalar, isSeq, LineCounter, Parser } from "yaml";
import type { CST, Document } from "yaml";
import type { WorkBudget } from "../work-budget";
import { checkExpansion } from "./yaml-expansion";
import { createYamlLocator } from "./yaml-locate";
import { parseLargeYaml } from "./yaml-large";
import { repairQuotedContinuations } from "./yaml-repair";
import type { ParseOutcome, ParseWarning } from "./types";

/** Texts longer than this are parsed entry by entry when their layout allows (see yaml-large.ts). */
export const LARGE_YAML_CHARS = 1024 * 1024;

/**
 * What {@link parseYaml} computes of the value: `"all"`, the data; `"keys"`, for a text parsed only for its errors
 * and warnings, a mapping's top-level keys with `undefined` values (the `yaml` library's toJS skipped: ~5% of a
 * parse, and no values for the collector). `"keys"` gives the whole data anyway when it could differ: aliases (their
 * problems surface in toJS), `<<` merge or non-scalar keys at the top, text past `largeAbove`.
 */
export type YamlValues = "all" | "keys";

/**
 * Parses YAML text (BOM already removed) as YAML 1.2 core schema with `<<` merge keys. On a syntax error, one
 * libyaml leniency is retried (see yaml-repair.ts) and reported as a warning when it succeeds. Large texts are
 * parsed entry by entry to stay within a Worker's memory.
 */
export function parseYaml(text: string, maxDepth: number, maxAliasCount: number, requireObject = true, largeAbove = LARGE_YAML_CHARS, budget?: WorkBudget, values: YamlValues = "all"): ParseOutcome {
  if (text.length > largeAbove) {
    const large = parseLargeYaml(text, maxDepth, maxAliasCount, (entry, o) => {
      budget?.spend("parsing YAML", Math.ceil(entry.length / 64));
      return parseYamlWhole(entry, o.maxDepth, o.maxAliasCount, true);
    });
    if (large) return large;
    values = "all";
  }
  return parseYamlWhole(text, maxDepth, maxAliasCount, requireObject, values);
}

function parseYamlWhole(text: string, maxDepth: number, maxAliasCount: number, requireObject: boolean, values: YamlValues = "all"): ParseOutcome {
  const outcome = parseYamlStrict(text, maxDepth, maxAliasCount, requireObject, values);
  if (outcome.ok || outcome.error.code !== "syntax") return outcome;
  const repaired = repairQuotedContinuations(text);
  if (!repaired) return outcome;
  const retry = parseYamlStrict(repaired.text, maxDepth, maxAliasCount, requireObject, values);
  if (!retry.ok) return outcome;
  const message = "Continuation line of a multi-line quoted string is not indented past its key (accepted, as libyaml does)";
  retry.doc.warnings.push(...repaired.lines.map((line) => ({ code: "yaml-warning" as const, message, line, column: 1 })));
  return retry;
}

function parseYamlStrict(text: string, maxDepth: number, maxAliasCount: number, requireObject: boolean, values: YamlValues = "all"): ParseOutcome {
  const lines = new LineCounter();
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  const tokens = Array.from(new Parser(lines.addNewLine).parse(text));
  const shape = measureTokens(tokens, maxDepth);
  if (shape.tooDeepAt !== undefined) {
    return { ok: false, error: { code: "too-deep", message: `Nesting deeper than ${maxDepth} levels`, ...at(shape.tooDeepAt) } };
  }
  // uniqueKeys: false because the library checks each key against every earlier key of its map (quadratic: a
  // 9,000-path map cost ~2 s); duplicateKeyOffsets finds the same duplicates in one pass.
  const composer = new Composer({ version: "1.2", schema: "core", merge: true, logLevel: "silent", uniqueKeys: false });
  const docs = [...composer.compose(tokens, true, text.length)] as Document.Parsed[];
  const doc = docs[0];
  if (docs.length > 1) {
    const where = at(docs[1].range[0]);
    return { ok: false, error: { code: "syntax", message: `More than one YAML document in the file (line ${where.line})`, ...where } };
  }
  const fatal = doc.errors[0];
  if (fatal) {
    const where = at(fatal.pos[0]);
    const message = fatal.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "");
    return { ok: false, error: { code: "syntax", message: `${message} (line ${where.line}, column ${where.column})`, ...where } };
  }
  const warnings: ParseWarning[] = [
    ...duplicateKeyOffsets(doc).map((offset) => ({ code: "duplicate-key" as const, message: "Duplicate mapping key (the last one wins)", ...at(offset) })),
    ...doc.warnings.map((w) => ({ code: "yaml-warning" as const, message: w.message.split("\n")[0], ...at(w.pos[0]) })),
  ];
  if (doc.contents === null) return { ok: false, error: { code: "empty", message: "The document is empty" } };
  if (requireObject && !isMap(doc.contents) && !shape.aliases.length) {
    return { ok: false, error: { code: "not-object", message: "The document is not a mapping", ...at(doc.contents.range[0]) } };
  }
  if (values === "keys" && !shape.aliases.length) {
    const keys = topKeys(doc);
    if (keys) return { ok: true, doc: { format: "yaml", data: keys, locate: createYamlLocator(doc, lines), warnings } };
  }
  // Alias problems surface in toJS, without a position: point at the first alias in the text.
  const firstAlias = () => at(Math.min(...shape.aliases.map((a) => a.offset)));
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/excessive alias/i.test(message)) {
      return { ok: false, error: { code: "aliases", message: `YAML aliases expand too much (limit ${maxAliasCount}): refused as an alias bomb`, ...firstAlias() } };
    }
    const unresolved = /^Unresolved alias.*: (.+)$/.exec(message);
    const token = unresolved && shape.aliases.find((a) => a.source === `*${unresolved[1]}`);
    if (token) return { ok: false, error: { code: "syntax", message: `Unknown YAML alias ${token.source}`, ...at(token.offset) } };
    return { ok: false, error: { code: /alias/i.test(message) ? "aliases" : "syntax", message, ...firstAlias() } };
  }
  if (shape.aliases.length) {
    const problem = checkExpansion(data, maxDepth);
    if (problem) return { ok: false, error: { ...problem, ...firstAlias() } };
  }
  if (requireObject && (data === null || typeof data !== "object" || Array.isArray(data))) {
    return { ok: false, error: { code: "not-object", message: "The document is not a mapping", line: 1, column: 1 } };
  }
  return { ok: true, doc: { format: "yaml", data, locate: createYamlLocator(doc, lines), warnings } };
}

/**
 * A mapping's keys as toJS names them (a scalar's value as a string, null as ""), each with an undefined value;
 * undefined when the top is not a mapping or a key is not a plain scalar (`<<`, a collection), which toJS treats
 * otherwise.
 */
function topKeys(doc: Document.Parsed): Record<string, undefined> | undefined {
  if (!isMap(doc.contents)) return undefined;
  const keys: Record<string, undefined> = {};
  for (const pair of doc.contents.items) {
    if (!isScalar(pair.key)) return undefined;
    const value = pair.key.value;
    if (value === "<<" || typeof value === "symbol" || (value !== null && typeof value === "object")) return undefined;
    Object.defineProperty(keys, value === null ? "" : String(value), { value: undefined, writable: true, enumerable: true, configurable: true });
  }
  return keys;
}

/**
 * Source offsets of the keys that repeat an earlier key of the same mapping, in text order: the duplicates the
 * `yaml` library reports with `uniqueKeys: true` (same test: equal scalar values), found with one Set per mapping.
 * Iterative (depth is already bounded); aliases are not followed, as the composer does not.
 */
function duplicateKeyOffsets(doc: Document.Parsed): number[] {
  const offsets: number[] = [];
  const stack: unknown[] = [doc.contents];
  // Only collections are pushed (scalars would be popped and dropped), and a map's keys are compared in a Set only
  // past a few items: most maps of a definition hold one to four keys.
  const push = (node: unknown) => {
    if (isMap(node) || isSeq(node)) stack.push(node);
  };
  while (stack.length) {
    const node = stack.pop();
    if (isMap(node)) {
      const items = node.items;
      const seen = items.length > 8 ? new Set<unknown>() : undefined;
      for (let i = 0; i < items.length; i++) {
        const pair = items[i];
        const key = pair.key;
        if (isScalar(key) && !Number.isNaN(key.value)) {
          let repeated = false;
          if (seen) {
            repeated = seen.has(key.value);
            seen.add(key.value);
          } else {
            for (let j = 0; j < i && !repeated; j++) {
              const earlier = items[j].key;
              repeated = isScalar(earlier) && earlier.value === key.value;
            }
          }
          if (repeated) offsets.push(key.range?.[0] ?? (isNode(pair.value) ? (pair.value.range?.[0] ?? 0) : 0));
        }
        push(key);
        push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) push(isPair(item) ? item.value : item);
    }
  }
  return offsets.sort((a, b) => a - b);
}

interface TokenShape {
  tooDeepAt?: number;
  aliases: { offset: number; source: string }[];
}

/** Walks the CST without recursion: the first collection nested past `maxDepth`, and the aliases used. */
function measureTokens(tokens: CST.Token[], maxDepth: number): TokenShape {
  // Two parallel stacks, and only the tokens that matter pushed: this walk meets every node of the text, so a
  // [token, depth] pair per node was a measurable share of a streamed build's garbage.
  const stack: CST.Token[] = [...tokens];
  const depths: number[] = tokens.map(() => 0);
  const aliases: TokenShape["aliases"] = [];
  const push = (token: CST.Token | undefined, depth: number) => {
    if (!token) return;
    const type = token.type;
    if (type === "alias" || type === "document" || type === "block-map" || type === "block-seq" || type === "flow-collection") {
      stack.push(token);
      depths.push(depth);
    }
  };
  while (stack.length) {
    const token = stack.pop()!;
    const depth = depths.pop()!;
    if (token.type === "document") push(token.value, depth);
    else if (token.type === "alias") aliases.push({ offset: token.offset, source: token.source });
    else if (token.type === "block-map" || token.type === "block-seq" || token.type === "flow-collection") {
      if (depth + 1 > maxDepth) return { tooDeepAt: token.offset, aliases };
      for (const item of token.items) {
        if ("key" in item) push(item.key ?? undefined, depth + 1);
        push(item.value, depth + 1);
      }
    }
  }
  return { aliases };
}
