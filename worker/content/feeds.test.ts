import Parser from "rss-parser";
import { describe, expect, it } from "vitest";
import { changelogRss, llmsTxt } from "./feeds";
import type { PageMeta } from "./types";

const entry = (slug: string, date: string, type: "New" | "Fixed"): PageMeta => ({
  kind: "changelog", slug, locale: "en", title: `Entry <${slug}>`, tags: ["t"], labels: [], order: 0, file: `changelog/${slug}.md`, operations: [],
  changelog: { type, version: "v1.0.0", date, api: "pets" },
});

describe("feeds", () => {
  it("writes RSS 2.0 a feed parser reads back", async () => {
    const xml = changelogRss({
      title: "Acme & Co", siteUrl: "https://docs.example/p/acme",
      entries: [{ meta: entry("b", "2026-02-01", "Fixed"), html: "<p>Fixed &amp; <b>done</b></p>" }, { meta: entry("a", "2026-01-01", "New"), html: "<p>New</p>" }],
    });
    const feed = await new Parser().parseString(xml);
    expect(feed.title).toBe("Acme & Co changelog");
    expect(feed.items.map((i) => [i.title, i.link])).toEqual([
      ["v1.0.0 · Fixed: Entry <b>", "https://docs.example/p/acme/changelog#b"],
      ["v1.0.0 · New: Entry <a>", "https://docs.example/p/acme/changelog#a"],
    ]);
    expect(feed.items[0].content).toContain("<b>done</b>");
    expect(new Date(feed.items[0].pubDate!).toISOString().slice(0, 10)).toBe("2026-02-01");
  });
  it("writes llms.txt sections", () => {
    expect(llmsTxt({ title: "Acme", summary: "Docs", sections: [{ title: "Guides", links: [{ title: "Intro [1]", url: "https://x/intro", description: "Start" }] }, { title: "Empty", links: [] }] }))
      .toBe("# Acme\n\n> Docs\n\n## Guides\n\n- [Intro 1](https://x/intro): Start\n");
  });
});
