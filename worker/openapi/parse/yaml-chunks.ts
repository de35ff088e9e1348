/**
 * @module Splits a large block-style YAML document into independent mapping entries by indentation, so each
 * can be parsed on its own. The `yaml` library's syntax tree costs about 30 times the text (a 10 MB file needs
 * over 300 MB), far beyond a Worker's 128 MB; entry by entry, the peak is one entry's tree. Only plain layouts
 * are split (block mappings with simple keys); anything else returns undefined and is parsed whole.
 */

/** One mapping entry (`key: ...` plus its nested lines), to be merged into the object at `path`. */
export interface YamlChunk {
  path: string[];
  key: string;
  /** Character offsets of the entry's text, and its first line (0-based). */
  start: number;
  end: number;
  line: number;
}

/** A split entry (its children are chunks): where its key is written. */
export interface YamlContainer {
  path: string[];
  line: number;
  column: number;
}

const SIMPLE_KEY = /^( *)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"?&*!|>%@`[\]{},-][^:#]*?|-[^\s:#][^:#]*?)[ \t]*:(?:[ \t]+(.*))?$/;

/**
 * Entries no larger than `maxChunk` characters (larger ones with a block mapping value are split into their own
 * entries, recursively), in document order. Undefined when the layout is not plain enough to split safely.
 */
export function splitYaml(text: string, maxChunk: number): { chunks: YamlChunk[]; containers: YamlContainer[] } | undefined {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  const lineText = (n: number) => text.slice(starts[n], n + 1 < starts.length ? starts[n + 1] - 1 : text.length).replace(/\r$/, "");
  const isContent = (s: string) => s.trim() !== "" && !s.trimStart().startsWith("#");
  const indentOf = (s: string) => s.length - s.trimStart().length;

  let first = 0;
  while (first < starts.length && !isContent(lineText(first))) first++;
  if (first === starts.length) return undefined;
  for (let n = first; n < starts.length; n++) {
    const s = lineText(n);
    if (/^(---|\.\.\.|%)/.test(s) || s.startsWith("\t")) return undefined;
  }
  const chunks: YamlChunk[] = [];
  const containers: YamlContainer[] = [];

  /** Splits lines [from, to) holding mapping entries at `indent` that belong to `path`. */
  const splitRange = (from: number, to: number, indent: number, path: string[]): boolean => {
    const entries: { line: number; key: string; rest: string }[] = [];
    for (let n = from; n < to; n++) {
      const s = lineText(n);
      if (!isContent(s)) continue;
      const lead = indentOf(s);
      if (lead > indent) continue;
      if (lead < indent) return false;
      if (/^-( |$)/.test(s.slice(lead))) continue;
      const m = SIMPLE_KEY.exec(s);
      if (!m) return false;
      entries.push({ line: n, key: unquote(m[2]), rest: (m[3] ?? "").trim() });
    }
    if (!entries.length) return false;
    const pending: { chunk: YamlChunk; rest: string }[] = [];
    entries.forEach((e, i) => {
      const endLine = i + 1 < entries.length ? entries[i + 1].line : to;
      const end = endLine < starts.length ? starts[endLine] : text.length;
      pending.push({ chunk: { path, key: e.key, start: starts[e.line], end, line: e.line }, rest: e.rest });
    });
    for (const { chunk, rest } of pending) {
      const big = chunk.end - chunk.start > maxChunk;
      if (big && (rest === "" || rest.startsWith("#")) && splitChild(chunk)) continue;
      chunks.push(chunk);
    }
    return true;
  };

  /** Splits a large entry whose value is a block mapping on the following lines; false to keep it whole. */
  const splitChild = (chunk: YamlChunk): boolean => {
    let n = chunk.line + 1;
    const endLine = lineAt(starts, chunk.end);
    while (n < endLine && !isContent(lineText(n))) n++;
    if (n >= endLine) return false;
    const child = lineText(n);
    const childIndent = indentOf(child);
    if (childIndent <= indentOf(lineText(chunk.line)) || child.trimStart().startsWith("-")) return false;
    const before = chunks.length;
    const path = [...chunk.path, chunk.key];
    if (!splitRange(n, endLine, childIndent, path)) {
      chunks.length = before;
      return false;
    }
    containers.push({ path, line: chunk.line + 1, column: indentOf(lineText(chunk.line)) + 1 });
    return true;
  };

  if (indentOf(lineText(first)) !== 0 || !splitRange(first, starts.length, 0, [])) return undefined;
  return { chunks, containers };
}

function lineAt(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function unquote(key: string): string {
  if (key.startsWith("'")) return key.slice(1, -1).replace(/''/g, "'");
  if (key.startsWith('"')) {
    try {
      return JSON.parse(key) as string;
    } catch {
      return key.slice(1, -1);
    }
  }
  return key;
}
