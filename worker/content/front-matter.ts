/**
 * @module YAML front matter (`---` fenced, first line of the file) read with the `yaml` package, and the
 * field checks of guides, code steps and changelog entries. Problems carry the file line they point at.
 */
import { parseDocument } from "yaml";
import { CHANGE_TYPES, type ChangeType, type FileProblem } from "./types";

export interface FrontMatter {
  data: Record<string, unknown>;
  body: string;
  /** 1-based line of the body's first line in the file. */
  bodyLine: number;
}

/** Splits and parses front matter; a file without it has `{}`. Problems are returned, never thrown. */
export function splitFrontMatter(file: string, text: string): { fm: FrontMatter; problems: FileProblem[] } {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const match = /^---\n([\s\S]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/.exec(src);
  if (!match) return { fm: { data: {}, body: src, bodyLine: 1 }, problems: [] };
  const yamlText = match[1];
  const bodyLine = yamlText.split("\n").length + 3;
  const body = src.slice(match[0].length);
  const doc = parseDocument(yamlText, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line ?? 1;
    return { fm: { data: {}, body, bodyLine }, problems: [{ file, line: line + 1, message: `front matter is not valid YAML: ${e.message.split("\n")[0]}` }] };
  }
  const data = doc.toJS({ maxAliasCount: 50 });
  if (data === null || data === undefined) return { fm: { data: {}, body, bodyLine }, problems: [] };
  if (typeof data !== "object" || Array.isArray(data)) return { fm: { data: {}, body, bodyLine }, problems: [{ file, line: 2, message: "front matter must be a mapping of fields" }] };
  return { fm: { data: data as Record<string, unknown>, body, bodyLine }, problems: [] };
}

/** Line (1-based, in the file) of a top-level front matter key, for problem reports. */
function keyLine(text: string, key: string): number {
  const lines = text.split("\n");
  for (let i = 1; i < lines.length && lines[i] !== "---"; i++) if (lines[i].startsWith(key + ":")) return i + 1;
  return 1;
}

function stringList(v: unknown): string[] | undefined {
  if (v === undefined) return [];
  if (typeof v === "string") return v.split(",").map((s) => s.trim()).filter(Boolean);
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v.map((s) => s.trim()).filter(Boolean);
  return undefined;
}

export interface PageFields {
  title: string;
  description?: string;
  tags: string[];
  audiences: string[];
  order: number;
  slug?: string;
  changelog?: { type: ChangeType; version: string; date: string; api?: string };
}

const SLUG = /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/;
const VERSION = /^v\d+\.\d+\.\d+$/;

/** Checks the fields of a page's front matter; `undefined` fields when any required one is wrong. */
export function pageFields(file: string, text: string, data: Record<string, unknown>, kind: "guide" | "step" | "changelog"): { fields?: PageFields; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const bad = (key: string, message: string) => problems.push({ file, line: keyLine(text, key), message });
  const title = data.title;
  if (typeof title !== "string" || !title.trim()) bad("title", "`title` is required and must be text");
  if (data.description !== undefined && typeof data.description !== "string") bad("description", "`description` must be text");
  const tags = stringList(data.tags);
  if (!tags) bad("tags", "`tags` must be a list of names");
  const audiences = stringList(data.audiences);
  if (!audiences) bad("audiences", "`audiences` must be a list of audience names");
  if (data.order !== undefined && (typeof data.order !== "number" || !Number.isFinite(data.order))) bad("order", "`order` must be a number");
  if (data.slug !== undefined && (typeof data.slug !== "string" || !SLUG.test(data.slug))) bad("slug", "`slug` must be lower-case letters, digits, `-`, `_`, `.` and `/`");
  let changelog: PageFields["changelog"];
  if (kind === "changelog") {
    if (typeof data.type !== "string" || !(CHANGE_TYPES as readonly string[]).includes(data.type)) bad("type", `\`type\` must be one of ${CHANGE_TYPES.join(", ")}`);
    if (typeof data.version !== "string" || !VERSION.test(data.version)) bad("version", "`version` must look like v<major>.<minor>.<patch>");
    const date = data.date instanceof Date ? data.date.toISOString().slice(0, 10) : data.date;
    if (typeof date !== "string" || !/^\d{4}-\d{2}-\d{2}/.test(date) || Number.isNaN(Date.parse(date))) bad("date", "`date` must be an ISO date (YYYY-MM-DD)");
    if (data.api !== undefined && typeof data.api !== "string") bad("api", "`api` must be an API slug");
    if (problems.length === 0) changelog = { type: data.type as ChangeType, version: data.version as string, date: date as string, api: data.api as string | undefined };
  }
  if (problems.length > 0) return { problems };
  return {
    problems,
    fields: {
      title: (title as string).trim(),
      description: data.description as string | undefined,
      tags: tags!,
      audiences: audiences!,
      order: (data.order as number | undefined) ?? Number.MAX_SAFE_INTEGER,
      slug: data.slug as string | undefined,
      changelog,
    },
  };
}
