/**
 * @module Every reader page type renders inside the one reader shell (issue 33): banner, the portal's tabs,
 * breadcrumbs (past the home), main, footer, skip link, one h1, landmarks named once; the same banner links on
 * every page; the guides and the reference link to each other. Read with HTMLRewriter (structure, not text).
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import { bundle, PETSTORE_OPS, uploadContent } from "./content/bundles";

const V2 = PETSTORE_OPS.replace("version: 1.0.0", "version: 2.0.0").replace("operationId: createPets\n", "operationId: createPets\n      summary: Add a pet\n");
let token = "";

beforeAll(async () => {
  token = await createPortal("shell", "Shell portal");
  expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
  expect((await upload(token, V2, { api: "pets" })).status).toBe(201);
  expect((await upload(token, PETSTORE_OPS.replace("title: Pets", "title: Birds"), { api: "birds" })).status).toBe(201);
  const patched = await SELF.fetch(`${ORIGIN}/v1/apis/birds`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }) });
  expect(patched.status).toBe(200);
  expect((await uploadContent(token, bundle("one"))).status).toBe(201);
  const access = await SELF.fetch(`${ORIGIN}/v1/portal`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ access: { methods: ["password"], password: "correct horse battery" } }) });
  expect(access.status).toBe(200);
  await createPortal("shell-bare", "Bare portal");
});

interface Shape {
  banners: number; mains: number; footers: number; h1: number; skip: number; mainId: string[];
  tabs: string[]; brand: string[]; crumbs: number; landmarkNames: string[]; sidebar: number; menuControls: string[];
}

/** The shell's landmarks and links of a page, read with the runtime's HTML parser. */
async function shape(html: string): Promise<Shape> {
  const s: Shape = { banners: 0, mains: 0, footers: 0, h1: 0, skip: 0, mainId: [], tabs: [], brand: [], crumbs: 0, landmarkNames: [], sidebar: 0, menuControls: [] };
  await new HTMLRewriter()
    .on("body > header", { element: () => void s.banners++ })
    .on("main", { element: (e) => void (s.mains++, s.mainId.push(e.getAttribute("id") ?? "")) })
    .on("body > footer", { element: () => void s.footers++ })
    .on("h1", { element: () => void s.h1++ })
    .on('body > a.skip[href="#main"]', { element: () => void s.skip++ })
    .on("header nav[aria-label=Sections] a", { element: (e) => void s.tabs.push(e.getAttribute("href") ?? "") })
    .on("header a.brand", { element: (e) => void s.brand.push(e.getAttribute("href") ?? "") })
    .on('nav[aria-label="Breadcrumb"]', { element: () => void s.crumbs++ })
    .on("nav[aria-label], aside[aria-label], form[role=search]", { element: (e) => void s.landmarkNames.push(`${e.tagName}:${e.getAttribute("aria-label") ?? ""}`) })
    .on("#side", { element: () => void s.sidebar++ })
    .on("header button.menu-btn", { element: (e) => void s.menuControls.push(e.getAttribute("aria-controls") ?? "") })
    .transform(new Response(html)).text();
  return s;
}

const TABS = ["/p/shell/guides/intro", "/p/shell/reference/birds/", "/p/shell/reference/pets/", "/p/shell/changelog"];

/** Page type → path, and whether it has a section sidebar. */
const PAGES: [string, string, boolean][] = [
  ["home (first guide)", "/p/shell/", true],
  ["guide", "/p/shell/guides/intro", true],
  ["guide, other locale", "/p/shell/de/guides/intro", true],
  ["code steps", "/p/shell/steps/first", true],
  ["reference index", "/p/shell/reference/pets/2.0.0/", true],
  ["operation page", "/p/shell/reference/pets/2.0.0/listpets", true],
  ["older version's operation", "/p/shell/reference/pets/1.0.0/createpets", true],
  ["single page", "/p/shell/reference/birds/1.0.0/", true],
  ["changes", "/p/shell/reference/pets/changes", true],
  ["changelog", "/p/shell/changelog", true],
  ["glossary", "/p/shell/glossary", true],
  ["tag", "/p/shell/tags/start", true],
  ["search", "/p/shell/search?q=pets", false],
  ["sign-in", "/p/shell/auth/signin", false],
  ["404 (guide)", "/p/shell/guides/nope", false],
  ["404 (operation)", "/p/shell/reference/pets/2.0.0/nope", false],
];

describe("the reader shell", () => {
  for (const [name, path, sidebar] of PAGES) {
    it(`wraps the ${name} page`, async () => {
      const { status, html } = await getPage(path);
      expect([200, 404]).toContain(status);
      expect(status === 404).toBe(name.startsWith("404"));
      const s = await shape(html);
      expect(s).toMatchObject({ banners: 1, mains: 1, footers: 1, h1: 1, skip: 1, mainId: ["main"], brand: ["/p/shell/"] });
      // The Guides tab opens the first guide in the page's language.
      expect(s.tabs).toEqual(path.includes("/de/") ? [TABS[0].replace("/guides/", "/de/guides/"), ...TABS.slice(1)] : TABS);
      expect(s.crumbs).toBe(1);
      expect(new Set(s.landmarkNames).size).toBe(s.landmarkNames.length);
      expect(s.sidebar).toBe(sidebar ? 1 : 0);
      // On phones the one Menu button opens the banner's folded tabs and controls, and the sidebar where there is one.
      expect(s.menuControls).toEqual([sidebar ? "top-more side" : "top-more"]);
    });
  }

  it("marks the section the reader is in", async () => {
    const current = async (path: string) => /<a href="([^"]+)" aria-current="true">/.exec((await getPage(path)).html.split("</header>")[0])?.[1];
    expect(await current("/p/shell/guides/auth")).toBe("/p/shell/guides/intro");
    expect(await current("/p/shell/reference/pets/2.0.0/listpets")).toBe("/p/shell/reference/pets/");
    expect(await current("/p/shell/changelog")).toBe("/p/shell/changelog");
    expect(await current("/p/shell/search?q=pets")).toBeUndefined();
  });

  it("gives a portal without guides the same shell, with only its reference tab", async () => {
    const s = await shape((await getPage("/p/shell-bare/")).html);
    expect(s).toMatchObject({ banners: 1, mains: 1, footers: 1, h1: 1, skip: 1, tabs: [], brand: ["/p/shell-bare/"] });
  });

  it("links an operation to its guides and a guide to its operations, in the same place", async () => {
    const op = (await getPage("/p/shell/reference/pets/2.0.0/listpets")).html;
    const guide = (await getPage("/p/shell/guides/intro")).html;
    const seeAlso = (html: string) => [...html.matchAll(/<section class="see-also" aria-labelledby="[^"]+"><h2[^>]*>([^<]+)<\/h2><ul>(.*?)<\/ul><\/section>/g)].map((m) => [m[1], [...m[2].matchAll(/href="([^"]+)"/g)].map((h) => h[1])]);
    expect(seeAlso(op)).toEqual([["Guides", ["/p/shell/steps/first", "/p/shell/guides/intro"]]]);
    expect(seeAlso(guide)).toEqual([["In the API reference", ["/p/shell/reference/pets/2.0.0/listpets", "/p/shell/reference/pets/2.0.0/createpets"]]]);
    // Both are the last thing in <main> but the guide's pager.
    expect(op.indexOf('class="see-also"')).toBeLessThan(op.indexOf("</main>"));
  });

  it("ends each operation of the single page with its guides, as an operation page ends with them", async () => {
    const layout = (value: string) => SELF.fetch(`${ORIGIN}/v1/apis/pets`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ layout: value }) });
    expect((await layout("single-page")).status).toBe(200);
    try {
      const html = (await getPage("/p/shell/reference/pets/2.0.0/")).html;
      const article = (slug: string) => new RegExp(`<article class="op" id="${slug}"[^>]*>(.*?)</article>`, "s").exec(html)?.[1] ?? "";
      const seeAlso = (part: string) => [...part.matchAll(/<section class="see-also" aria-labelledby="[^"]+"><h4[^>]*>([^<]+)<\/h4><ul>(.*?)<\/ul><\/section>$/g)].map((m) => [m[1], [...m[2].matchAll(/href="([^"]+)"/g)].map((h) => h[1])]);
      expect(seeAlso(article("listpets"))).toEqual([["Guides", ["/p/shell/steps/first", "/p/shell/guides/intro"]]]);
      expect(seeAlso(article("showpetbyid"))).toEqual([]);
    } finally {
      expect((await layout("page-per-operation")).status).toBe(200);
    }
  });

  it("shows the portal's name and logo from portico.yaml on reference pages too", async () => {
    const html = (await getPage("/p/shell/reference/pets/2.0.0/listpets")).html;
    expect(html).toMatch(/<a class="brand" href="\/p\/shell\/"><img class="logo" src="\/p\/shell\/_content\/[0-9a-f]{64}\.png" alt(="")?\/?><span class="brand-name">Pets docs<\/span><\/a>/);
    // The accent of portico.yaml's `branding:` as the page's design tokens, in the head (docs/branding.md).
    expect(html).toMatch(/<style>:root \{ --accent: #aa3300; --focus: #aa3300; \}\n<\/style>/);
  });
});
