/**
 * @module Pass 1 of the streamed build for YAML (issue 12): one pass over a block-style YAML definition's bytes, line
 * by line in bounded memory, that keeps no values, only where things are: the byte range and key position of every
 * top-level member, of every `paths` / `webhooks` entry and of every `components/{section}/{name}` entry (the same
 * {@link JsonIndex} shape as json-index.ts gives). Later steps parse one entry at a time with the `yaml` library
 * (`parseYamlEntry`, yaml-entry.ts): an entry's text runs from the start of its key's line to the next line holding a key of
 * the same or a lower level, so it is itself a one-key YAML mapping, and its positions are the document's once
 * shifted by the lines above it (columns need no shift: the text starts at a line start, indentation included).
 *
 * Why splitting by indentation is exact: in YAML 1.2 as the `yaml` library reads it, every line inside a block
 * collection's value (block scalars, continuation lines of quoted and plain scalars, flow collections) is indented
 * past the key that holds it; a line at a key's indentation or less ends its value. So only lines at the indexed
 * levels are read (column 0; the first indentation under `paths`, `webhooks` and `components`; the next one under a
 * components section), and everything deeper is skipped unread.
 *
 * What the line reader cannot be sure of is refused, never guessed ({@link YamlIndexError}, code `not-streamable`,
 * 413 with the line): at an indexed level, flow style (`paths: {"/a": ...}`), `? ` complex keys, anchors, aliases
 * or tags on the key or on `paths`/`webhooks`/`components`/a section, `<<` merge keys, block scalars or multi-line
 * inline values where entries are expected, tabs in the indentation, indentation that differs from the level's
 * first line, directives (`%YAML`, `%TAG`), and lines that are not `key:` lines. A second document (`---` after
 * content) is a syntax error (400), as the whole parse says. Anchors and aliases inside one entry are fine; an alias
 * to another entry's anchor is refused when that entry is parsed (see yaml-entry.ts).
 *
 * Positions follow parse/types.ts: 1-based lines split at `\n`, columns in UTF-16 code units, BOM excluded.
 */
import { parseDocument as parseYamlLibrary } from "yaml";
import type { ParseWarning, SourcePosition } from "../parse/types";
import type { IndexedEntry, JsonIndex } from "./json-index";

/**
 * The index of a YAML document: as {@link JsonIndex}, except that an entry's `[start, end)` is its whole text, key
 * line included (from the line's start), and `at` is where that text starts (line, column 1); plus the duplicate
 * keys found at the indexed levels.
 */
export interface YamlIndex extends JsonIndex {
  /** `duplicate-key` warnings at the indexed levels (inside entries, the entry's own parse finds them). */
  warnings: ParseWarning[];
  /** Entries a later duplicate key replaced: not part of the document's value, but parsed once for their errors. */
  shadowed: IndexedEntry[];
  /**
   * The entries of other top-level members that are block mappings (`x-webhooks`, `info`, ...), by member: a
   * member too large to keep is still parsed, for its errors, one entry at a time. A member whose lines under
   * it are not plain `key:` lines has none.
   */
  parts: Map<string, IndexedEntry[]>;
}

/** A document the YAML index refuses: why, and where (the message ends with the line, and the column when known). */
export interface YamlIndexError {
  /** `not-streamable`: a shape the line reader cannot split safely (413); `syntax`: a second document (400); `not-object`: a sequence at the top (422); `empty` (400). */
  code: "not-streamable" | "syntax" | "not-object" | "empty";
  message: string;
  line: number;
  column: number;
}

export type YamlIndexOutcome = { ok: true; index: YamlIndex } | { ok: false; error: YamlIndexError };

/** Bytes of a line kept for reading its key (YAML caps implicit keys at 1,024 characters; the rest is never needed). */
const LINE_PREFIX_BYTES = 8 * 1024;
/** The options parse/yaml.ts composes with: a key is resolved exactly as the whole parse resolves it. */
const YAML_OPTIONS = { version: "1.2", schema: "core", merge: true, logLevel: "silent", uniqueKeys: false } as const;

/** Thrown inside the scan; carries the line and column of the refusal. */
class Refusal extends Error {
  constructor(
    readonly code: YamlIndexError["code"],
    message: string,
    readonly at: SourcePosition,
  ) {
    super(message);
  }
}

/** A `key:` line, read: the key's source text, its value (core schema, as a JS object key) and what follows the colon. */
type KeyLine = { raw: string; key: string; rest: string };

/**
 * Reads the `key:` at `from` in `s` (a line without its end-of-line). A string is a refusal's reason; undefined
 * means the line is a `- ` sequence item.
 */
function readKeyLine(s: string, from: number): KeyLine | string | undefined {
  const c = s[from];
  const next = s[from + 1];
  const blankAfter = next === undefined || next === " " || next === "\t";
  if (c === "-" && blankAfter) return undefined;
  if (c === "{" || c === "[") return "flow style (`{`/`[`) where a `key:` line was expected";
  if (c === "?" && blankAfter) return "a `? ` complex key";
  if (c === "&" || c === "*" || c === "!") return "an anchor, alias or tag on a key";
  if (c === "|" || c === ">") return "a block scalar where a `key:` line was expected";
  if (c === "%" || c === "@" || c === "`" || c === ",") return `a line starting with \`${c}\``;
  let end: number;
  if (c === '"' || c === "'") {
    end = from + 1;
    for (;;) {
      if (end >= s.length) return "a quoted key that does not close on its line";
      if (c === '"' && s[end] === "\\") end += 2;
      else if (s[end] === c) {
        if (c === "'" && s[end + 1] === "'") end += 2;
        else break;
      } else end++;
    }
    end++;
    while (s[end] === " " || s[end] === "\t") end++;
    if (s[end] !== ":" || !(s[end + 1] === undefined || s[end + 1] === " " || s[end + 1] === "\t")) return "a quoted scalar that is not a `key:`";
  } else {
    end = from;
    for (;;) {
      if (end >= s.length) return "a line that is not a `key:` line (a scalar continued from an earlier line?)";
      const ch = s[end];
      if (ch === ":" && (s[end + 1] === undefined || s[end + 1] === " " || s[end + 1] === "\t")) break;
      if (ch === "#" && (s[end - 1] === " " || s[end - 1] === "\t")) return "a line that is not a `key:` line (a scalar continued from an earlier line?)";
      end++;
    }
  }
  const raw = s.slice(from, end).trimEnd();
  if (raw === "") return "an empty key";
  if (raw === "<<") return "a `<<` merge key";
  let rest = s.slice(end + 1).trim();
  if (rest.startsWith("#")) rest = "";
  const key = resolveKey(raw);
  if (key === undefined) return `a key the line reader cannot resolve (${raw.slice(0, 40)})`;
  return { raw, key, rest };
}

/**
 * A key's source text → the property name the whole parse gives it (core schema: `200` and `0x1F` are numbers,
 * `~` is null; quoted keys unescaped), through the `yaml` library itself unless it is a plain word or path.
 */
function resolveKey(raw: string): string | undefined {
  if (/^[A-Za-z_/][^\s:#"'\\]*$/.test(raw) && !/^(?:null|Null|NULL|true|True|TRUE|false|False|FALSE)$/.test(raw)) return raw;
  try {
    const doc = parseYamlLibrary(`${raw}: 0`, YAML_OPTIONS);
    if (doc.errors.length) return undefined;
    const data = doc.toJS() as Record<string, unknown> | null;
    const keys = data && typeof data === "object" ? Object.keys(data) : [];
    return keys.length === 1 ? keys[0] : undefined;
  } catch {
    return undefined;
  }
}

/** What a key line's value on the same line says about the lines under it. */
function inlineKind(rest: string): "none" | "block-scalar" | "properties" | "flow" | "alias" | "scalar" {
  if (rest === "") return "none";
  const c = rest[0];
  if (c === "|" || c === ">") return "block-scalar";
  if (c === "&" || c === "!") return "properties";
  if (c === "*") return "alias";
  if (c === "{" || c === "[") return "flow";
  return "scalar";
}

/** An open indexed place: a top-level member, or a `paths`/`webhooks`/`components` entry, or a section. */
type Open = { entry: IndexedEntry };

/**
 * Indexes a block-style YAML document from its byte stream (see the module comment). Holds the current chunk, at
 * most {@link LINE_PREFIX_BYTES} of the current line and the index.
 * @throws whatever the stream throws (storage errors); a refused layout is an `ok: false` outcome, not a throw.
 */
export async function indexYaml(chunks: AsyncIterable<Uint8Array>): Promise<YamlIndexOutcome> {
  const index: YamlIndex = { size: 0, rootStart: 0, top: new Map(), paths: new Map(), webhooks: new Map(), components: new Map(), warnings: [], shadowed: [], parts: new Map() };
  const decoder = new TextDecoder();
  let lineNo = 1;
  let contentSeen = false;
  let ended = false; // after `...`
  /**
   * The current top-level member. `mode`: "other" (not indexed: every deeper line is its value), "entries" (a
   * block mapping whose entries are indexed), "inline" (its value is on its key's line), "sequence" (a block
   * sequence: no entries; the build reads it whole and says what is wrong).
   */
  let top: (Open & { kind: "paths" | "webhooks" | "components" | "other"; mode: "other" | "entries" | "inline" | "sequence"; childIndent?: number; parts?: IndexedEntry[] }) | undefined;
  /** Under paths/webhooks: the open entry; under components: the open section (`entries` undefined until its first entry). */
  let child: (Open & { mode: "entries" | "inline" | "sequence" | "item"; entries?: Map<string, IndexedEntry>; entryIndent?: number }) | undefined;
  /** Under a components section: the open component. */
  let grandchild: Open | undefined;

  const close = (open: Open | undefined, end: number) => {
    if (open && open.entry.end < 0) open.entry.end = end;
  };
  const duplicate = (at: SourcePosition) => index.warnings.push({ code: "duplicate-key", message: "Duplicate mapping key (the last one wins)", ...at });
  const record = (into: Map<string, IndexedEntry>, line: KeyLine, indent: number, start: number): IndexedEntry => {
    const keyAt = { line: lineNo, column: indent + 1 };
    const before = into.get(line.key);
    if (before) {
      duplicate(keyAt);
      // A replaced top-level paths/webhooks/components is not parsed whole: its entries are (see below).
      if (into !== index.top || !["paths", "webhooks", "components"].includes(line.key)) index.shadowed.push(before);
    }
    const entry: IndexedEntry = { key: line.key, keyAt, start, end: -1, at: { line: lineNo, column: 1 } };
    into.set(line.key, entry);
    return entry;
  };
  const here = (indent: number): SourcePosition => ({ line: lineNo, column: indent + 1 });
  const refuse = (why: string, at: SourcePosition): never => {
    throw new Refusal("not-streamable", `YAML past 25 MiB is built streamed, entry by entry, from block-style YAML; line ${at.line} has ${why} (line ${at.line}, column ${at.column}). Write the definition in block style, or convert it to JSON`, at);
  };
  /** A key line at an indexed level, or the refusal saying why it is not one; undefined for a `- ` item. */
  const keyLine = (s: string, indent: number): KeyLine | undefined => {
    const read = readKeyLine(s, indent);
    if (typeof read === "string") return refuse(read, here(indent));
    return read;
  };
  /**
   * The value on the key line of a mapping whose entries are indexed (`paths`, `webhooks`, `components`, a
   * section): nothing (its entries follow), or a one-line value checked here, since nothing else reads it.
   */
  const indexedValue = (s: string, line: KeyLine, indent: number): "entries" | "inline" => {
    const kind = inlineKind(line.rest);
    if (kind === "none") return "entries";
    if (kind === "properties" || kind === "alias") refuse(`an anchor, alias or tag on \`${line.raw}\`, whose entries are indexed`, here(indent));
    if (kind === "block-scalar") refuse(`a block scalar for \`${line.raw}\`, whose entries are indexed`, here(indent));
    if (kind === "flow" && !/^(\{\}|\[\])\s*(#.*)?$/.test(line.rest)) refuse(`flow style for \`${line.raw}\`, whose entries are indexed`, here(indent));
    const check = parseYamlLibrary(s.trim(), YAML_OPTIONS);
    const error = check.errors[0];
    if (error) throw new Refusal("syntax", `${error.message.split("\n")[0].replace(/ at line \d+, column \d+:?$/, "")} (line ${lineNo})`, here(indent));
    return "inline";
  };
  /** A line under an other member: at its first indentation, one of its parts, else nothing read; never a refusal. */
  const part = (bytes: Uint8Array, indent: number, first: number, start: number, truncated: boolean) => {
    const member = top!;
    if (!member.parts) return;
    member.childIndent ??= indent;
    if (indent > member.childIndent) return;
    const line = indent === member.childIndent && first === indent && !truncated ? readKeyLine(decoder.decode(bytes).replace(/\r$/, ""), indent) : undefined;
    const last = member.parts.at(-1);
    if (last) close({ entry: last }, start);
    if (line === undefined || typeof line === "string") {
      member.parts = undefined;
      index.parts.delete(member.entry.key);
      return;
    }
    member.parts.push({ key: line.key, keyAt: here(indent), start, end: -1, at: { line: lineNo, column: 1 } });
  };
  const closeAll = (end: number) => {
    const last = top?.parts?.at(-1);
    if (last) close({ entry: last }, end);
    close(grandchild, end);
    close(child, end);
    close(top, end);
    grandchild = child = undefined;
  };

  const onLine = (bytes: Uint8Array, start: number, truncated: boolean) => {
    let indent = 0;
    while (indent < bytes.length && bytes[indent] === 0x20) indent++;
    let first = indent;
    while (first < bytes.length && (bytes[first] === 0x20 || bytes[first] === 0x09 || bytes[first] === 0x0d)) first++;
    // Blank, or a comment only: part of whatever entry is open.
    if (first >= bytes.length || bytes[first] === 0x23) return;
    if (ended) throw new Refusal("syntax", `More than one YAML document in the file (line ${lineNo})`, here(0));
    // Lines inside an entry's value are never read (see the module comment).
    if (indent > 0 && top) {
      if (top.mode === "other") return part(bytes, indent, first, start, truncated);
      if (top.mode === "sequence") return;
      if (top.mode === "inline") refuse(`a value of \`${top.entry.key}\` continued past its line`, here(indent));
      if (top.childIndent !== undefined && indent > top.childIndent) {
        if (top.kind !== "components" || !child || child.mode === "sequence") return;
        if (child.mode === "inline") refuse(`a value of \`components.${child.entry.key}\` continued past its line`, here(indent));
        if (child.entryIndent !== undefined && indent > child.entryIndent) return;
      }
    }
    if (first > indent) refuse("a tab in its indentation", here(indent));
    if (truncated) refuse(`a line longer than ${LINE_PREFIX_BYTES} bytes where a key was expected`, here(indent));
    const s = decoder.decode(bytes).replace(/\r$/, "");

    if (indent === 0) {
      if (/^(---|\.\.\.)(\s|$)/.test(s)) {
        if (s.startsWith("---") && contentSeen) throw new Refusal("syntax", `More than one YAML document in the file (line ${lineNo})`, here(0));
        if (!/^(---|\.\.\.)\s*(#.*)?$/.test(s)) refuse("content after a document marker", here(0));
        if (s.startsWith("...")) {
          ended = true;
          closeAll(start);
        }
        return;
      }
      if (s.startsWith("%")) refuse("a directive (`%YAML`, `%TAG`)", here(0));
      const line = readKeyLine(s, 0);
      if (line === undefined) {
        if (!top) throw new Refusal("not-object", `The document is a sequence, not a mapping (line ${lineNo}, column 1)`, here(0));
        // `key:` and its sequence at the same indentation (`tags:\n- name: a`): the member goes on, and is not
        // made of `key:` parts (were it too large to keep, it is parsed whole).
        if (top.mode === "other") {
          top.parts = undefined;
          index.parts.delete(top.entry.key);
          return;
        }
        if (top.mode === "sequence") return;
        if (top.kind !== "paths" || top.mode !== "entries" || top.childIndent !== undefined) refuse(`a sequence item under \`${top.entry.key}\``, here(0));
        top.mode = "sequence";
        return;
      }
      if (typeof line === "string") {
        if (!contentSeen && !s.includes(": ") && !/^[[{?&*!|>%@`,-]/.test(s)) throw new Refusal("not-object", `The document is a scalar, not a mapping (line ${lineNo}, column 1)`, here(0));
        return refuse(line, here(0));
      }
      contentSeen = true;
      closeAll(start);
      const kind = line.key === "paths" || line.key === "webhooks" || line.key === "components" ? line.key : "other";
      if (kind !== "other" && index.top.has(kind)) {
        // A repeated `paths:` replaces the first, as the whole parse's last-wins does.
        if (kind === "components") {
          for (const section of index.components.values()) index.shadowed.push(...section.values());
          index.components.clear();
        } else {
          index.shadowed.push(...index[kind].values());
          index[kind].clear();
        }
      }
      const entry = record(index.top, line, 0, start);
      top = { entry, kind, mode: kind === "other" ? "other" : indexedValue(s, line, 0) };
      if (kind === "other" && line.rest === "") index.parts.set(line.key, (top.parts = []));
      return;
    }

    if (!top) return refuse("indentation where a top-level key was expected", here(indent));
    top.childIndent ??= indent;
    if (indent < top.childIndent) refuse(`indentation ${indent} under \`${top.entry.key}\`, whose entries start at ${top.childIndent}`, here(indent));
    if (indent === top.childIndent) {
      const line = keyLine(s, indent);
      if (line === undefined) {
        // Only `paths` is read whole when it has no entries (the build says it is not a mapping).
        if (top.kind !== "paths") refuse(`a sequence as \`${top.entry.key}\``, here(indent));
        if (child) refuse(`a sequence item among the entries of \`${top.entry.key}\``, here(indent));
        top.mode = "sequence";
        return;
      }
      close(grandchild, start);
      close(child, start);
      grandchild = undefined;
      if (top.kind === "components") {
        const at = here(indent);
        const before = index.components.get(line.key);
        if (before) {
          duplicate(at);
          index.shadowed.push(...before.values());
        }
        index.components.delete(line.key);
        const mode = indexedValue(s, line, indent);
        // `schemas: {}` is an empty section; `schemas:` with no entries is null, and `schemas: []` not a mapping: none.
        if (mode === "inline" && /^\{\}/.test(line.rest)) index.components.set(line.key, new Map());
        child = { entry: { key: line.key, keyAt: at, start, end: -1, at: { line: lineNo, column: 1 } }, mode };
      } else {
        child = { entry: record(top.kind === "paths" ? index.paths : index.webhooks, line, indent, start), mode: "item" };
      }
      return;
    }
    // A component: one level under a components section.
    const section = child!;
    section.entryIndent ??= indent;
    if (indent < section.entryIndent) refuse(`indentation ${indent} under \`components.${section.entry.key}\`, whose entries start at ${section.entryIndent}`, here(indent));
    const line = keyLine(s, indent);
    if (line === undefined) {
      // Nothing would read a section holding a sequence (it has no entries, as in JSON), so nothing would check it.
      return refuse(`a sequence ${section.entries ? "item among the entries of" : "as"} \`components.${section.entry.key}\``, here(indent));
    }
    close(grandchild, start);
    if (!section.entries) {
      section.entries = new Map();
      index.components.set(section.entry.key, section.entries);
    }
    grandchild = { entry: record(section.entries, line, indent, start) };
  };

  // Lines, from chunks: the first LINE_PREFIX_BYTES of each are kept (joined when a line spans chunks).
  let carry: Uint8Array[] = [];
  let carried = 0;
  let lineStart = 0;
  let lineLength = 0;
  let offset = 0; // of the chunk being read
  let bomChecked = false;
  const endLine = (bytes: Uint8Array) => {
    onLine(bytes, lineStart, lineLength > LINE_PREFIX_BYTES);
    lineNo++;
  };
  try {
    for await (const chunk of chunks) {
      if (chunk.byteLength === 0) continue;
      let pos = 0;
      if (!bomChecked) {
        // A UTF-8 BOM is not part of the text: line 1 starts after it. (A BOM split across chunks is not expected from R2.)
        bomChecked = true;
        if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) pos = lineStart = index.rootStart = 3;
      }
      while (pos < chunk.byteLength) {
        const nl = chunk.indexOf(0x0a, pos);
        const stop = nl === -1 ? chunk.byteLength : nl;
        const room = LINE_PREFIX_BYTES + 1 - carried;
        if (room > 0 && (carried > 0 || nl === -1)) {
          const part = chunk.slice(pos, Math.min(stop, pos + room));
          carry.push(part);
          carried += part.byteLength;
        }
        lineLength += stop - pos;
        if (nl === -1) break;
        if (carried > 0) {
          const joined = new Uint8Array(carried);
          let at = 0;
          for (const part of carry) {
            joined.set(part, at);
            at += part.byteLength;
          }
          endLine(joined.subarray(0, Math.min(carried, LINE_PREFIX_BYTES)));
          carry = [];
          carried = 0;
        } else endLine(chunk.subarray(pos, Math.min(stop, pos + LINE_PREFIX_BYTES)));
        pos = nl + 1;
        lineStart = offset + pos;
        lineLength = 0;
      }
      offset += chunk.byteLength;
      index.size = offset;
    }
    if (lineLength > 0 || carried > 0) {
      const joined = new Uint8Array(carried);
      let at = 0;
      for (const part of carry) {
        joined.set(part, at);
        at += part.byteLength;
      }
      onLine(joined.subarray(0, Math.min(carried, LINE_PREFIX_BYTES)), lineStart, lineLength > LINE_PREFIX_BYTES);
    }
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return { ok: false, error: { code: error.code, message: error.message, ...error.at } };
  }
  closeAll(index.size);
  if (!contentSeen) return { ok: false, error: { code: "empty", message: "The document is empty", line: 1, column: 1 } };
  return { ok: true, index };
}
