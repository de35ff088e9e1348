/**
 * @module The changes between two versions of an API (issue 11), server-rendered: a from/to form (a plain GET
 * form, no script), the verdict, then the changes grouped by operation, each group linking to the operation's page
 * (the `to` version's, or the `from` version's for a removed operation). All text is escaped by Preact.
 */
import { renderToString } from "preact-render-to-string";
import type { Change, DiffResult } from "../../openapi/diff";
import { H } from "../components/heading";
import { ReferenceSidebar } from "../components/reference-sidebar";
import { shellDocument } from "../shell/document";
import { ReaderShell } from "../shell/reader-shell";
import type { PageProps } from "../types";
import { apiUrl } from "../urls";
import { apiTab, chromeOf } from "./reference-shell";

/** Props of {@link renderChangesPage}: `operationHref` links an operation (method upper-case, path) or returns undefined. */
export type ChangesPageProps = PageProps & {
  from: string;
  to: string;
  labels: string[];
  result: DiffResult;
  operationHref(method: string, path: string): string | undefined;
};

const LEVEL_TEXT = { ERR: "Breaking", WARN: "Warning", INFO: "Info" } as const;

/** A full HTML document listing the changes from `from` to `to`. */
export function renderChangesPage(p: ChangesPageProps): string {
  const groups = new Map<string, Change[]>();
  for (const c of p.result.changes) {
    const key = c.operation ? `${c.operation.method} ${c.operation.path}` : "";
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const { ERR, WARN, INFO } = p.result.counts;
  const select = (name: string, current: string) => (
    <label>{name === "from" ? "From " : " to "}
      <select name={name}>{p.labels.map((l) => <option value={l} selected={l === current}>{l}</option>)}</select>
    </label>
  );
  const chrome = chromeOf(p);
  const crumbs = [{ title: "Home", href: `${p.basePath}/` }, { title: p.api.title, href: apiUrl(p.basePath, p.api.slug) }, { title: `Changes ${p.from} → ${p.to}` }];
  const body = renderToString(
    <ReaderShell chrome={chrome} tab={apiTab(p)} crumbs={crumbs} mainClass="changes" sidebar={<ReferenceSidebar page={p} />}>
      <H level={1} id="changes">Changes from {p.from} to {p.to}</H>
      <form method="get" class="changes-form">{select("from", p.from)}{select("to", p.to)} <button type="submit">Compare</button></form>
      <p class={p.result.breaking ? "verdict breaking" : "verdict"}>
        {p.result.breaking ? "Breaking: " : "No breaking change: "}
        {ERR} breaking, {WARN} warnings, {INFO} other changes.
      </p>
      {p.result.truncated && <p class="note">{p.result.truncated}</p>}
      {p.result.changes.length === 0 && <p>The two versions describe the same API.</p>}
      {[...groups].map(([key, changes]) => {
        const op = changes[0].operation;
        const href = op ? p.operationHref(op.method, op.path) : undefined;
        return (
          <section class="blk" aria-label={key || "Whole API"}>
            <h2>{op ? (href ? <a href={href}><code>{key}</code></a> : <code>{key}</code>) : "Whole API"}</h2>
            <ul class="changelist">
              {changes.map((c) => (
                <li>
                  <span class={`lvl lvl-${c.level.toLowerCase()}`}>{LEVEL_TEXT[c.level]}</span> {c.message} <code class="rule">{c.id}</code>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </ReaderShell>,
  );
  const title = `Changes ${p.from} → ${p.to} · ${p.api.title} · ${chrome.name}`;
  return shellDocument(chrome, { title, description: `${p.result.changes.length} changes from ${p.from} to ${p.to}`, canonicalUrl: p.canonicalUrl }, body);
}
