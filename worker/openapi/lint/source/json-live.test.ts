import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { indexJson } from "./json-index";
import { reparseJsonBlock } from "./json-block";
import { JsonLive } from "./json-live";
import { PieceText } from "./piece-text";
import { composeBatches } from "../session";
import { applyChanges } from "../../../../client/editor/text-changes";

const CORPUS = join(__dirname, "../../../../../shared/corpus");

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

/** Up to `max` paths of `value` (every node, breadth first), for comparing positions. */
function somePaths(value: unknown, max: number): (string | number)[][] {
  const out: (string | number)[][] = [];
  const queue: [unknown, (string | number)[]][] = [[value, []]];
  while (queue.length && out.length < max) {
    const [v, path] = queue.shift()!;
    out.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => queue.push([x, [...path, i]]));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) queue.push([x, [...path, k]]);
  }
  return out;
}

/** The value of `node` read back through the reading API alone (members, items, scalars), as JSON.parse gives it. */
function readBack(live: JsonLive, node: ReturnType<JsonLive["at"]>): unknown {
  if (!node) return undefined;
  if (node.kind === "scalar") return live.scalar(node);
  if (node.kind === "array") return live.items(node).map((item) => readBack(live, item));
  const out: Record<string, unknown> = {};
  for (const m of live.members(node)) out[m.key] = readBack(live, m.value);
  return out;
}

describe("JsonLive", () => {
  it("reads members, items, values, lines and columns as JSON.parse and the text say, before and after an edit", () => {
    let text = '{\n  "a": {"b": [1, "two\\n", {"c": null}], "é\\u0041": true},\n  "d": "x",\n  "d": "first wins"\n}';
    const live = new JsonLive(text);
    expect(live.root.kind).toBe("object");
    const parsed = JSON.parse(text) as Record<string, unknown>;
    expect(readBack(live, live.at(["a"]))).toEqual(parsed.a);
    expect(live.members(live.root).map((m) => m.key)).toEqual(["a", "d", "d"]);
    expect(live.scalar(live.get(live.root, "d")!)).toBe("x"); // the first of duplicate keys, as the locator
    expect(live.scalar(live.at(["a", "b", 1])!)).toBe("two\n");
    expect(live.scalar(live.at(["a", "éA"])!)).toBe(true);
    expect(live.at(["a", "b", 3])).toBeUndefined();
    expect(live.at(["a", "b", 0, "x"])).toBeUndefined();
    const c = live.at(["a", "b", 2, "c"])!;
    expect(text.slice(c.from, c.to)).toBe("null");
    const key = live.members(live.root)[1].keyFrom;
    expect([live.line(key), live.column(key)]).toEqual([3, 2]);
    // An edit inside a value (here without duplicate keys, whose edits re-parse the container): offsets after it
    // move, the rest of the index is kept.
    text = text.replace('  "d": "first wins"\n', '  "e": "last"\n');
    const edited = new JsonLive(text);
    const at = text.indexOf("[1") + 1;
    expect(edited.reparse({ from: at, to: at + 1, insert: "12345" }).kind).toBe("value");
    text = text.slice(0, at) + "12345" + text.slice(at + 1);
    expect(readBack(edited, edited.root)).toEqual(JSON.parse(text));
    const e = edited.get(edited.root, "e")!;
    expect(text.slice(e.from, e.to)).toBe('"last"');
    expect([edited.line(e.from), edited.column(e.from)]).toEqual([4, 7]);
  });

  it("re-parses the edited value and locates paths as a fresh index would, over 60 random edits", () => {
    const next = random(11);
    let text = readFileSync(join(CORPUS, "readme-oas-examples/3.0/json/schema-types.json"), "utf8");
    let live = new JsonLive(text);
    let values = 0;
    for (let i = 0; i < 60; i++) {
      // Mostly inside strings (the common keystroke), sometimes anywhere.
      const quotes = [...text.matchAll(/"[a-z]/g)].map((m) => m.index! + 1);
      const at = next() < 0.7 ? quotes[Math.floor(next() * quotes.length)] : Math.floor(next() * text.length);
      const change = next() < 0.5 ? { from: at, to: at, insert: next() < 0.5 ? "x" : "\n" } : { from: at, to: Math.min(text.length, at + 1), insert: "" };
      const before = text;
      const after = text.slice(0, change.from) + change.insert + text.slice(change.to);
      const expected = reparseJsonBlock(text, after, change);
      const outcome = live.reparse(change);
      expect(outcome).toEqual(expected);
      text = after;
      if (outcome.kind === "value") {
        values++;
        expect(live.text).toBe(text);
      } else {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        // Invalid JSON: undo (as a writer would) so the next edits start from JSON again; else start afresh, as the session does.
        if (!valid) text = before;
        live = new JsonLive(text);
      }
      if (i % 10 === 9) {
        const index = indexJson(text);
        for (const path of somePaths(JSON.parse(text), 300)) expect(live.locate(path)).toEqual(index.locate(path));
        expect(live.locate(["no", "such", "path"])).toEqual(index.locate(["no", "such", "path"]));
      }
    }
    expect(values).toBeGreaterThan(30);
  });

  it("keeps a duplicate key's last value, as JSON.parse does", () => {
    const text = '{"a": {"k": "one", "k": "two"}, "b": 1}';
    const live = new JsonLive(text);
    const at = text.indexOf("one") + 1;
    const outcome = live.reparse({ from: at, to: at, insert: "x" });
    expect(outcome).toEqual({ kind: "value", path: ["a"], value: { k: "two" } });
    // Positions: the first occurrence, as Spectral's locator.
    expect(live.locate(["a", "k"])).toEqual({ line: 1, column: 8 });
  });
});

describe("PieceText", () => {
  it("reads and edits like a string across chunk boundaries", () => {
    const next = random(3);
    let text = Array.from({ length: 9000 }, (_, i) => `line ${i} ${"é".repeat(i % 7)}\n`).join("");
    const piece = new PieceText(text);
    for (let i = 0; i < 300; i++) {
      const from = Math.floor(next() * text.length);
      const to = Math.min(text.length, from + Math.floor(next() * (i % 50 === 0 ? 80_000 : 20)));
      const insert = i % 40 === 0 ? "y".repeat(70_000) : next() < 0.5 ? "" : "ab\n";
      piece.apply({ from, to, insert });
      text = text.slice(0, from) + insert + text.slice(to);
      expect(piece.length).toBe(text.length);
      const a = Math.floor(next() * text.length);
      const b = Math.min(text.length, a + Math.floor(next() * 100_000));
      expect(piece.slice(a, b)).toBe(text.slice(a, b));
      expect(piece.charCodeAt(a)).toBe(text.charCodeAt(a));
    }
    expect(piece.toString()).toBe(text);
    expect(piece.charCodeAt(text.length)).toBeNaN();
  });
});

describe("composeBatches", () => {
  it("turns batches made one after another into one change on the original text", () => {
    const next = random(5);
    for (let round = 0; round < 200; round++) {
      const original = "abcdefghijklmnopqrstuvwxyz0123456789".repeat(3);
      let text = original;
      const batches = [];
      for (let b = 0; b < 1 + Math.floor(next() * 4); b++) {
        const batch = [];
        let pos = 0;
        for (let c = 0; c < 1 + Math.floor(next() * 3) && pos < text.length; c++) {
          const from = pos + Math.floor(next() * (text.length - pos) * 0.5);
          const to = Math.min(text.length, from + Math.floor(next() * 4));
          batch.push({ from, to, insert: next() < 0.5 ? "" : "XY".slice(0, 1 + Math.floor(next() * 2)) });
          pos = to + 1;
        }
        text = applyChanges(text, batch);
        batches.push(batch);
      }
      const combined = composeBatches(original, batches);
      expect(combined ? applyChanges(original, [combined]) : original).toBe(text);
    }
  });
});
