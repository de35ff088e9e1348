/**
 * @module Text outputs of a release for one reader: the changelog's RSS 2.0 feed (through the `feed` package),
 * `llms.txt` and `llms-full.txt` (llmstxt.org: an H1, a blockquote summary, H2 sections of Markdown link lists)
 * and sitemap entries. Callers pass pages the reader may read (Site) and already-filtered HTML/text.
 */
import { Feed } from "feed";
import type { PageMeta } from "./types";

export interface FeedEntry {
  meta: PageMeta;
  /** The reader's HTML of the entry (audience blocks filtered, variables filled). */
  html: string;
}

/** RSS 2.0 of changelog entries (newest first). `siteUrl` is the portal's absolute base URL, no trailing slash. */
export function changelogRss(opts: { title: string; siteUrl: string; entries: FeedEntry[] }): string {
  const feed = new Feed({
    title: `${opts.title} changelog`,
    id: `${opts.siteUrl}/changelog`,
    link: `${opts.siteUrl}/changelog`,
    description: `Changes to ${opts.title}`,
    updated: opts.entries[0] ? new Date(opts.entries[0].meta.changelog!.date) : undefined,
    generator: "Portico",
    feedLinks: { rss: `${opts.siteUrl}/changelog.rss` },
    copyright: "",
  });
  for (const { meta, html } of opts.entries) {
    const c = meta.changelog!;
    feed.addItem({
      title: `${c.version} · ${c.type}: ${meta.title}`,
      id: `${opts.siteUrl}/changelog#${meta.slug}`,
      link: `${opts.siteUrl}/changelog#${meta.slug}`,
      date: new Date(c.date),
      description: html,
      category: [{ name: c.type }, ...(c.api ? [{ name: c.api }] : []), ...meta.tags.map((t) => ({ name: t }))],
    });
  }
  return feed.rss2();
}

/** A page of llms.txt's lists. */
export interface LlmsLink {
  title: string;
  url: string;
  description?: string;
}

/** llms.txt: the portal's readable guides, steps and API references as Markdown link lists. */
export function llmsTxt(opts: { title: string; summary: string; sections: { title: string; links: LlmsLink[] }[] }): string {
  const parts = [`# ${opts.title}`, "", `> ${opts.summary}`, ""];
  for (const s of opts.sections) {
    if (s.links.length === 0) continue;
    parts.push(`## ${s.title}`, "", ...s.links.map((l) => `- [${l.title.replace(/[[\]]/g, "")}](${l.url})${l.description ? `: ${l.description}` : ""}`), "");
  }
  return parts.join("\n");
}

/** llms-full.txt: every readable page inlined (its Markdown, already filtered for the reader). */
export function llmsFullTxt(opts: { title: string; summary: string; pages: { title: string; url: string; text: string }[] }): string {
  const parts = [`# ${opts.title}`, "", `> ${opts.summary}`, ""];
  for (const p of opts.pages) parts.push(`## ${p.title}`, "", `Source: ${p.url}`, "", p.text.trim(), "");
  return parts.join("\n");
}
