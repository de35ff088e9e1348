/**
 * @module Crafted hostile pieces the fuzzer grafts into real definitions (issue 14's list): `$ref` chains and
 * cycles, remote and file refs, odd keys, 10,000 paths, long strings, extreme constraints, catastrophic patterns,
 * dense schema graphs, odd `info` and version fields. Platform-free: used by test/fuzz (workerd) and bench/fuzz.mjs (Node).
 */

/** A deterministic PRNG (mulberry32): the fuzzer's positions and picks follow from fast-check's seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
export const int = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));

/** Placeholder replaced in the JSON text by a number literal JSON.stringify cannot write (1e999, -0, 1e-400). */
export const RAW_NUMBER = "\u0000raw-number\u0000";
export const RAW_NUMBERS = ["1e999", "-1e999", "1e-400", "-0", "123456789012345678901234567890", "0.1e310"];

export const ODD_VALUES: unknown[] = [[], {}, "", "a string", 0, -1, true, false, null, 1e308, -1e308, 9007199254740993, [[[[]]]], { $ref: 5 }, { $ref: "" }, { $ref: ["#/a"] }, "\u0000", "\ud800", [null]];

export const ODD_KEYS = ["\u0000", "a\u0000b", "\ud800", "\udfff", "\u202e", "\u200f\u202a", "__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "k".repeat(10_000), "😀".repeat(50), "$ref", "", " ", "/", "~", "~1", "%00", "<script>", "\n", "#"];

export const ODD_REFS = [
  "https://evil.example/x.json#/a",
  "http://127.0.0.1:8787/v1/apis",
  "file:///etc/passwd",
  "../../etc/passwd#/x",
  "other.yaml#/Foo",
  "./missing.json",
  "#/components/schemas/%ZZ",
  `#/${"a/".repeat(1000)}`,
  "#",
  "#/",
  "#/paths",
  "#/info/title",
  "#/components/schemas/\u0000",
  "//evil.example/a",
  "data:application/json,{}",
  "javascript:alert(1)",
];

/** Patterns known to backtrack catastrophically, with strings that trigger it (the known ReDoS shapes). */
export const CATASTROPHIC = [
  { pattern: "^(a+)+$", example: `${"a".repeat(40)}!` },
  { pattern: "^(a|aa)+$", example: `${"a".repeat(40)}!` },
  { pattern: "^(a|a?)+$", example: `${"a".repeat(40)}!` },
  { pattern: "^(\\w+\\s?)*$", example: `${"word ".repeat(12)}!` },
  { pattern: "^(([a-z])+.)+[A-Z]([a-z])+$", example: `${"a".repeat(40)}!` },
  { pattern: "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$", example: `${"a".repeat(40)}!` },
  { pattern: "(x+x+)+y", example: "x".repeat(40) },
  { pattern: "^(\\d+)*$", example: `${"1".repeat(40)}x` },
  { pattern: "(.*a){25}", example: "a".repeat(40) },
  { pattern: "((((((((((a*)*)*)*)*)*)*)*)*)*)*b", example: "a".repeat(40) },
  { pattern: "(?=a)*", example: "a" },
  { pattern: "[", example: "[" },
  { pattern: "\\", example: "x" },
];

export const EXTREME_CONSTRAINTS: Record<string, unknown>[] = [
  { type: "string", minLength: 1e12 },
  { type: "string", minLength: 400_000_000, maxLength: 400_000_001 },
  { type: "string", minLength: 1e308 },
  { type: "array", minItems: 400_000_000, items: { type: "string", minLength: 1e9 } },
  { type: "array", minItems: 1e12, uniqueItems: true, items: { type: "integer" } },
  { type: "object", minProperties: 1e9 },
  { type: "integer", minimum: 1e308, maximum: -1e308 },
  { type: "number", multipleOf: 1e-300, minimum: -1e308 },
  { type: "string", minLength: -1, maxLength: -5 },
  { type: "string", format: "date-time", minLength: 1e9 },
  { type: "array", minItems: 1000, maxItems: 1000, items: { type: "array", minItems: 1000, items: { type: "string", minLength: 1000 } } },
];

export const ODD_INFOS: unknown[] = [undefined, null, [], "str", 42, {}, { title: { a: 1 }, version: "1" }, { title: "t", version: { a: 1 } }, { title: "t", version: 1e308 }, { title: "t", version: "" }, { title: [1], version: [2] }, { title: null, version: null }, { title: "t", version: "x".repeat(200) }, { title: "t".repeat(100_000), version: "1" }, { title: "t", version: "a/b" }];
export const ODD_VERSIONS: [string, unknown][] = [["openapi", 3], ["openapi", [3]], ["openapi", {}], ["openapi", "3.1.99"], ["openapi", null], ["openapi", "4.0.0"], ["openapi", ""], ["swagger", 2], ["swagger", [2]], ["swagger", "1.2"], ["openapi", 3.1], ["openapi", "3.0.0-rc0"], ["swagger", "2.0"], ["openapi", true]];

/** `n` paths with one GET each. */
export function manyPaths(n: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) paths[`/fuzz/p${i}`] = { get: { operationId: `fuzz${i}`, responses: { 200: { description: "ok" } } } };
  return paths;
}

/** A chain C0 → C1 → … → Cn of schemas, each only a `$ref` to the next; `cyclic` closes it back to C0. */
export function refChain(n: number, cyclic: boolean): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) schemas[`Fz${i}`] = { $ref: `#/components/schemas/Fz${i + 1 < n || !cyclic ? i + 1 : 0}` };
  if (!cyclic) schemas[`Fz${n}`] = { type: "object", properties: { self: { $ref: `#/components/schemas/Fz${n}` } }, allOf: [{ $ref: `#/components/schemas/Fz${n}` }] };
  return schemas;
}

/** `n` schemas, each referencing `fan` others (a graph with many paths through it). */
export function denseGraph(n: number, fan: number): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    const properties: Record<string, unknown> = {};
    for (let j = 1; j <= fan; j++) properties[`p${j}`] = { $ref: `#/components/schemas/Dz${(i * 7 + j * 13) % n}` };
    schemas[`Dz${i}`] = { type: "object", properties, allOf: [{ $ref: `#/components/schemas/Dz${(i + 1) % n}` }] };
  }
  return schemas;
}

/** A long string: prose, Markdown punctuation or one repeated character. */
export function longString(rng: Rng, chars: number): string {
  const unit = pick(rng, ["lorem ipsum dolor sit amet ", "*_`[]()<>#|~!", "a", "\\u0001", "<a href='x'>", "\n- item", "é😀\u202e"]);
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}
