import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "../harness/client";
import { bundle, PETSTORE_OPS, uploadContent } from "./bundles";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

beforeAll(async () => {
  const token = await createPortal("handbook", "Docs portal");
  expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
  const res = await uploadContent(token, bundle("one", { "guides/img/dog.png": PNG, "guides/pics.md": "---\ntitle: Pictures\ntags: [security]\n---\n![dog](img/dog.png)\n",
    "changelog/2026-01-01-new.de.md": "---\ntitle: Haustiere da\ntype: New\nversion: v1.0.0\ndate: 2026-01-01\napi: pets\ntags: [pets]\n---\nHaustiere sind da.\n" }));
  expect(res.status).toBe(201);
});

describe("content reader pages", () => {
  it("renders a guide in the portal layout with variables, operation links, TOC and navigation", async () => {
    const { status, html } = await getPage("/p/handbook/guides/intro");
    expect(status).toBe(200);
    expect(html).toContain("<h1>Introduction</h1>");
    expect(html).toContain("<code>KEY_DEFAULT</code> at Acme");
    expect(html).toContain('href="/p/handbook/op/pets/listpets"');
    expect(html).toContain('class="cnav"');
    // The first `branding` form: its accent is the light theme's brand colour, written into the head as the tokens.
    expect(/<style>([^<]*)<\/style>/.exec(html)?.[1]).toBe(":root { --accent: #aa3300; --focus: #aa3300; }\n");
    expect(html).toMatch(/<a class="brand" href="\/p\/handbook\/"><img class="logo" src="\/p\/handbook\/_content\/[0-9a-f]{64}\.png" alt(="")?\/?><span class="brand-name">Pets docs<\/span><\/a>/);
    expect(html).toContain('href="#setup"');
    expect(html).toContain('<link rel="alternate" hreflang="de" href="http://portico.test/p/handbook/de/guides/intro">');
    expect(html).toContain('<link rel="alternate" hreflang="x-default" href="http://portico.test/p/handbook/guides/intro">');
    expect(html).toMatch(/rel="next" href="\/p\/handbook\/guides\/auth"/);
    expect(html).toContain('href="/p/handbook/tags/start"');
    expect(html).toContain('class="callout callout-tip"');
    expect(html).not.toMatch(/<script>(?!\(function\(\)\{var d=document)/);
    expect(html).not.toMatch(/[\uE000-\uE002]/);
  });

  it("redirects an operation link to the live operation page", async () => {
    const res = await SELF.fetch(`${ORIGIN}/p/handbook/op/pets/listpets`, { redirect: "manual" });
    expect(res.status).toBe(302);
    const target = res.headers.get("location")!;
    expect(target).toBe("/p/handbook/reference/pets/1.0.0/listpets");
    expect((await getPage(target)).status).toBe(200);
  });

  it("lists on an operation page the guides and code steps that link to it", async () => {
    const listed = await getPage("/p/handbook/reference/pets/1.0.0/listpets");
    expect(listed.html).toMatch(/<h2 id="op-guides">Guides<\/h2><ul><li><a href="\/p\/handbook\/steps\/first">First call<\/a><\/li><li><a href="\/p\/handbook\/guides\/intro">Introduction<\/a><\/li><\/ul>/);
    expect((await getPage("/p/handbook/reference/pets/1.0.0/showpetbyid")).html).not.toContain('id="op-guides"');
  });

  it("keeps audience blocks and audience-only pages from anonymous readers everywhere", async () => {
    const surfaces = ["/p/handbook/guides/intro", "/p/handbook/llms.txt", "/p/handbook/llms-full.txt", "/p/handbook/sitemap.xml", "/p/handbook/changelog.rss", "/p/handbook/changelog"];
    for (const path of surfaces) {
      const { status, html } = await getPage(path);
      expect(status, path).toBe(200);
      expect(html, path).not.toContain("SECRET-PARTNER");
      expect(html, path).not.toContain("Partner pricing");
      expect(html, path).not.toContain("SECRET-FEED-ENTRY");
      expect(html, path).not.toContain("Partner change");
    }
    const llms = (await getPage("/p/handbook/llms-full.txt")).html;
    expect(llms).toContain("Your key is `KEY_DEFAULT` at Acme.");
    const sitemap = (await getPage("/p/handbook/sitemap.xml")).html;
    expect(sitemap).toContain("<loc>http://portico.test/p/handbook/guides/intro</loc>");
    expect(sitemap).toContain("<loc>http://portico.test/p/handbook/de/guides/intro</loc>");
    expect(sitemap).toContain("<loc>http://portico.test/p/handbook/steps/first</loc>");
  });

  it("serves locale variants and falls back to the default locale with a notice", async () => {
    const de = await getPage("/p/handbook/de/guides/intro");
    expect(de.html).toContain("<h1>Einführung</h1>");
    expect(de.html).toContain('<html lang="de">');
    expect(de.html).toContain('href="/p/handbook/de/guides/auth"');
    const fallback = await getPage("/p/handbook/de/guides/auth");
    expect(fallback.status).toBe(200);
    expect(fallback.html).toContain("<h1>Authentication</h1>");
    expect(fallback.html).toContain("not yet translated into de");
    expect((await getPage("/p/handbook/xx/guides/intro")).status).toBe(404);
    expect((await getPage("/p/handbook/guides/nope")).status).toBe(404);
  });

  it("serves the changelog and its feed per locale, translated entries where a variant exists", async () => {
    const en = await getPage("/p/handbook/changelog");
    expect(en.html).toContain("Pets one");
    expect(en.html).not.toContain("Haustiere");
    const de = await getPage("/p/handbook/de/changelog?api=pets");
    expect(de.status).toBe(200);
    expect(de.html).toContain('<html lang="de">');
    expect(de.html).toContain("Haustiere sind da.");
    expect(de.html).not.toContain("Pets one");
    expect(de.html).toContain('hreflang="en" href="http://portico.test/p/handbook/changelog"');
    const rss = await (await SELF.fetch(`${ORIGIN}/p/handbook/de/changelog.rss`)).text();
    expect(rss.match(/<item>/g)).toHaveLength(1);
    expect(rss).toContain("Haustiere da");
    expect(rss).toContain("http://portico.test/p/handbook/de/changelog#");
    expect((await getPage("/p/handbook/sitemap.xml")).html).toContain("<loc>http://portico.test/p/handbook/de/changelog</loc>");
  });

  it("shows the first guide on the portal home", async () => {
    const { status, html } = await getPage("/p/handbook/");
    expect(status).toBe(200);
    expect(html).toContain("<h1>Introduction</h1>");
    expect(html).toContain('<link rel="canonical" href="http://portico.test/p/handbook/guides/intro">');
  });

  it("renders code steps with the first step's lines highlighted", async () => {
    const { html } = await getPage("/p/handbook/steps/first");
    expect(html).toContain('<script type="module" src="/assets/content.js"></script>');
    expect(html).toMatch(/<li class="step" id="step-1" data-lines="\{&quot;\*&quot;:\[\[1,1\]\]\}"/);
    // `lines=1` applies to both languages of the sample.
    expect(html.match(/class="ln hl"/g)).toHaveLength(2);
    expect(html).toContain("KEY_DEFAULT");
  });

  it("filters the changelog and lists tags and the glossary", async () => {
    const log = await getPage("/p/handbook/changelog?type=Fixed");
    expect(log.html).toContain("No entries match.");
    const all = await getPage("/p/handbook/changelog?type=New&api=pets");
    expect(all.html).toContain("Pets one");
    const rss = await SELF.fetch(`${ORIGIN}/p/handbook/changelog.rss`);
    expect(rss.headers.get("content-type")).toContain("application/rss+xml");
    expect((await rss.text()).match(/<item>/g)).toHaveLength(1);
    const tag = await getPage("/p/handbook/tags/security");
    expect(tag.html).toContain("Authentication");
    expect(tag.html).toContain("Pictures");
    expect((await getPage("/p/handbook/glossary")).html).toContain("An animal in the store.");
  });

  it("serves assets content-addressed with immutable caching", async () => {
    const { html } = await getPage("/p/handbook/guides/pics");
    const src = /<img src="([^"]+)"/.exec(html)![1];
    expect(src).toMatch(/^\/p\/handbook\/_content\/[0-9a-f]{64}\.png$/);
    const res = await SELF.fetch(ORIGIN + src);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
    expect((await SELF.fetch(`${ORIGIN}/p/handbook/_content/${"0".repeat(64)}.png`)).status).toBe(404);
  });
});
