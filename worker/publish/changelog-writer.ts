/**
 * @module Changelog drafts from a diff (issue 11, first step of the drafts flow): the `ChangelogWriter` port, the
 * embedded default writer (deterministic: a headline, then one bullet per operation linking to its page), the type
 * label and the version label. A writer may only restate the diff: every bullet cites the rule ids of the changes
 * it summarises, and {@link checkDraft} refuses a draft citing a change the diff does not contain (the rule the
 * Workers AI adapter will be held to as well). Platform-free.
 */

import type { Change, DiffResult } from "../openapi/diff";

/** The entry types of the content changelog this draft will join. */
export type ChangelogType = "Breaking" | "New" | "Improved" | "Deprecated";

/** One bullet: what changed for one operation (or the whole API), and the ids of the diff's changes it states. */
export interface DraftBullet {
  operation?: { method: string; path: string };
  text: string;
  changeIds: string[];
}

/** A changelog draft awaiting review. `body` is Markdown (names from the definition escaped). */
export interface ChangelogDraft {
  type: ChangelogType;
  /** `v<major>.<minor>.<patch>` when the version label starts with a number, else the label itself. */
  version: string;
  /** YYYY-MM-DD. */
  date: string;
  title: string;
  bullets: DraftBullet[];
  body: string;
}

/** What a writer is given. `operationUrl` links an operation's page (undefined: no link). */
export interface ChangelogWriterInput {
  api: { slug: string; title: string };
  from: string;
  to: string;
  /** YYYY-MM-DD. */
  date: string;
  result: DiffResult;
  operationUrl(method: string, path: string): string | undefined;
}

/** The port: the embedded writer below, or (production) a Workers AI adapter held to {@link checkDraft}. */
export interface ChangelogWriter {
  write(input: ChangelogWriterInput): Promise<ChangelogDraft>;
}

const ADDED = /^(endpoint-added|webhook-added|new-optional-request-(parameter|property)|response-(optional|required)-property-added|(request-body|response)-media-type-added|response-success-status-added|.*-enum-value-added)$/;
const DEPRECATED = /(-deprecated|-deprecated-with-sunset)$/;

/** Breaking when any ERR; else New when operations or fields were added; else Deprecated when something was deprecated; else Improved. */
export function changelogType(result: DiffResult): ChangelogType {
  if (result.changes.some((c) => c.level === "ERR")) return "Breaking";
  if (result.changes.some((c) => ADDED.test(c.id))) return "New";
  if (result.changes.some((c) => DEPRECATED.test(c.id))) return "Deprecated";
  return "Improved";
}

/** "2.1" → "v2.1.0", "v3" → "v3.0.0", "1.2.3-beta.1" → "v1.2.3-beta.1"; a label not starting with a number is kept. */
export function versionLabel(label: string): string {
  // A pre-release or build suffix only after all three numbers (semver), so a date label (2024-06-01) stays as written.
  const m = /^v?(\d{1,9})(?:\.(\d{1,9})(?:\.(\d{1,9})([-+][0-9A-Za-z.+-]{1,64})?)?)?$/.exec(label.trim());
  return m ? `v${Number(m[1])}.${Number(m[2] ?? 0)}.${Number(m[3] ?? 0)}${m[4] ?? ""}` : label;
}

/** Markdown text from definition names: characters Markdown or HTML would read are backslash-escaped or encoded. */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/[\\`*_{}[\]()#+\-.!|~>]/g, (ch) => `\\${ch}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;");
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Groups changes by operation in the diff's order; API-wide changes last. */
function groups(changes: Change[]): { key: string; operation?: Change["operation"]; changes: Change[] }[] {
  const byKey = new Map<string, { key: string; operation?: Change["operation"]; changes: Change[] }>();
  for (const c of changes) {
    const key = c.operation ? `${c.operation.method} ${c.operation.path}` : "";
    let group = byKey.get(key);
    if (!group) byKey.set(key, (group = { key, ...(c.operation ? { operation: c.operation } : {}), changes: [] }));
    group.changes.push(c);
  }
  return [...byKey.values()].sort((a, b) => Number(a.key === "") - Number(b.key === ""));
}

/** The embedded writer: deterministic, no model, states exactly the diff's changes (breaking ones first in each bullet). */
export const embeddedChangelogWriter: ChangelogWriter = {
  async write(input) {
    const { result } = input;
    const type = changelogType(result);
    const version = versionLabel(input.to);
    const bullets: DraftBullet[] = groups(result.changes.filter((c) => c.id !== "diff-budget-reached")).map((g) => {
      const ordered = [...g.changes].sort((a, b) => rank(a) - rank(b));
      const text = ordered.map((c) => `${c.level === "ERR" ? "**Breaking:** " : ""}${escapeMarkdown(c.message)}`).join("; ");
      return { ...(g.operation ? { operation: { method: g.operation.method, path: g.operation.path } } : {}), text, changeIds: [...new Set(ordered.map((c) => c.id))] };
    });
    return { type, version, date: input.date, title: `${input.api.title} ${version}`, bullets, body: composeBody(input, type, version, bullets) };
  },
};

/** The Markdown body of a draft: the headline, one line per bullet (linked operation, text, cited ids), a truncation note. */
export function composeBody(input: ChangelogWriterInput, type: ChangelogType, version: string, bullets: DraftBullet[]): string {
  const { result } = input;
  const { ERR, WARN, INFO } = result.counts;
  const headline =
    type === "Breaking"
      ? `${input.api.title} ${version} has ${plural(ERR, "breaking change")} since ${input.from}${WARN + INFO ? `, and ${plural(WARN + INFO, "other change")}` : ""}.`
      : `${input.api.title} ${version}: ${plural(result.changes.length, "change")} since ${input.from}, none breaking.`;
  const lines = bullets.map((b) => {
    const label = b.operation ? escapeMarkdown(`${b.operation.method} ${b.operation.path}`) : "Whole API";
    const url = b.operation ? input.operationUrl(b.operation.method, b.operation.path) : undefined;
    const link = url ? `[${label}](<${url.replace(/[<>\s]/g, encodeURIComponent)}>)` : label;
    return `- ${link}: ${b.text} (${b.changeIds.map((id) => `\`${id}\``).join(", ")})`;
  });
  const truncated = result.truncated ? [`\n_${escapeMarkdown(result.truncated)}_`] : [];
  return [escapeMarkdown(headline), "", ...lines, ...truncated].join("\n");
}

function rank(c: Change): number {
  return c.level === "ERR" ? 0 : c.level === "WARN" ? 1 : 2;
}

/**
 * Whether a draft only restates the diff: every bullet's operation has those change ids in the diff, and no
 * bullet is empty. Returns the problems (empty = the draft may be shown to reviewers).
 */
export function checkDraft(draft: ChangelogDraft, result: DiffResult): string[] {
  const problems: string[] = [];
  const idsOf = new Map<string, Set<string>>();
  for (const c of result.changes) {
    const key = c.operation ? `${c.operation.method} ${c.operation.path}` : "";
    if (!idsOf.has(key)) idsOf.set(key, new Set());
    idsOf.get(key)!.add(c.id);
  }
  for (const b of draft.bullets) {
    const key = b.operation ? `${b.operation.method} ${b.operation.path}` : "";
    const ids = idsOf.get(key);
    if (!b.changeIds.length) problems.push(`bullet "${b.text.slice(0, 60)}" cites no change`);
    if (!ids) problems.push(`bullet for ${key || "the whole API"} has no change in the diff`);
    else for (const id of b.changeIds) if (!ids.has(id)) problems.push(`bullet for ${key || "the whole API"} cites ${id}, which the diff does not contain there`);
  }
  return problems;
}

/** The anchor of an approved entry on the changelog page (`/changelog#<slug>`), shared by the page and the badges. */
export function entrySlug(apiSlug: string, version: string): string {
  return `${apiSlug}-${version}`.toLowerCase().replace(/[^a-z0-9-]+/g, "-");
}

/** A badge of an operation page: what an approved entry says about the operation. */
export interface HistoryBadge {
  kind: "new" | "breaking" | "changed" | "deprecated";
  /** "New in v2.1.0", "Breaking in v3.0.0", "Changed in v2.2.0", "Deprecated in v2.3.0". */
  label: string;
  slug: string;
}

/**
 * Badges for one operation (`method` upper-case, `path` as in the version shown) from approved entries (newest
 * first): the entry's bullet for the operation decides the kind (added → New, any ERR → Breaking, deprecated →
 * Deprecated, else Changed). At most `max`.
 */
export function historyBadges(entries: { version: string; apiSlug: string; bullets: DraftBullet[] }[], method: string, path: string, levelOf: (id: string) => string, max = 3): HistoryBadge[] {
  const out: HistoryBadge[] = [];
  for (const e of entries) {
    const bullet = e.bullets.find((b) => b.operation && b.operation.method === method && b.operation.path === path);
    if (!bullet) continue;
    const ids = bullet.changeIds;
    const kind = ids.includes("endpoint-added") ? "new" : ids.some((id) => levelOf(id) === "ERR") ? "breaking" : ids.some((id) => DEPRECATED.test(id)) ? "deprecated" : "changed";
    const word = { new: "New", breaking: "Breaking", changed: "Changed", deprecated: "Deprecated" }[kind];
    out.push({ kind, label: `${word} in ${e.version}`, slug: entrySlug(e.apiSlug, e.version) });
    if (out.length >= max) break;
  }
  return out;
}

