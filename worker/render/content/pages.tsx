/**
 * @module Content pages: guide, code steps, changelog, tag, glossary. Stored HTML arrives already rendered for
 * the reader (markers.ts) and is inserted as is: it was sanitised at publish time.
 */
import { renderToString } from "preact-render-to-string";
import type { PageMeta, SampleLang, StepItem } from "../../content/types";
import { shellDocument, type ShellHead } from "../shell/document";
import { SeeAlso } from "../shell/see-also";
import { keyboardHtml } from "./keyboard-html";
import { ContentShell, type ShellProps } from "./layout";

type Shell = Omit<ShellProps, "children">;
type ContentHead = Omit<ShellHead, "content">;

/** The document of a content page: the shell's, with content.css and the content script. */
function contentDocument(shell: Shell, head: ContentHead, body: string): string {
  return shellDocument(shell.chrome, { ...head, content: true }, body);
}

function Html({ html, class: cls }: { html: string; class?: string }) {
  return <div class={cls} dangerouslySetInnerHTML={{ __html: keyboardHtml(html) }} />;
}

function Tags({ tags, basePath }: { tags: string[]; basePath: string }) {
  if (tags.length === 0) return null;
  return <p class="ctags">Tags: {tags.map((t) => <a class="ctag" href={`${basePath}/tags/${encodeURIComponent(t)}`}>{t}</a>)}</p>;
}

export interface GuideView {
  shell: Shell;
  head: ContentHead;
  title: string;
  html: string;
  tags: string[];
  /** Set when the page is shown in the default locale because the asked locale has no translation. */
  fallbackFrom?: string;
  related: { title: string; href: string }[];
  /** The operations this page links to (readable ones), listed where operation pages list their guides. */
  operations?: { title: string; href: string }[];
  prev?: { title: string; href: string };
  next?: { title: string; href: string };
  steps?: { items: (Omit<StepItem, "title"> & { title: string })[]; sample: SampleLang[] };
}

function Steps({ items, sample }: NonNullable<GuideView["steps"]>) {
  const firstLines = (lang: string) => items[0]?.lines[lang] ?? items[0]?.lines["*"] ?? [];
  const inRanges = (n: number, ranges: [number, number][]) => ranges.some(([a, b]) => n >= a && n <= b);
  return (
    <div class="steps" data-steps="">
      <ol class="step-list">
        {items.map((s, i) => (
          <li class="step" id={`step-${i + 1}`} data-lines={JSON.stringify(s.lines)} aria-current={i === 0 ? "step" : undefined}>
            <h2><a href={`#step-${i + 1}`}>{s.title}</a></h2>
            <Html html={s.html} />
          </li>
        ))}
      </ol>
      <div class="sample">
        {sample.map((lang) => (
          <figure class="sample-lang" data-lang={lang.lang}>
            <figcaption>{lang.title}</figcaption>
            <pre class="code" tabIndex={0}><code class="hljs">{lang.lines.map((line, i) => (
              <span class={inRanges(i + 1, firstLines(lang.lang)) ? "ln hl" : "ln"} data-n={String(i + 1)} dangerouslySetInnerHTML={{ __html: line + "\n" }} />
            ))}</code></pre>
          </figure>
        ))}
      </div>
    </div>
  );
}

/** A guide or code steps page. */
export function renderGuidePage(v: GuideView): string {
  const body = renderToString(
    <ContentShell {...v.shell}>
      {v.fallbackFrom && <p class="callout callout-note" role="note">This page is not yet translated into {v.fallbackFrom}; it is shown in the default language.</p>}
      <article class="prose">
        <h1>{v.title}</h1>
        <Html html={v.html} />
        {v.steps && <Steps {...v.steps} />}
      </article>
      <Tags tags={v.tags} basePath={v.shell.chrome.basePath} />
      {v.related.length > 0 && (
        <section class="related" aria-labelledby="related-h"><h2 id="related-h">Related</h2><ul>{v.related.map((r) => <li><a href={r.href}>{r.title}</a></li>)}</ul></section>
      )}
      <SeeAlso id="see-operations" title="In the API reference" links={v.operations ?? []} />
      {(v.prev || v.next) && (
        <nav class="pager" aria-label="Previous and next">
          {v.prev ? <a class="prev" rel="prev" href={v.prev.href}><small>Previous</small>{v.prev.title}</a> : <span />}
          {v.next && <a class="next" rel="next" href={v.next.href}><small>Next</small>{v.next.title}</a>}
        </nav>
      )}
    </ContentShell>,
  );
  return contentDocument(v.shell, v.head, body);
}

export interface ChangelogView {
  shell: Shell;
  head: ContentHead;
  entries: { meta: PageMeta; html: string }[];
  filter: { type?: string; api?: string; tag?: string };
  options: { types: string[]; apis: string[]; tags: string[] };
  rssHref: string;
}

function Select({ name, label, values, current }: { name: string; label: string; values: string[]; current?: string }) {
  return (
    <label>{label} <select name={name}><option value="">All</option>{values.map((v) => <option value={v} selected={v === current}>{v}</option>)}</select></label>
  );
}

/** The changelog, filterable by type, API and tag (a GET form: works without script). */
export function renderChangelogPage(v: ChangelogView): string {
  const body = renderToString(
    <ContentShell {...v.shell}>
      <h1>Changelog</h1>
      <p><a href={v.rssHref}>RSS feed</a></p>
      <form class="cfilter" method="get">
        <Select name="type" label="Type" values={v.options.types} current={v.filter.type} />
        {v.options.apis.length > 0 && <Select name="api" label="API" values={v.options.apis} current={v.filter.api} />}
        {v.options.tags.length > 0 && <Select name="tag" label="Tag" values={v.options.tags} current={v.filter.tag} />}
        <button type="submit">Filter</button>
      </form>
      {v.entries.length === 0 && <p>No entries match.</p>}
      {v.entries.map(({ meta, html }) => (
        <article class="centry" id={meta.slug}>
          <h2>{meta.title}</h2>
          <p class="cmeta"><span class={`ctype ctype-${meta.changelog!.type.toLowerCase()}`}>{meta.changelog!.type}</span> {meta.changelog!.version} · <time dateTime={meta.changelog!.date}>{meta.changelog!.date}</time>{meta.changelog!.api && <> · {meta.changelog!.api}</>}</p>
          <Html html={html} class="prose" />
          <Tags tags={meta.tags} basePath={v.shell.chrome.basePath} />
        </article>
      ))}
    </ContentShell>,
  );
  return contentDocument(v.shell, v.head, body);
}

/** A list page (tag pages, the glossary): a title and items. */
export function renderListPage(v: { shell: Shell; head: ContentHead; title: string; items: { title: string; href?: string; html?: string; id?: string }[]; empty: string }): string {
  const body = renderToString(
    <ContentShell {...v.shell}>
      <h1>{v.title}</h1>
      {v.items.length === 0 ? <p>{v.empty}</p> : (
        <dl class="clist">{v.items.map((i) => <><dt id={i.id}>{i.href ? <a href={i.href}>{i.title}</a> : i.title}</dt>{i.html && <dd dangerouslySetInnerHTML={{ __html: i.html }} />}</>)}</dl>
      )}
    </ContentShell>,
  );
  return contentDocument(v.shell, v.head, body);
}
