/**
 * @module A content bundle (file map) → a release: every page parsed once into stored HTML (markers kept), page
 * rows, glossary, assets, and the checks report (docs/content.md). Pure apart from Web Crypto; never throws on
 * author input: problems go into `checks`, and `refusal` says whether the release may go live.
 */
import { resolveBrandFiles } from "./brand";
import { sanitizeCustomCss, sanitizeSvg } from "./brand-files";
import { readConfig, readGlossary } from "./config";
import { glossaryMatcher } from "./extensions";
import { pageFields, splitFrontMatter, type PageFields } from "./front-matter";
import { sha256 } from "./hash";
import { assetType, findOperation, isExternal, parseOpLink, resolvePath } from "./links";
import { BASE_MARKER, stripMarkerChars } from "./markers";
import { renderContentMarkdown, renderInlineMarkdown, slugify } from "./markdown";
import type { RenderEnv } from "./render-env";
import { renderSteps } from "./steps";
import type { AssetFile, ContentChecks, ContentConfig, GlossaryTerm, OperationIndex, PageKind, PageMeta, StoredPage } from "./types";

/** Largest Markdown file accepted (bytes): a guide is prose, not data. */
export const MAX_PAGE_BYTES = 512 * 1024;
/** Most pages (guides, steps, changelog entries, all locales) in one bundle: keeps a publish within seconds of CPU. */
export const MAX_PAGES = 3000;
/** Most assets in one bundle: each is one R2 write of the publish. */
export const MAX_ASSETS = 500;

export interface CompiledPage {
  meta: PageMeta;
  page: StoredPage;
}

export interface CompiledRelease {
  config: ContentConfig;
  pages: CompiledPage[];
  glossary: GlossaryTerm[];
  assets: AssetFile[];
  checks: ContentChecks;
  /** Why the release may not go live (`broken-links` can be overridden), or undefined. */
  refusal?: "too-many-pages" | "too-many-assets" | "invalid-front-matter" | "broken-links";
}

interface Source {
  file: string;
  kind: PageKind;
  locale: string;
  /** Path below the kind's folder without `.md` and locale: the default slug, and the variant key. */
  base: string;
  text: string;
  fields: PageFields;
  body: string;
  bodyLine: number;
}

const KIND_DIRS: Record<string, PageKind> = { guides: "guide", steps: "step", changelog: "changelog" };
const decoder = new TextDecoder("utf-8", { fatal: true });

function decode(data: Uint8Array): string | undefined {
  try {
    return decoder.decode(data);
  } catch {
    return undefined;
  }
}

/** The URL path (after the base marker) of a page in a locale (changelog entries: an anchor of that locale's changelog). */
export function pagePath(kind: PageKind, slug: string, locale: string, defaultLocale: string): string {
  const prefix = locale === defaultLocale ? "" : `/${locale}`;
  if (kind === "changelog") return `${prefix}/changelog#${slug}`;
  return `${prefix}/${kind === "guide" ? "guides" : "steps"}/${slug}`;
}

/** Compiles a bundle against the portal's live operations. */
export async function compileBundle(files: Map<string, Uint8Array>, operations: OperationIndex): Promise<CompiledRelease> {
  const checks: ContentChecks = { brokenLinks: [], undocumentedOperations: {}, invalidFrontMatter: [], unknownVariables: [], unknownAudiences: [] };
  const text = (p: string) => (files.has(p) ? decode(files.get(p)!) : undefined);
  const { config, problems: configProblems } = readConfig(text("portico.yaml"));
  checks.invalidFrontMatter.push(...configProblems);
  const defaultLocale = config.locales[0];
  const knownAudiences = new Set(config.audiences);

  // Assets first: pages link to them by content address.
  if ([...files.keys()].filter((f) => assetType(f)).length > MAX_ASSETS) return { config, pages: [], glossary: [], assets: [], checks, refusal: "too-many-assets" };
  const assets: AssetFile[] = [];
  const assetByPath = new Map<string, AssetFile>();
  const stylesheets: [string, Uint8Array][] = [];
  const encoder = new TextEncoder();
  for (const [path, raw] of files) {
    const contentType = assetType(path);
    if (!contentType || path.endsWith(".md")) continue;
    // Stylesheets point at other assets: compiled once every other asset has its address.
    if (contentType.startsWith("text/css")) { stylesheets.push([path, raw]); continue; }
    let data = raw;
    if (contentType === "image/svg+xml") {
      // Every SVG of the bundle is reduced to drawing (no script, handler or outside reference), logo or not: a
      // reader may open any asset on its own.
      const svg = decode(raw);
      const clean = svg === undefined ? undefined : sanitizeSvg(svg);
      if (clean === undefined) { checks.invalidFrontMatter.push({ file: path, line: 1, message: "not an SVG image (no <svg> element once sanitised)" }); continue; }
      data = encoder.encode(clean);
    }
    const asset = { path, sha256: await sha256(data), contentType, data };
    assets.push(asset);
    assetByPath.set(path, asset);
  }
  const assetUrl = (a: AssetFile) => `${a.sha256}.${a.path.slice(a.path.lastIndexOf(".") + 1).toLowerCase()}`;
  for (const [path, raw] of stylesheets) {
    const result = sanitizeCustomCss(raw, (url) => {
      if (isExternal(url) || url.startsWith("/") || url.startsWith("#")) return undefined;
      let target: string | undefined;
      try {
        target = resolvePath(path, decodeURI(url.replace(/[?#].*$/, "")));
      } catch {
        return undefined; // a malformed %-escape names no file
      }
      const asset = target === undefined ? undefined : assetByPath.get(target);
      // The stylesheet is served beside the assets (`/_content/`), so a bare address is the asset's.
      return asset && !asset.contentType.startsWith("text/css") ? assetUrl(asset) : undefined;
    });
    if ("refused" in result) { checks.invalidFrontMatter.push({ file: path, line: 1, message: `the stylesheet ${result.refused}` }); continue; }
    for (const d of result.dropped) checks.brokenLinks.push({ file: path, line: 1, target: d, kind: "asset", message: `${d} was left out of the stylesheet: it keeps CSS rules only, loading files of the bundle only` });
    const data = encoder.encode(result.css);
    const asset = { path, sha256: await sha256(data), contentType: "text/css; charset=utf-8", data };
    assets.push(asset);
    assetByPath.set(path, asset);
  }

  const pageCount = [...files.keys()].filter((f) => /^(guides|steps|changelog)\/.+\.md$/.test(f)).length;
  if (pageCount > MAX_PAGES) return { config, pages: [], glossary: [], assets: [], checks, refusal: "too-many-pages" };

  // The brand's files (logo, favicon, fonts, stylesheet) by content address; a missing one is a broken link.
  config.brand = resolveBrandFiles(config.brand, (path) => {
    const a = assetByPath.get(path);
    return a ? `${BASE_MARKER}/_content/${assetUrl(a)}` : undefined;
  }, (key, path) => checks.brokenLinks.push({ file: "portico.yaml", line: 1, target: path, kind: "asset", message: `brand.${key}: no file ${path} in the bundle` }));

  // Every page's front matter, so links can resolve to any page while rendering.
  const sources: Source[] = [];
  for (const [file, data] of files) {
    const m = /^(guides|steps|changelog)\/(.+)\.md$/.exec(file);
    if (!m) continue;
    const kind = KIND_DIRS[m[1]];
    if (data.length > MAX_PAGE_BYTES) {
      checks.invalidFrontMatter.push({ file, line: 1, message: `the page is larger than ${MAX_PAGE_BYTES} bytes` });
      continue;
    }
    const src = decode(data);
    if (src === undefined) {
      checks.invalidFrontMatter.push({ file, line: 1, message: "the page is not UTF-8 text" });
      continue;
    }
    let base = m[2];
    let locale = defaultLocale;
    const loc = /^(.*)\.([a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)$/.exec(base);
    if (loc && config.locales.includes(loc[2])) [base, locale] = [loc[1], loc[2]];
    const { fm, problems } = splitFrontMatter(file, src);
    const checked = problems.length ? { problems } : pageFields(file, src.replace(/\r\n?/g, "\n"), fm.data, kind);
    checks.invalidFrontMatter.push(...checked.problems);
    if (!checked.fields) continue;
    for (const a of checked.fields.audiences) if (a !== "public" && !knownAudiences.has(a)) checks.unknownAudiences.push({ file, line: 1, name: a });
    sources.push({ file, kind, locale, base, text: src, fields: checked.fields, body: fm.body, bodyLine: fm.bodyLine });
  }
  const byBase = new Map<string, Source>();
  for (const s of sources) if (s.locale === defaultLocale) byBase.set(`${s.kind}:${s.base}`, s);
  const slugOf = (s: Source) => {
    const main = byBase.get(`${s.kind}:${s.base}`) ?? s;
    return main.fields.slug ?? (main.base.split("/").map(slugify).join("/"));
  };
  const byFile = new Map(sources.map((s) => [s.file, s]));
  const seen = new Map<string, string>();
  for (const s of sources) {
    const key = `${s.kind}:${s.locale}:${slugOf(s)}`;
    if (seen.has(key)) checks.invalidFrontMatter.push({ file: s.file, line: 1, message: `slug "${slugOf(s)}" is already used by ${seen.get(key)}` });
    else seen.set(key, s.file);
  }

  const rawTerms = readGlossary(config.glossary, text(config.glossary));
  checks.invalidFrontMatter.push(...rawTerms.problems);
  const glossary: GlossaryTerm[] = rawTerms.terms.map((t) => {
    const html = renderInlineMarkdown(t.definition);
    return { term: t.term, synonyms: t.synonyms, html, text: html.replace(/<[^>]*>/g, "").trim() };
  });
  const matcher = glossaryMatcher(glossary);

  const pendingAnchors: { file: string; line: number; target: string; page: Source; anchor: string }[] = [];
  const linkedOps = new Set<string>();
  const pages: CompiledPage[] = [];
  const idsOf = new Map<Source, Set<string>>();

  for (const s of sources) {
    const pageOps = new Set<string>();
    const resolve = (href: string, kind: "link" | "image", line: number): string | undefined => {
      const broken = (k: "guide" | "operation" | "anchor" | "asset", message: string) => {
        checks.brokenLinks.push({ file: s.file, line, target: href, kind: k, message });
        return undefined;
      };
      const op = parseOpLink(href);
      if (op) {
        const found = findOperation(operations, op.api, op.ref);
        if (!found) return broken("operation", operations.has(op.api) ? `API "${op.api}" has no live operation "${op.ref}"` : `no published API "${op.api}"`);
        const key = `${op.api}#${found.slug}`;
        pageOps.add(key);
        linkedOps.add(key);
        return `${BASE_MARKER}/op/${encodeURIComponent(op.api)}/${encodeURIComponent(found.slug)}`;
      }
      if (href.startsWith("#")) {
        if (href.length > 1) pendingAnchors.push({ file: s.file, line, target: href, page: s, anchor: href.slice(1) });
        return href;
      }
      if (isExternal(href) || href.startsWith("/")) return href;
      const [pathPart, anchor] = href.split("#", 2);
      const path = resolvePath(s.file, pathPart);
      if (path === undefined) return broken(kind === "image" ? "asset" : "guide", "the link leaves the bundle");
      if (path.endsWith(".md")) {
        const target = byFile.get(path) ?? byFile.get(path.replace(/\.md$/, `.${s.locale}.md`));
        if (!target || target.kind === "changelog") return broken("guide", `no guide or code steps page ${path}`);
        const localised = sources.find((t) => t.kind === target.kind && t.base === target.base && t.locale === s.locale);
        if (anchor) pendingAnchors.push({ file: s.file, line, target: href, page: localised ?? target, anchor });
        return BASE_MARKER + pagePath(target.kind, slugOf(target), s.locale, defaultLocale) + (anchor ? `#${anchor}` : "");
      }
      const asset = assetByPath.get(path);
      if (!asset) return broken("asset", `no asset ${path} in the bundle`);
      return `${BASE_MARKER}/_content/${asset.sha256}.${path.slice(path.lastIndexOf(".") + 1).toLowerCase()}`;
    };
    const env: RenderEnv = {
      file: s.file, bodyLine: s.bodyLine, resolve, variables: new Set(Object.keys(config.variables)), audiences: knownAudiences,
      glossary: matcher, termsUsed: new Set(), unknownVariables: checks.unknownVariables, unknownAudiences: checks.unknownAudiences, toc: [],
    };
    const slug = slugOf(s);
    const markedText = markSource(s.body);
    const page: StoredPage = { kind: s.kind, slug, locale: s.locale, title: s.fields.title, description: s.fields.description, html: "", toc: env.toc, text: markedText };
    if (s.kind === "step") {
      const parsed = renderSteps(s.body, env);
      for (const p of parsed.problems) checks.invalidFrontMatter.push({ file: s.file, line: p.line, message: p.message });
      page.html = parsed.intro;
      page.steps = parsed.steps;
      page.sample = parsed.sample;
    } else page.html = renderContentMarkdown(s.body, env);
    idsOf.set(s, new Set([...page.html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1])));
    pages.push({
      page,
      meta: {
        kind: s.kind, slug, locale: s.locale, title: s.fields.title, description: s.fields.description, tags: s.fields.tags,
        labels: s.fields.audiences.map((a) => a.toLowerCase()).filter((a) => a !== "public"), order: s.fields.order, file: s.file,
        operations: [...pageOps], changelog: s.fields.changelog,
      },
    });
  }
  for (const p of pendingAnchors) {
    if (!idsOf.get(p.page)?.has(p.anchor)) checks.brokenLinks.push({ file: p.file, line: p.line, target: p.target, kind: "anchor", message: `${p.page.file} has no heading #${p.anchor}` });
  }
  for (const [api, ops] of operations) {
    const missing = ops.filter((o) => !linkedOps.has(`${api}#${o.slug}`)).map((o) => ({ slug: o.slug, method: o.method, path: o.path, ...(o.operationId ? { operationId: o.operationId } : {}) }));
    if (missing.length) checks.undocumentedOperations[api] = missing;
  }
  const refusal = checks.invalidFrontMatter.length > 0 ? "invalid-front-matter" : checks.brokenLinks.length > 0 ? "broken-links" : undefined;
  return { config, pages, glossary, assets, checks, refusal };
}

/**
 * The Markdown source as llms-full.txt serves it: audience containers become the same markers as in the HTML
 * (so `filterAudiences` applies) and `{{name}}` becomes a variable marker.
 */
export function markSource(body: string): string {
  const stack: boolean[] = [];
  let fence: string | undefined;
  const out = stripMarkerChars(body).replace(/<!--(\/a-->|a:)/g, "<!-- $1").split("\n").map((line) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f && (!fence || line.trim().startsWith(fence))) fence = fence ? undefined : f[1];
    if (fence) return line;
    const open = /^:{3,}\s*([^:\s].*)$/.exec(line);
    if (open) {
      const audience = /^audience\s+(.+)$/.exec(open[1]);
      stack.push(Boolean(audience));
      return audience ? `<!--a:${audience[1].split(",").map((n) => n.trim().toLowerCase()).filter((n) => /^[a-z0-9_-]+$/.test(n)).join(",")}-->` : line;
    }
    if (/^:{3,}\s*$/.test(line)) return stack.pop() ? "<!--/a-->" : line;
    return line;
  });
  return out.join("\n").replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_m, n: string) => `\uE000${n}\uE001`);
}
