/**
 * @module The state of one guide Markdown render (markdown-it's `env`): what the caller hands in (file, link
 * resolver, known names, glossary) and what the render finds (problems, TOC). The pipeline (markdown.ts) and its
 * extensions (extensions.ts) both read it, so it is defined apart from both.
 */
import type { NamedProblem, TocEntry } from "./types";

/** Resolves an author's link target to the href written out (or undefined: the link is dropped to text). */
export type LinkResolver = (href: string, kind: "link" | "image", line: number) => string | undefined;

/** Per-render state: inputs (file, resolver, known names) and what the render found (problems, TOC). */
export interface RenderEnv {
  file: string;
  /** 1-based line in the file of the Markdown's first line. */
  bodyLine: number;
  resolve: LinkResolver;
  variables: Set<string>;
  audiences: Set<string>;
  glossary?: GlossaryMatcher;
  termsUsed: Set<number>;
  unknownVariables: NamedProblem[];
  unknownAudiences: NamedProblem[];
  toc: TocEntry[];
}

/** Matches glossary terms and synonyms (longest first, whole words, any case). */
export interface GlossaryMatcher {
  pattern: RegExp;
  /** Lower-cased term or synonym → index of its term. */
  index: Map<string, number>;
  /** Plain-text definitions by term index. */
  definitions: string[];
}
