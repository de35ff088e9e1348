/**
 * @module The fuzzer's mutations of a real definition (issue 14): byte-level (flips, truncation, line deletion and
 * duplication) on the text, structural (type swaps, huge numbers, `$ref` chains and cycles, remote and file refs,
 * odd keys, 10,000 paths, long strings, extreme constraints, catastrophic patterns, dense graphs, odd `info`) on
 * the parsed data, written back as JSON, or as YAML when the source was small YAML. Deterministic for a seed.
 */
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import * as h from "./hostile";

export const TEXT_MUTATIONS = ["flip", "truncate", "delete-lines", "dup-lines"] as const;
export const DATA_MUTATIONS = ["type-swap", "huge-number", "ref-chain", "ref-cycle", "odd-ref", "odd-key", "many-paths", "long-string", "extreme-constraint", "bad-pattern", "dense-graph", "odd-info"] as const;
export type MutationKind = (typeof TEXT_MUTATIONS)[number] | (typeof DATA_MUTATIONS)[number];

/** Size knobs: CI keeps cases small, the long run goes to the sizes. */
export interface FuzzScale {
  /** Longest string inserted, in characters. */
  longString: number;
  /** Paths added by "many-paths". */
  manyPaths: number;
  /** Longest `$ref` chain. */
  refChain: number;
  /** Schemas of a dense graph. */
  denseSchemas: number;
}
export const CI_SCALE: FuzzScale = { longString: 200_000, manyPaths: 10_000, refChain: 2_000, denseSchemas: 200 };
export const LONG_SCALE: FuzzScale = { longString: 2_500_000, manyPaths: 10_000, refChain: 10_000, denseSchemas: 500 };

type Node = Record<string, unknown> | unknown[];

/** Every object/array under `root` with its key path (at most `limit`, breadth first). */
function nodes(root: unknown, limit = 20_000): { node: Node; path: (string | number)[] }[] {
  const out: { node: Node; path: (string | number)[] }[] = [];
  const queue: { node: unknown; path: (string | number)[] }[] = [{ node: root, path: [] }];
  const seen = new Set<unknown>();
  while (queue.length && out.length < limit) {
    const { node, path } = queue.shift()!;
    if (node === null || typeof node !== "object" || seen.has(node)) continue;
    seen.add(node);
    out.push({ node: node as Node, path });
    for (const [k, v] of Object.entries(node)) if (v !== null && typeof v === "object") queue.push({ node: v, path: [...path, Array.isArray(node) ? Number(k) : k] });
  }
  return out;
}

const objects = (root: unknown) => nodes(root).filter((n) => !Array.isArray(n.node)) as { node: Record<string, unknown>; path: (string | number)[] }[];
const schemaLike = (root: unknown) => objects(root).filter((n) => "type" in n.node || "properties" in n.node || "items" in n.node || n.path.includes("schema"));

function setRandomMember(rng: h.Rng, root: unknown, value: () => unknown): void {
  const candidates = nodes(root);
  if (candidates.length === 0) return;
  const { node } = h.pick(rng, candidates);
  const keys = Object.keys(node);
  const key = keys.length ? h.pick(rng, keys) : "x-fuzz";
  (node as Record<string, unknown>)[key] = value();
}

function components(doc: Record<string, unknown>): Record<string, unknown> {
  const c = (doc.components && typeof doc.components === "object" && !Array.isArray(doc.components) ? doc.components : (doc.components = {})) as Record<string, unknown>;
  if (!c.schemas || typeof c.schemas !== "object" || Array.isArray(c.schemas)) c.schemas = {};
  return c.schemas as Record<string, unknown>;
}

/** Points some operation's (or any object's) schema at `ref`. */
function useRef(rng: h.Rng, doc: Record<string, unknown>, ref: string): void {
  const ops = objects(doc.paths).filter((n) => "responses" in n.node);
  const target = ops.length ? h.pick(rng, ops).node : doc;
  target.requestBody = { content: { "application/json": { schema: { $ref: ref }, example: { a: 1 } } } };
  target.parameters = [{ name: "q", in: "query", schema: { $ref: ref } }];
  target.responses = { 200: { description: "ok", content: { "application/json": { schema: { $ref: ref } } } } };
}

function mutateData(kind: (typeof DATA_MUTATIONS)[number], rng: h.Rng, doc: Record<string, unknown>, scale: FuzzScale): void {
  switch (kind) {
    case "type-swap":
      for (let i = h.int(rng, 1, 4); i > 0; i--) setRandomMember(rng, doc, () => structuredClone(h.pick(rng, h.ODD_VALUES)));
      return;
    case "huge-number":
      for (let i = h.int(rng, 1, 4); i > 0; i--) setRandomMember(rng, doc, () => h.pick(rng, [h.RAW_NUMBER, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 5e-324]));
      return;
    case "ref-chain":
    case "ref-cycle": {
      const n = kind === "ref-cycle" ? h.int(rng, 1, 50) : h.int(rng, 10, scale.refChain);
      Object.assign(components(doc), h.refChain(n, kind === "ref-cycle"));
      useRef(rng, doc, "#/components/schemas/Fz0");
      return;
    }
    case "odd-ref": {
      const refs = objects(doc).filter((n) => typeof n.node.$ref === "string");
      for (let i = h.int(rng, 1, 3); i > 0; i--) {
        const ref = h.pick(rng, h.ODD_REFS);
        if (refs.length && rng() < 0.7) h.pick(rng, refs).node.$ref = ref;
        else useRef(rng, doc, ref);
      }
      return;
    }
    case "odd-key": {
      const objs = objects(doc);
      for (let i = h.int(rng, 1, 4); i > 0; i--) {
        const target = objs.length ? h.pick(rng, objs).node : doc;
        target[h.pick(rng, h.ODD_KEYS)] = rng() < 0.5 ? { get: { responses: { 200: { description: "ok" } } } } : "value";
      }
      return;
    }
    case "many-paths":
      doc.paths = { ...(doc.paths && typeof doc.paths === "object" ? doc.paths : {}), ...h.manyPaths(h.int(rng, scale.manyPaths / 2, scale.manyPaths)) };
      return;
    case "long-string": {
      const strings = objects(doc).filter((n) => Object.values(n.node).some((v) => typeof v === "string"));
      const target = strings.length ? h.pick(rng, strings).node : ((doc.info ??= {}) as Record<string, unknown>);
      const key = Object.keys(target).find((k) => typeof target[k] === "string") ?? "description";
      target[key] = h.longString(rng, h.int(rng, 1000, scale.longString));
      return;
    }
    case "extreme-constraint": {
      const schemas = schemaLike(doc);
      for (let i = h.int(rng, 1, 3); i > 0; i--) {
        const c = structuredClone(h.pick(rng, h.EXTREME_CONSTRAINTS));
        if (schemas.length) Object.assign(h.pick(rng, schemas).node, c);
        else useRef(rng, doc, "#/components/schemas/Xz"), (components(doc).Xz = c);
      }
      return;
    }
    case "bad-pattern": {
      const p = h.pick(rng, h.CATASTROPHIC);
      const schemas = schemaLike(doc);
      const schema = { type: "string", pattern: p.pattern, example: p.example, default: p.example, examples: [p.example] };
      if (schemas.length && rng() < 0.5) Object.assign(h.pick(rng, schemas).node, schema);
      else (components(doc).Pz = schema), useRef(rng, doc, "#/components/schemas/Pz");
      return;
    }
    case "dense-graph": {
      Object.assign(components(doc), h.denseGraph(h.int(rng, 20, scale.denseSchemas), h.int(rng, 3, 20)));
      useRef(rng, doc, "#/components/schemas/Dz0");
      return;
    }
    case "odd-info": {
      const info = h.pick(rng, h.ODD_INFOS);
      if (info === undefined) delete doc.info;
      else doc.info = structuredClone(info);
      if (rng() < 0.6) {
        const [field, value] = h.pick(rng, h.ODD_VERSIONS);
        delete doc.openapi;
        delete doc.swagger;
        doc[field] = value;
      }
      return;
    }
  }
}

function mutateText(kind: (typeof TEXT_MUTATIONS)[number], rng: h.Rng, text: string): Uint8Array {
  if (kind === "flip") {
    const bytes = new TextEncoder().encode(text);
    for (let i = h.int(rng, 1, 8); i > 0 && bytes.length; i--) bytes[h.int(rng, 0, bytes.length - 1)] ^= 1 << h.int(rng, 0, 7);
    return bytes;
  }
  if (kind === "truncate") return new TextEncoder().encode(text.slice(0, h.int(rng, 0, text.length)));
  const lines = text.split("\n");
  const at = h.int(rng, 0, lines.length - 1);
  const n = h.int(rng, 1, Math.min(20, lines.length - at));
  if (kind === "delete-lines") lines.splice(at, n);
  else lines.splice(at, 0, ...lines.slice(at, at + n));
  return new TextEncoder().encode(lines.join("\n"));
}

/** Parses a definition's text as JSON or YAML (lenient); undefined when it is not an object. */
function parseData(text: string): Record<string, unknown> | undefined {
  try {
    const data = /^\s*[{[]/.test(text) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1, uniqueKeys: false, strict: false, merge: true, logLevel: "silent" });
    return data && typeof data === "object" && !Array.isArray(data) ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Applies `kinds` in order to a definition's text; returns the body and a content type to post it with. */
export function mutate(text: string, kinds: readonly MutationKind[], seed: number, scale: FuzzScale): { body: Uint8Array; contentType: string } {
  const rng = h.prng(seed);
  const json = /^\s*[{[]/.test(text);
  let current = text;
  let bytes: Uint8Array | undefined;
  for (const kind of kinds) {
    if (bytes) current = new TextDecoder().decode(bytes);
    bytes = undefined;
    if ((TEXT_MUTATIONS as readonly string[]).includes(kind)) {
      bytes = mutateText(kind as (typeof TEXT_MUTATIONS)[number], rng, current);
      continue;
    }
    const doc = parseData(current);
    if (!doc) continue;
    mutateData(kind as (typeof DATA_MUTATIONS)[number], rng, doc, scale);
    const asYaml = !json && current.length < 200_000 && rng() < 0.5;
    current = asYaml ? stringifyYaml(doc, { aliasDuplicateObjects: false, lineWidth: 0 }) : JSON.stringify(doc).replaceAll(JSON.stringify(h.RAW_NUMBER), () => h.pick(rng, h.RAW_NUMBERS));
  }
  return { body: bytes ?? new TextEncoder().encode(current), contentType: json ? "application/json" : "application/yaml" };
}
