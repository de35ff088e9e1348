/**
 * @module Tolerance for one YAML slip that libyaml-based tools (PyYAML, go-yaml) accept and real definitions
 * contain (Docker's API description has dozens): a multi-line quoted string whose continuation lines are not
 * indented past their key. YAML 1.2 and the `yaml` library reject it; leading white space of a continuation
 * line is folded away, so indenting those lines changes no value. Line numbers are preserved.
 */

const QUOTED_VALUE = /^( *)(?:(?:- +)+|(?:- +)*(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"-][^#]*?|-[^\s#][^#]*?) *: +)(["'])/;

/**
 * Indents under-indented continuation lines of quoted scalars. Returns the repaired text and the 1-based lines
 * changed, or undefined when nothing needed changing.
 */
export function repairQuotedContinuations(text: string): { text: string; lines: number[] } | undefined {
  const lines = text.split("\n");
  const changed: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = QUOTED_VALUE.exec(lines[i]);
    if (!m) continue;
    const indent = m[1].length;
    const quote = m[2];
    let closed = closes(lines[i], m[0].length, quote);
    let j = i + 1;
    for (; !closed && j < lines.length; j++) {
      const lead = /^ */.exec(lines[j])![0].length;
      if (lead <= indent && lines[j].trim() !== "") {
        lines[j] = " ".repeat(indent + 2 - lead) + lines[j];
        changed.push(j + 1);
      }
      closed = closes(lines[j], 0, quote);
    }
    if (closed) i = j - 1;
  }
  return changed.length ? { text: lines.join("\n"), lines: changed } : undefined;
}

/** Whether a quoted scalar open at `from` (just after the opening quote, or a line start) closes on this line. */
function closes(line: string, from: number, quote: string): boolean {
  for (let k = from; k < line.length; k++) {
    const c = line[k];
    if (quote === '"' && c === "\\") k++;
    else if (c === quote) {
      if (quote === "'" && line[k + 1] === "'") k++;
      else return true;
    }
  }
  return false;
}
