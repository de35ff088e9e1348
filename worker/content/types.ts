/**
 * @module Shapes of a content bundle once read (portico.yaml, guides, code steps, changelog, glossary, assets),
 * of a compiled release (stored pages) and of the checks report Git sync's pre-merge checks reuse.
 */

import type { AccessSettings } from "../access/policy";
import type { LintRuleset } from "../openapi/lint/ruleset";
import type { Brand } from "./brand";

/** A named navigation group of portico.yaml: items are `guides/<slug>`, `steps/<slug>` or `api:<api slug>`. */
export interface NavGroup {
  title: string;
  items: string[];
}

/** portico.yaml once read, defaults applied. */
export interface ContentConfig {
  name?: string;
  /** BCP 47 tags; the first is the default locale. */
  locales: string[];
  navigation: NavGroup[];
  variables: Record<string, { default: string; description?: string }>;
  /** Audience names declared for `audiences:` front matter and `::: audience` blocks (`public` is implicit). */
  audiences: string[];
  glossary: string;
  /**
   * The `brand` block (worker/content/brand.ts, docs/branding.md): bundle paths as written; once compiled, content
   * addresses (`\uE002/_content/<sha>.<ext>`). `PATCH /v1/portal`'s `brand` wins over it key by key.
   */
  brand: Brand;
  /** The `access` block (worker/access/policy.ts), secrets excepted; `PATCH /v1/portal`'s fields win over it. */
  access?: Partial<AccessSettings>;
  /** The `lint` ruleset (Spectral-compatible) applied to the portal's uploads and editor; absent: spectral:oas. */
  lint?: LintRuleset;
  /**
   * The Try-it proxy (docs/playground.md): `allowHosts` (host, host:port or *.host) it may call besides the
   * operations' servers; `allowPrivateHosts` lets it reach private addresses, honoured in the local environment only;
   * `oauth`: per security scheme, the portal's OAuth client and URL overrides.
   */
  playground?: { allowHosts: string[]; allowPrivateHosts: boolean; oauth?: Record<string, OAuthSchemeSettings> };
}

/**
 * `playground.oauth.<scheme>` of portico.yaml: the portal's default OAuth client for one security scheme and URLs
 * that replace the definition's (a sandbox authorization server). Never a client secret (config.ts says why).
 */
export interface OAuthSchemeSettings {
  clientId?: string;
  authorizationUrl?: string;
  tokenUrl?: string;
  openIdConnectUrl?: string;
}

/** The kinds of page a release holds. */
export type PageKind = "guide" | "step" | "changelog";

/** The changelog entry types. */
export const CHANGE_TYPES = ["New", "Breaking", "Improved", "Fixed", "Deprecated"] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/** One heading of a page's on-this-page table of contents (h2/h3). */
export interface TocEntry {
  level: number;
  id: string;
  /** Plain text; may contain variable markers. */
  text: string;
  /** Audience labels of the block the heading sits in (empty: public). */
  labels: string[];
}

/** A code step (line range of the sample highlighted per step). */
export interface StepItem {
  title: string;
  html: string;
  /** 1-based inclusive ranges, per language; `*` applies to languages without their own. */
  lines: Record<string, [number, number][]>;
}

/** One language of a code steps page's sample, highlighted, one HTML string per line. */
export interface SampleLang {
  lang: string;
  title: string;
  lines: string[];
}

/** A page as stored in KV (immutable, content-addressed): sanitised HTML with reader markers left in. */
export interface StoredPage {
  kind: PageKind;
  slug: string;
  locale: string;
  title: string;
  description?: string;
  html: string;
  toc: TocEntry[];
  /** Markdown source with audience blocks marked as in `html`, for llms-full.txt. */
  text: string;
  steps?: StepItem[];
  sample?: SampleLang[];
}

/** A page's row (D1): what lists, navigation, feeds and the sitemap need without reading KV. */
export interface PageMeta {
  kind: PageKind;
  slug: string;
  locale: string;
  title: string;
  description?: string;
  tags: string[];
  /** Access labels (audience names); empty = public. */
  labels: string[];
  order: number;
  /** Bundle path the page came from. */
  file: string;
  /** Operation keys (`api slug` + `#` + operation slug) the page links to. */
  operations: string[];
  changelog?: { type: ChangeType; version: string; date: string; api?: string };
}

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  kind: "guide" | "operation" | "anchor" | "asset";
  message: string;
}

export interface FileProblem {
  file: string;
  line: number;
  message: string;
}

export interface NamedProblem {
  file: string;
  line: number;
  name: string;
}

/** The checks report of a bundle (also the body of a 422). */
export interface ContentChecks {
  brokenLinks: BrokenLink[];
  /** Per API slug: operations (slug, method, path) no guide or step links to. */
  undocumentedOperations: Record<string, { slug: string; method: string; path: string; operationId?: string }[]>;
  invalidFrontMatter: FileProblem[];
  unknownVariables: NamedProblem[];
  unknownAudiences: NamedProblem[];
}

/** An operation of a live API as links resolve against it. */
export interface OperationRef {
  slug: string;
  method: string;
  path: string;
  operationId?: string | null;
}

/** Live operations per API slug (what `op:` links resolve against). */
export type OperationIndex = Map<string, OperationRef[]>;

/** A glossary term once read. */
export interface GlossaryTerm {
  term: string;
  synonyms: string[];
  /** Sanitised inline HTML. */
  html: string;
  /** Plain text of the definition (tooltips, llms.txt). */
  text: string;
}

/** An asset referenced by pages, content-addressed. */
export interface AssetFile {
  path: string;
  sha256: string;
  contentType: string;
  data: Uint8Array;
}
