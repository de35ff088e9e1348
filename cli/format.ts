/** @module How `portico diff` prints a result: json (the engine's shape), text (one change a line) or markdown (grouped by operation). */

import type { Change, DiffResult } from "../worker/openapi/diff";
import { escapeText } from "../worker/lib/html-escape";

export type DiffFormat = "json" | "text" | "markdown";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function summary(result: DiffResult): string {
  const { ERR, WARN, INFO } = result.counts;
  return `${plural(result.changes.length, "change")}: ${ERR} breaking (ERR), ${plural(WARN, "warning")} (WARN), ${INFO} info (INFO)`;
}

function lines(c: Change): string {
  const at = [c.baseLine !== undefined ? `base line ${c.baseLine}` : "", c.revisionLine !== undefined ? `revision line ${c.revisionLine}` : ""].filter(Boolean).join(", ");
  return at ? ` (${at})` : "";
}

function operationLabel(c: Change): string {
  return c.operation ? `${c.operation.method} ${c.operation.path}` : "(whole API)";
}

/** Markdown cell text: pipes and line breaks escaped, HTML-significant characters entity-encoded. */
function cell(text: string): string {
  return escapeText(text).replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** The result in `format`. */
export function formatDiff(result: DiffResult, format: DiffFormat): string {
  if (format === "json") return `${JSON.stringify(result, null, 2)}\n`;
  if (format === "text") {
    const out = [summary(result)];
    for (const c of result.changes) out.push(`${c.level.padEnd(4)} ${c.id}  ${operationLabel(c)}${lines(c)}\n     ${c.message}`);
    return `${out.join("\n")}\n`;
  }
  const groups = new Map<string, Change[]>();
  for (const c of result.changes) groups.set(operationLabel(c), [...(groups.get(operationLabel(c)) ?? []), c]);
  const out = [`# API changes`, "", `${result.breaking ? "**Breaking.** " : ""}${summary(result)}`, ""];
  for (const [label, changes] of groups) {
    out.push(`## ${cell(label)}`, "", "| level | id | change | lines |", "|---|---|---|---|");
    for (const c of changes) out.push(`| ${c.level} | \`${c.id}\` | ${cell(c.message)} | ${cell(lines(c).trim().replace(/^\(|\)$/g, ""))} |`);
    out.push("");
  }
  return `${out.join("\n")}`;
}
