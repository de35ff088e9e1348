/**
 * @module Writing one scalar value back into YAML or JSON source in place, in the style it was written.
 *
 * Visual edits replace only the characters of the edited scalar, so every comment, blank line and key order
 * elsewhere stays byte for byte. Runs on the page (no `yaml` import): the rules are YAML 1.2 core schema,
 * quoting anything a YAML 1.1 reader could take for a non-string as well.
 */
import type { ScalarSlot } from "./protocol";

/** A value a form field can write. */
export type ScalarValue = string | number | boolean | null;

const NON_STRING = [
  /^(?:true|false|yes|no|on|off|y|n|null|~)$/i,
  /^[-+]?(?:\.[0-9]+|[0-9][0-9_]*(?:\.[0-9_]*)?)(?:[eE][-+]?[0-9]+)?$/,
  /^0o[0-7]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
  /^\d{4}-\d\d?-\d\d?(?:[Tt ].*)?$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/,
];

/** True when `value` can be written as a plain YAML scalar and reads back as the same string. */
export function isSafePlain(value: string, inFlow: boolean): boolean {
  if (value === "" || value !== value.trim()) return false;
  if (/[\u0000-\u001f\u007f\u0085\u2028\u2029\ufeff]/.test(value)) return false;
  if (/^[-?:,[\]{}#&*!|>'"%@`]/.test(value)) return false;
  if (/: |:$| #/.test(value)) return false;
  if (inFlow && /[,[\]{}]/.test(value)) return false;
  return !NON_STRING.some((re) => re.test(value));
}

function singleQuoted(value: string): string {
  return "'" + value.replace(/'/g, "''") + "'";
}

function literalBlock(value: string, indent: number): string {
  const body = value.replace(/\n$/, "");
  const pad = " ".repeat(indent);
  const lines = body.split("\n").map((l) => (l === "" ? "" : pad + l));
  return `|${body === value ? "-" : ""}\n${lines.join("\n")}\n`;
}

/**
 * The source text that replaces `slot.from..slot.to` so the scalar reads back as `value`.
 * JSON slots get JSON; YAML keeps the slot's quoting where it can, uses a literal block for multi-line text
 * outside flow collections, and quotes when a plain scalar would read back as something else.
 */
export function scalarSource(value: ScalarValue, slot: Pick<ScalarSlot, "style" | "blockIndent" | "flow" | "endsWithNewline" | "empty">): string {
  const text = scalarText(value, slot);
  return slot.empty && !text.startsWith("\n") ? " " + text : text;
}

function scalarText(value: ScalarValue, slot: Pick<ScalarSlot, "style" | "blockIndent" | "flow" | "endsWithNewline">): string {
  const eol = slot.endsWithNewline ? "\n" : "";
  if (slot.style === "json") return JSON.stringify(value) + eol;
  if (typeof value !== "string") return (value === null ? "null" : String(value)) + eol;
  const multiLine = value.includes("\n");
  // Keep chomping (`|+`) would swallow the blank lines that follow in the file: such values are quoted.
  const canBlock = !slot.flow && !/^\n*[ \t]/.test(value) && !/\n\n$/.test(value) && !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value);
  const blockStyle = slot.style === "literal" || slot.style === "folded";
  if ((multiLine || blockStyle) && canBlock) {
    let out = literalBlock(value, Math.max(slot.blockIndent, 1));
    if (!multiLine && slot.style === "folded") out = ">" + out.slice(1);
    // The block ends with its line break; where the old scalar did not, the break after it is still there.
    return slot.endsWithNewline ? out : out.slice(0, -1);
  }
  const controls = /[\u0000-\u001f\u007f]/.test(value);
  let out: string;
  if (multiLine || slot.style === "double" || (controls && slot.style !== "plain")) out = JSON.stringify(value);
  else if (slot.style === "single") out = singleQuoted(value);
  else if (isSafePlain(value, slot.flow)) out = value;
  else out = controls ? JSON.stringify(value) : singleQuoted(value);
  return out + eol;
}
