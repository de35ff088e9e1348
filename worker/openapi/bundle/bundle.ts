/**
 * @module Multi-file bundling: one document whose `$ref`s are all local, built from a file map. External
 * targets are hoisted into components under readable names (the file's base name or the pointer's last
 * segment), component entries that are `$ref`s are replaced in place, path items and text are inlined.
 * Nothing is fetched: remote refs stay as written; missing files and targets become issues with file and line.
 * Nothing outside the upload is ever read: refs that leave the archive (`../../etc/passwd`, `/proc/self/environ`,
 * `file:///…`, `C:\…`) or go through a link entry are kept as written and reported as `ref-outside-archive` errors.
 *
 * Why not `@apidevtools/json-schema-ref-parser`: its API is async-only (the build is synchronous), and its
 * bundle re-homes shared targets at the first place it met them (`#/paths/~1v2~1nfs/get/responses/401`), so
 * component names are lost (DigitalOcean bundles to zero `components.schemas`) and its errors carry no line.
 */

import { isDataMember } from "../model/data-keys";
import { isObject, parseRef, resolvePointer, toRef } from "../model/pointer";
import type { PathSegment } from "../model/pointer";
import type { BuildIssue } from "../model/types";
import { baseName, dirname, resolvePath } from "./file-path";
import { placementFor } from "./ref-context";

/**
 * A file of the upload as the bundler sees it: parsed data, text, a symbolic or hard link entry (never
 * followed: its target could be anywhere), or why it could not be read.
 */
export type LoadedFile =
  | { kind: "data"; data: unknown; locate(path: readonly PathSegment[]): { line: number; column: number } | undefined }
  | { kind: "text"; text: string }
  | { kind: "link" }
  | { kind: "error"; message: string; line?: number; column?: number };

export interface BundleInput {
  rootPath: string;
  rootData: Record<string, unknown>;
  /** Loads (and memoises) a file of the upload; undefined when there is no such file. */
  load(path: string): LoadedFile | undefined;
  /** Lay out hoisted targets the Swagger 2.0 way (`definitions`, `parameters`, `responses`). */
  swagger2: boolean;
}

/** Where a bundled node came from: its file and its path in that file. */
export interface Origin {
  file: string;
  path: PathSegment[];
}

export interface BundleResult {
  document: Record<string, unknown>;
  /** Keyed by the bundled pointer ("#/components/schemas/Pet") of each hoisted or inlined node. */
  origins: Map<string, Origin>;
  /** Problems with their `file` and `path` in that file (the caller adds lines). */
  issues: BuildIssue[];
}

const MAX_DATA_COPIES = 64;
/** Rule of refs that leave the upload (an error: not covered by lint, so the upload answer always shows it). */
export const OUTSIDE_RULE = "ref-outside-archive";
/** Sections the root fills itself; they are bundled first so in-place entries keep their names. */
const SECTION_KEYS = ["components", "definitions", "parameters", "responses", "securityDefinitions"];

/** Bundles the root and everything it references into one document (the root's data is not mutated). */
export function bundleDocument(input: BundleInput): BundleResult {
  const { rootPath, rootData, swagger2 } = input;
  const reported: BuildIssue[] = [];
  const origins = new Map<string, Origin>();
  const homes = new Map<string, string>();
  const dataCopies = new Map<string, number>();
  const hoisted = new Map<string, Record<string, unknown>>();
  const takenNames = new Map<string, Set<string>>();

  const sectionNames = (section: string[]): Set<string> => {
    const key = section.join("/");
    let names = takenNames.get(key);
    if (!names) {
      const existing = resolvePointer(rootData, section).value;
      names = new Set(isObject(existing) ? Object.keys(existing) : []);
      takenNames.set(key, names);
    }
    return names;
  };

  /**
   * Copies `node` (from `file`, at `src` there) to `out` in the bundle, rewriting `$ref`s. Inside data members
   * (`example`, `default`, ...) only refs to other files of the upload are followed, quietly: authors do write
   * `example: {$ref: examples.yml#/x}` and mean it, while a local `$ref` in an example may be literal data.
   */
  const copy = (node: unknown, file: string, out: PathSegment[], src: PathSegment[], data = false): unknown => {
    if (node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map((v, i) => copy(v, file, [...out, i], [...src, i], data));
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === "string" && (!data || parseRef(record.$ref).kind === "relative")) return rewriteRef(record, file, out, src, data);
    const result: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) {
      result[k] = copy(v, file, [...out, k], [...src, k], data || isDataMember(k, v, out[out.length - 1], out[out.length - 2]));
    }
    return result;
  };

  const copySiblings = (record: Record<string, unknown>, file: string, out: PathSegment[], src: PathSegment[]) => {
    const siblings: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) if (k !== "$ref") siblings[k] = copy(v, file, [...out, k], [...src, k]);
    return siblings;
  };

  const rewriteRef = (record: Record<string, unknown>, file: string, out: PathSegment[], src: PathSegment[], quiet: boolean): unknown => {
    const ref = record.$ref as string;
    const parsed = parseRef(ref);
    const keep = () => ({ ...record, ...copySiblings(record, file, out, src) });
    const issues = quiet ? [] : reported;
    const where = { file: file === rootPath ? undefined : file, path: [...src, "$ref"] };
    const outside = (why: string) => {
      issues.push({ severity: "error", rule: OUTSIDE_RULE, message: `${JSON.stringify(ref)} ${why}; nothing outside the upload is read`, ...where });
      return keep();
    };
    if (parsed.kind === "remote") {
      if (/^file:/i.test(parsed.url)) return outside("is a file: URL, outside the uploaded archive");
      if (/^[a-z]:[\\/]/i.test(parsed.url)) return outside("is an absolute (drive) path, outside the uploaded archive");
      return keep();
    }
    if (parsed.kind === "invalid") return keep();
    if (parsed.kind === "relative" && /^[/\\]/.test(parsed.file)) return outside("is an absolute path, outside the uploaded archive");
    // Windows separators are not separators in an archive, but a reader's tools may take them as such.
    if (parsed.kind === "relative" && parsed.file.includes("\\") && resolvePath(dirname(file), parsed.file.replace(/\\/g, "/")) === undefined) {
      return outside("points outside the uploaded archive");
    }
    const targetFile = parsed.kind === "local" ? file : resolvePath(dirname(file), parsed.file);
    if (targetFile === undefined) return outside("points outside the uploaded archive");
    if (targetFile === rootPath) return { ...copySiblings(record, file, out, src), $ref: toRef(parsed.segments) };
    const key = `${targetFile}${toRef(parsed.segments)}`;
    const home = quiet ? undefined : homes.get(key);
    if (home) return { ...copySiblings(record, file, out, src), $ref: home };
    // Data is copied afresh at each use (a local $ref inside an example would not be followed), a bounded
    // number of times so that a file whose example refers to itself cannot loop.
    const copies = quiet ? (dataCopies.get(key) ?? 0) : 0;
    if (copies >= MAX_DATA_COPIES) return keep();
    if (quiet) dataCopies.set(key, copies + 1);
    const loaded = input.load(targetFile);
    if (loaded?.kind === "link") return outside(`goes through ${targetFile}, a symbolic or hard link entry (links are never followed)`);
    if (!loaded || loaded.kind === "error") {
      const reason = !loaded ? `file ${JSON.stringify(targetFile)} is not in the upload` : `${targetFile} could not be read: ${loaded.message}`;
      issues.push({ severity: "error", rule: "unresolved-ref", message: `Cannot resolve ${JSON.stringify(ref)}: ${reason}`, ...where });
      return keep();
    }
    if (loaded.kind === "text") {
      if (parsed.segments.length === 0) return loaded.text;
      issues.push({ severity: "error", rule: "unresolved-ref", message: `Cannot resolve ${JSON.stringify(ref)}: ${targetFile} is not JSON or YAML`, ...where });
      return keep();
    }
    const target = resolvePointer(loaded.data, parsed.segments);
    if (!target.found) {
      issues.push({ severity: "error", rule: "unresolved-ref", message: `Cannot resolve ${JSON.stringify(ref)}: ${targetFile} has no ${toRef(parsed.segments)}`, ...where });
      return keep();
    }
    const placement = quiet ? ({ kind: "inline" } as const) : placementFor(out, swagger2);
    if (placement.kind === "hoist") {
      const names = sectionNames(placement.section);
      const wanted = (parsed.segments.length ? parsed.segments[parsed.segments.length - 1] : baseName(targetFile)).replace(/[^A-Za-z0-9._-]+/g, "_") || "item";
      let name = wanted;
      for (let n = 2; names.has(name); n++) name = `${wanted}_${n}`;
      names.add(name);
      const homePath = [...placement.section, name];
      const pointer = toRef(homePath);
      homes.set(key, pointer);
      origins.set(pointer, { file: targetFile, path: parsed.segments });
      const sectionKey = placement.section.join("/");
      const section = hoisted.get(sectionKey) ?? {};
      hoisted.set(sectionKey, section);
      section[name] = null;
      jobs.push(() => {
        section[name] = copy(target.value, targetFile, homePath, parsed.segments);
      });
      return { ...copySiblings(record, file, out, src), $ref: pointer };
    }
    const pointer = toRef(out);
    if (!quiet) homes.set(key, pointer);
    origins.set(pointer, { file: targetFile, path: parsed.segments });
    const siblings = copySiblings(record, file, out, src);
    if (isObject(target.value)) {
      const placeholder: Record<string, unknown> = {};
      jobs.push(() => Object.assign(placeholder, copy(target.value, targetFile, out, parsed.segments, quiet), siblings));
      return placeholder;
    }
    if (Array.isArray(target.value)) {
      const placeholder: unknown[] = [];
      jobs.push(() => {
        for (const item of copy(target.value, targetFile, out, parsed.segments, quiet) as unknown[]) placeholder.push(item);
      });
      return placeholder;
    }
    return target.value;
  };

  // Targets are copied from this queue, not by recursion, so a long chain of files cannot exhaust the stack.
  const jobs: (() => void)[] = [];
  const document: Record<string, unknown> = {};
  const order = [...SECTION_KEYS.filter((k) => k in rootData), ...Object.keys(rootData).filter((k) => !SECTION_KEYS.includes(k))];
  const bundled = new Map(order.map((k) => [k, copy(rootData[k], rootPath, [k], [k])]));
  for (let i = 0; i < jobs.length; i++) jobs[i]();
  for (const k of Object.keys(rootData)) document[k] = bundled.get(k);
  for (const [sectionKey, entries] of hoisted) attach(document, sectionKey.split("/"), entries);
  return { document, origins, issues: reported };
}

/** Adds hoisted entries to a section of the bundled document, creating it (and `components`) when absent. */
function attach(document: Record<string, unknown>, section: string[], entries: Record<string, unknown>): void {
  let node: Record<string, unknown> = document;
  for (const key of section) {
    if (!isObject(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  Object.assign(node, entries);
}
