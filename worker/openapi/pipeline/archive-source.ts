/**
 * @module An archive's files as a lazily parsed source: decodes and parses each file at most once, and only
 * when the root search or the bundler asks for it.
 */

import type { WorkBudget } from "../work-budget";
import type { LoadedFile } from "../bundle/bundle";
import { isStructuredFile } from "../bundle/file-path";
import { isObject } from "../model/pointer";
import { parseDocument } from "../parse";
import type { ParseOutcome, ParseWarning } from "../parse";
import { decodeText } from "./sniff";

/** Memoising reader over an archive's file map. */
export class ArchiveFiles {
  private readonly texts = new Map<string, string | undefined>();
  private readonly parsed = new Map<string, ParseOutcome>();

  /**
   * `links`: the archive's link entries (never read; the bundler reports refs to them). `budget` is spent while
   * parsing each file (see ParseOptions.budget).
   */
  constructor(
    readonly files: Map<string, Uint8Array>,
    readonly links: ReadonlySet<string> = new Set(),
    private readonly budget?: WorkBudget,
  ) {}

  get paths(): string[] {
    return [...this.files.keys()];
  }

  text(path: string): string | undefined {
    if (!this.texts.has(path)) {
      const bytes = this.files.get(path);
      this.texts.set(path, bytes ? decodeText(bytes) : undefined);
    }
    return this.texts.get(path);
  }

  /** Parses a JSON/YAML file (any top-level value); undefined for a file that is not there or not text. */
  parse(path: string): ParseOutcome | undefined {
    let outcome = this.parsed.get(path);
    if (!outcome) {
      const text = this.text(path);
      if (text === undefined) return undefined;
      outcome = parseDocument(text, { requireObject: false, ...(this.budget ? { budget: this.budget } : {}) });
      this.parsed.set(path, outcome);
      // The text is only needed again for positions, which the parsed document keeps itself.
      this.texts.delete(path);
    }
    return outcome;
  }

  /** Parser warnings of every file parsed so far, by path. */
  warnings(): [string, ParseWarning[]][] {
    return [...this.parsed].flatMap(([path, o]) => (o.ok && o.doc.warnings.length ? [[path, o.doc.warnings] as [string, ParseWarning[]]] : []));
  }

  /** The bundler's view of a file. */
  load(path: string): LoadedFile | undefined {
    if (this.links.has(path)) return { kind: "link" };
    if (!this.files.has(path)) return undefined;
    if (!isStructuredFile(path)) {
      const text = this.text(path);
      return text === undefined ? { kind: "error", message: "not UTF-8 text" } : { kind: "text", text };
    }
    const outcome = this.parse(path);
    if (!outcome) return { kind: "error", message: "not UTF-8 text" };
    if (!outcome.ok) return { kind: "error", message: outcome.error.message, line: outcome.error.line, column: outcome.error.column };
    return { kind: "data", data: outcome.doc.data, locate: outcome.doc.locate };
  }

  /** True when the file parses to an object with a top-level `openapi` or `swagger` key. */
  hasRootKey(path: string): boolean {
    const outcome = this.parse(path);
    return !!outcome?.ok && isObject(outcome.doc.data) && ("openapi" in outcome.doc.data || "swagger" in outcome.doc.data);
  }
}
