/**
 * @module Pass 2 of the streamed build for YAML (issue 12): one entry that yaml-index.ts found (a top-level member, a
 * path item, a component), parsed on its own with parse/yaml.ts as the whole parse would parse it, its positions
 * shifted back to the document's.
 */
import { DEFAULT_MAX_ALIAS_COUNT, DEFAULT_MAX_DEPTH } from "../parse/types";
import type { ParseWarning, SourcePosition } from "../parse/types";
import { parseYaml, type YamlValues } from "../parse/yaml";
import type { WorkBudget } from "../work-budget";
import type { IndexedEntry } from "./json-index";

/** One YAML entry, parsed: its value, where paths inside it are (absolute positions), its parse's warnings (absolute lines). */
export interface ParsedYamlEntry {
  data: unknown;
  /** Where a path inside the entry's value starts, in the whole document's lines and columns. */
  locate(rest: readonly (string | number)[]): SourcePosition | undefined;
  warnings: ParseWarning[];
}

/** An entry that does not parse alone: a syntax error (400), or an alias to another entry's anchor or a layout the split got wrong (413). */
export class YamlEntryError extends Error {
  constructor(
    readonly status: 400 | 413,
    readonly code: string,
    message: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(message);
  }
}

/** The entry `locate` parsed last (see parseYamlEntry). */
let lastLocated: { text: string; locate: (path: readonly (string | number)[]) => SourcePosition | undefined } | undefined;

/**
 * Parses one indexed entry's text (from its key's line start to the next key of its level) with parse/yaml.ts, as
 * the whole parse would (same schema, limits reduced by the entry's depth, the libyaml leniency of yaml-repair.ts),
 * and shifts its positions by the lines above it. `depth` is the entry's level (1 top-level member, 2 a path item,
 * 3 a component). The text is dedented first (the key's indentation taken off every line; the entry's other lines
 * are indented past it, or blank, or comments), so that parse/yaml.ts can split an entry past 1 MB into its own
 * entries (its splitter starts at column 0): the `yaml` library's tree costs ~30x the text. Columns get the
 * indentation back. `values: "keys"` parses for errors and warnings only: `data` is then undefined (see
 * {@link YamlValues}).
 * @throws YamlEntryError when the text does not parse alone, or holds anything but its own key.
 */
export function parseYamlEntry(text: string, entry: IndexedEntry, depth: number, budget?: WorkBudget, values: YamlValues = "all"): ParsedYamlEntry {
  const lineShift = entry.keyAt.line - 1;
  const indent = entry.keyAt.column - 1;
  if (indent > 0) text = text.replace(new RegExp(`^ {1,${indent}}`, "gm"), "");
  const outcome = parseYaml(text, DEFAULT_MAX_DEPTH - (depth - 1), DEFAULT_MAX_ALIAS_COUNT, true, undefined, budget, values);
  lastLocated = undefined;
  if (!outcome.ok) {
    const { code, message } = outcome.error;
    const line = (outcome.error.line ?? 1) + lineShift;
    const column = (outcome.error.column ?? 1) + indent;
    const relocated = message.replace(/\(line \d+(?:, column \d+)?\)$/, "").trimEnd();
    if (/^Unknown YAML alias/.test(message)) {
      throw new YamlEntryError(413, "yaml-not-streamable", `${relocated}: YAML past 25 MiB is built entry by entry, and an alias may only name an anchor of its own path item or component (line ${line}, column ${column})`, line, column);
    }
    const status = code === "too-deep" || code === "aliases" ? 413 : 400;
    throw new YamlEntryError(status, code === "syntax" ? "syntax" : code, `${relocated} (line ${line}, column ${column})`, line, column);
  }
  const data = outcome.doc.data as Record<string, unknown>;
  const keys = Object.keys(data);
  if (keys.length !== 1 || keys[0] !== entry.key) {
    const { line, column } = entry.keyAt;
    throw new YamlEntryError(413, "yaml-not-streamable", `The YAML entry ${JSON.stringify(entry.key)} could not be read on its own (it holds ${keys.length} keys); write the definition in plain block style or as JSON (line ${line}, column ${column})`, line, column);
  }
  // The document tree behind `locate` costs ~30x the text, and parsed entries are cached by their text's size: it
  // is not kept. Issues are rare, so `locate` parses again, keeping only the last entry located.
  const maxDepth = DEFAULT_MAX_DEPTH - (depth - 1);
  const locate = (rest: readonly (string | number)[]): SourcePosition | undefined => {
    if (lastLocated?.text !== text) {
      const again = parseYaml(text, maxDepth, DEFAULT_MAX_ALIAS_COUNT, true);
      if (!again.ok) return entry.keyAt;
      lastLocated = { text, locate: again.doc.locate };
    }
    const at = lastLocated.locate([entry.key, ...rest]);
    return at && { line: at.line + lineShift, column: at.column + indent };
  };
  const warnings = outcome.doc.warnings.map((w) => (w.line === undefined ? w : { ...w, line: w.line + lineShift, ...(w.column === undefined ? {} : { column: w.column + indent }) }));
  return { data: data[entry.key], locate, warnings };
}
