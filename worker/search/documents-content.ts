/**
 * @module Search documents of a content release (worker/content): guides split at their h2/h3 headings (each
 * section with its anchor), code steps (the page and each step), changelog entries and glossary terms, in every
 * locale. Each document carries the access labels readers are checked against: the page's labels (front matter
 * `audiences:`), narrowed by the audience blocks (`<!--a:…-->`) the text sits in, so a block's words only ever
 * reach readers of that block (see {@link combineLabels}).
 *
 * Variables stay as `{{name}}` in the indexed text; the search route fills them for the reader in snippets.
 */
import { pagePath as policyPathOf } from "../access/labels";
import { PUBLIC } from "../access/reader";
import { pagePath, type CompiledPage } from "../content/compile";
import { VAR_MARKER } from "../content/markers";
import type { ContentConfig, GlossaryTerm, StoredPage, TocEntry } from "../content/types";
import { slugify } from "../content/markdown";
import { plainText } from "./documents-text";
import type { SearchDocument, SearchKind } from "./types";

/** A page of a release as documents need it: its row's facts and its stored page. */
export interface ContentPageInput {
  meta: CompiledPage["meta"];
  page: StoredPage;
}

/** Characters of text kept per document (a guide section is prose; longer sections are cut). */
export const CONTENT_BODY_CHARS = 8000;

/** Whether labels mean "everyone" (none, or `public` among them). */
const isPublic = (labels: readonly string[]) => labels.length === 0 || labels.includes(PUBLIC);

/**
 * Labels of text that sits inside both `outer` and `inner` (each: any one label opens it). One label list cannot
 * say "one of A and one of B", so this keeps the labels in both lists: never wider than either; a reader
 * holding only different labels of each does not find that text (conservative: nothing leaks). `["\u0000"]`
 * (no reader holds it) when the lists share nothing.
 */
export function combineLabels(outer: readonly string[], inner: readonly string[]): string[] {
  if (isPublic(outer)) return isPublic(inner) ? [] : [...inner];
  if (isPublic(inner)) return [...outer];
  const both = outer.filter((l) => inner.includes(l));
  return both.length ? both : ["\u0000"];
}

const AUDIENCE = /<!--a:([a-z0-9_,-]*)-->|<!--\/a-->/g;

/** Splits marked HTML into runs by the labels of the audience blocks they sit in (nested blocks combine). */
export function splitByAudience(html: string, pageLabels: readonly string[]): { labels: string[]; html: string }[] {
  const runs = new Map<string, { labels: string[]; parts: string[] }>();
  const stack: string[][] = [[...pageLabels]];
  const add = (text: string) => {
    if (!text) return;
    const labels = stack[stack.length - 1];
    const key = labels.join(",");
    const run = runs.get(key) ?? runs.set(key, { labels, parts: [] }).get(key)!;
    run.parts.push(text);
  };
  let last = 0;
  AUDIENCE.lastIndex = 0;
  for (let m = AUDIENCE.exec(html); m; m = AUDIENCE.exec(html)) {
    add(html.slice(last, m.index));
    last = m.index + m[0].length;
    if (m[1] !== undefined) stack.push(combineLabels(stack[stack.length - 1], m[1].split(",").filter(Boolean)));
    else if (stack.length > 1) stack.pop();
  }
  add(html.slice(last));
  return [...runs.values()].map((r) => ({ labels: r.labels, html: r.parts.join(" ") }));
}

/** `\uE000name\uE001` markers as `{{name}}` (what the author wrote; resolved per reader in snippets). */
function unmark(text: string): string {
  return text.replace(VAR_MARKER, "{{$1}}").replace(/[\uE000-\uE002]/g, "");
}

const HEADING = /<h([23])\b[^>]*\bid="([^"]*)"[^>]*>/g;

/** A page's HTML cut at its h2/h3 headings: the intro (id "") and one part per heading id. */
function sections(html: string): { id: string; html: string }[] {
  const out: { id: string; html: string }[] = [];
  let id = "";
  let last = 0;
  HEADING.lastIndex = 0;
  for (let m = HEADING.exec(html); m; m = HEADING.exec(html)) {
    out.push({ id, html: html.slice(last, m.index) });
    id = m[2];
    last = m.index;
  }
  out.push({ id, html: html.slice(last) });
  return out;
}

/** Drops what the page adds around the author's words: heading permalinks ("#") and glossary tooltips. */
function stripChrome(html: string): string {
  return html.replace(/<a class="header-anchor"[^>]*>[^<]*<\/a>/g, "").replace(/<span class="term-def"[^>]*>[^<]*<\/span>/g, "");
}

interface DocBase {
  kind: SearchKind;
  idBase: string;
  title: string;
  section?: string;
  url: string;
  locale: string;
  /** The page's path for the access policy, when it has no labels of its own (see SearchDocument.policyPath). */
  policyPath?: string;
}

/** One document per audience run of `html` (the public run keeps the base id; labelled runs get a suffix). */
function docsOf(base: DocBase, html: string, labels: readonly string[]): SearchDocument[] {
  return splitByAudience(html, labels).flatMap((run, i) => {
    const body = unmark(plainText(stripChrome(run.html), CONTENT_BODY_CHARS));
    if (i > 0 && !body) return [];
    return [{
      id: i === 0 ? base.idBase : `${base.idBase}~${i}`,
      kind: base.kind, title: unmark(base.title), section: base.section && unmark(base.section), body, url: base.url, locale: base.locale, labels: run.labels,
      ...(base.policyPath ? { policyPath: base.policyPath } : {}),
    }];
  });
}

/**
 * Documents of one page: guide sections, a code steps page and its steps, or a changelog entry. A page with no text
 * but its title (a headline-only changelog entry, "Version 0.1.0 (2020-08-26)"; a guide page not written yet) is one
 * document with an empty body: before, it had none, and no query found it.
 */
export function pageDocuments(input: ContentPageInput, config: ContentConfig): SearchDocument[] {
  const { meta } = input;
  const docs = pageParts(input, config);
  if (docs.length) return docs;
  const policyPath = meta.labels.length ? undefined : policyPathOf(meta.kind, meta.slug);
  return [{
    id: `${meta.kind}:${meta.locale}:${meta.slug}`, kind: meta.kind,
    title: unmark(meta.title), ...(meta.kind === "changelog" ? { section: changelogSection(meta) } : {}), body: "",
    url: pagePath(meta.kind, meta.slug, meta.locale, config.locales[0]), locale: meta.locale, labels: [...meta.labels], ...(policyPath ? { policyPath } : {}),
  }];
}

/** A changelog entry's section: its type, version, date and API ("New · v2.3.0 · 2026-01-01"). */
function changelogSection(meta: ContentPageInput["meta"]): string {
  const c = meta.changelog;
  return c ? [c.type, c.version, c.date, c.api].filter(Boolean).join(" · ") : "Changelog";
}

function pageParts(input: ContentPageInput, config: ContentConfig): SearchDocument[] {
  const { meta, page } = input;
  const path = pagePath(meta.kind, meta.slug, meta.locale, config.locales[0]);
  const id = `${meta.kind}:${meta.locale}:${meta.slug}`;
  const locale = meta.locale;
  // Own labels override the policy's sections and default (access/policy unitLabels), so only unlabelled pages defer to it.
  const policyPath = meta.labels.length ? undefined : policyPathOf(meta.kind, meta.slug);
  if (meta.kind === "changelog") {
    return docsOf({ kind: "changelog", idBase: id, title: meta.title, section: changelogSection(meta), url: path, locale, policyPath }, page.html, meta.labels);
  }
  const toc = new Map<string, TocEntry>(page.toc.map((t) => [t.id, t]));
  const intro = meta.description ? `<p>${meta.description}</p>` : "";
  if (meta.kind === "step") {
    const docs = docsOf({ kind: "step", idBase: id, title: meta.title, url: path, locale, policyPath }, intro + page.html, meta.labels);
    (page.steps ?? []).forEach((s, i) => {
      docs.push(...docsOf({ kind: "step", idBase: `${id}#${i + 1}`, title: s.title, section: meta.title, url: `${path}#step-${i + 1}`, locale, policyPath }, s.html, meta.labels));
    });
    return docs;
  }
  return sections(page.html).flatMap((part) => {
    if (!part.id) return docsOf({ kind: "guide", idBase: id, title: meta.title, url: path, locale, policyPath }, intro + part.html, meta.labels);
    const heading = toc.get(part.id);
    // Headings deeper than h3 and headings in audience blocks: the entry's labels narrow the section's.
    const labels = heading ? combineLabels(meta.labels, heading.labels) : [...meta.labels];
    const title = heading?.text ?? plainText(part.html.slice(0, part.html.indexOf("</h")), 200);
    return docsOf({ kind: "guide", idBase: `${id}#${part.id}`, title, section: meta.title, url: `${path}#${part.id}`, locale, policyPath }, part.html, labels);
  });
}

/** Documents of the glossary: one per term (synonyms in the body), in the default locale, at `/glossary#…`. */
export function glossaryDocuments(terms: GlossaryTerm[], config: ContentConfig): SearchDocument[] {
  return terms.map((t) => ({
    id: `glossary:${t.term}`,
    kind: "glossary" as const,
    title: t.term,
    section: "Glossary",
    body: unmark([t.synonyms.join(", "), plainText(t.text, CONTENT_BODY_CHARS)].filter(Boolean).join("\n")),
    url: `/glossary#${glossaryAnchor(t.term)}`,
    locale: config.locales[0],
    labels: [],
    policyPath: "/glossary",
  }));
}

/** Anchor of a glossary term on the glossary page. */
export function glossaryAnchor(term: string): string {
  return "term-" + slugify(term);
}

/** Every document of a release: its pages in every locale and its glossary. */
export function releaseDocuments(pages: ContentPageInput[], glossary: GlossaryTerm[], config: ContentConfig): SearchDocument[] {
  return [...pages.flatMap((p) => pageDocuments(p, config)), ...glossaryDocuments(glossary, config)];
}
