import { describe, expect, it } from "vitest";
import { anonymousReader } from "../access/reader";
import { compileBundle } from "./compile";
import { renderForReader } from "./markers";
import { fileMap } from "./testing/bundle";
import type { OperationIndex } from "./types";

const ops: OperationIndex = new Map([
  ["parcels", [
    { slug: "create-parcel", method: "post", path: "/parcels", operationId: "createParcel" },
    { slug: "get-parcel", method: "get", path: "/parcels/{id}", operationId: "getParcel" },
    { slug: "list-parcels", method: "get", path: "/parcels", operationId: "listParcels" },
  ]],
]);

const config = `name: Parcel docs
locales: [en, fr]
variables:
  api_key: { default: YOUR_API_KEY, description: Your key }
  org_name: Acme
audiences: [partners]
navigation:
  - title: Start
    items: [guides/intro, steps/create, api:parcels]
`;

const base = {
  "portico.yaml": config,
  "guides/intro.md": "---\ntitle: Introduction\ntags: [start]\n---\n# Intro\n\nUse [create](op:parcels#createParcel) and\n[get](<op:parcels#GET /parcels/{id}>).\nSee [auth](auth.md#keys).\n\n## Keys\n\nEvery parcel has a label; parcels move.\n\nKey: `{{api_key}}` for {{org_name}}.\n\n::: audience partners\n## Partner rates\nSecret partner text.\n:::\n\n![map](img/map.png)\n",
  "guides/intro.fr.md": "---\ntitle: Introduction FR\n---\nBonjour {{org_name}}. [Auth](auth.md)\n",
  "guides/auth.md": "---\ntitle: Authentication\norder: 2\n---\n## Keys\n\nSend the key.\n",
  "guides/img/map.png": new Uint8Array([137, 80, 78, 71]),
  "steps/create.md": "---\ntitle: Create a parcel\n---\nIntro.\n\n```sample javascript Node.js\nconst a = 1;\nconst b = 2;\nconst key = \"{{api_key}}\";\n```\n\n```sample python\na = 1\n```\n\n## Install {lines=1}\nInstall it.\n\n## Call {lines=2-3 python=1}\nCall it.\n",
  "changelog/2026-01-parcels.md": "---\ntitle: Parcel labels\ntype: New\nversion: v1.2.0\ndate: 2026-01-10\napi: parcels\ntags: [labels]\n---\nLabels are here.\n",
  "glossary.yaml": "Parcel:\n  definition: A **box** you ship.\n  synonyms: [parcels]\n",
};

describe("compileBundle", () => {
  it("compiles guides, locale variants, code steps, changelog and glossary with clean checks", async () => {
    const r = await compileBundle(fileMap(base), ops);
    expect(r.checks.invalidFrontMatter).toEqual([]);
    expect(r.checks.brokenLinks).toEqual([]);
    expect(r.refusal).toBeUndefined();
    const kinds = r.pages.map((p) => `${p.meta.kind}:${p.meta.locale}:${p.meta.slug}`).sort();
    expect(kinds).toEqual(["changelog:en:2026-01-parcels", "guide:en:auth", "guide:en:intro", "guide:fr:intro", "step:en:create"]);
    const intro = r.pages.find((p) => p.meta.slug === "intro" && p.meta.locale === "en")!;
    expect(intro.meta.operations.sort()).toEqual(["parcels#create-parcel", "parcels#get-parcel"]);
    expect(intro.page.html).toContain('href="\uE002/op/parcels/create-parcel"');
    expect(intro.page.html).toContain('href="\uE002/guides/auth#keys"');
    expect(intro.page.html).toMatch(/src="\uE002\/_content\/[0-9a-f]{64}\.png"/);
    expect(intro.page.toc.map((t) => [t.id, t.labels])).toEqual([["keys", []], ["partner-rates", ["partners"]]]);
    expect(intro.page.html.match(/class="term"/g)).toHaveLength(1);
    const fr = r.pages.find((p) => p.meta.locale === "fr")!;
    expect(fr.page.html).toContain('href="\uE002/fr/guides/auth"');
    expect(r.checks.undocumentedOperations).toEqual({ parcels: [{ slug: "list-parcels", method: "get", path: "/parcels", operationId: "listParcels" }] });
    expect(r.assets.map((a) => a.path)).toEqual(["guides/img/map.png"]);
    expect(r.glossary[0]).toMatchObject({ term: "Parcel", synonyms: ["parcels"], text: "A box you ship." });
    const step = r.pages.find((p) => p.meta.kind === "step")!.page;
    expect(step.sample!.map((s) => [s.lang, s.lines.length])).toEqual([["javascript", 3], ["python", 1]]);
    expect(step.steps!.map((s) => s.lines)).toEqual([{ "*": [[1, 1]] }, { "*": [[2, 3]], python: [[1, 1]] }]);
    expect(r.pages.find((p) => p.meta.kind === "changelog")!.meta.changelog).toEqual({ type: "New", version: "v1.2.0", date: "2026-01-10", api: "parcels" });
  });

  it("renders per reader: audience blocks dropped for outsiders, variables filled with defaults, base path set", async () => {
    const r = await compileBundle(fileMap(base), ops);
    const intro = r.pages.find((p) => p.meta.slug === "intro" && p.meta.locale === "en")!.page;
    const defaults = { api_key: "YOUR_API_KEY", org_name: "Acme" };
    const anon = renderForReader(intro.html, anonymousReader("en"), { basePath: "/p/acme", defaults });
    expect(anon).not.toContain("Secret partner text");
    expect(anon).not.toContain("partner-rates");
    expect(anon).toContain("<code>YOUR_API_KEY</code> for Acme");
    expect(anon).toContain('href="/p/acme/op/parcels/create-parcel"');
    expect(anon).not.toMatch(/[\uE000-\uE002]|<!--/);
    const partner = renderForReader(intro.html, { ...anonymousReader("en"), audiences: ["public", "partners"], variables: { api_key: "<k&y>" } }, { basePath: "", defaults });
    expect(partner).toContain("Secret partner text");
    expect(partner).toContain("<code>&lt;k&amp;y&gt;</code>");
  });

  it("reports each broken-link kind with file, line and target", async () => {
    const r = await compileBundle(fileMap({
      ...base,
      "guides/broken.md": "---\ntitle: Broken\n---\nLine four.\n[a](missing.md)\n[b](op:parcels#nope)\n[c](op:ghost#x)\n[d](auth.md#nowhere)\n[e](#here)\n![f](none.png)\n",
    }), ops);
    expect(r.refusal).toBe("broken-links");
    expect(r.checks.brokenLinks.map((b) => [b.file, b.line, b.kind, b.target])).toEqual([
      ["guides/broken.md", 5, "guide", "missing.md"],
      ["guides/broken.md", 6, "operation", "op:parcels#nope"],
      ["guides/broken.md", 7, "operation", "op:ghost#x"],
      ["guides/broken.md", 10, "asset", "none.png"],
      ["guides/broken.md", 8, "anchor", "auth.md#nowhere"],
      ["guides/broken.md", 9, "anchor", "#here"],
    ]);
  });

  it("reports invalid front matter, unknown variables and unknown audiences", async () => {
    const r = await compileBundle(fileMap({
      "portico.yaml": config,
      "guides/a.md": "---\ntitle: [unclosed\n---\nx\n",
      "guides/b.md": "---\ndescription: no title\n---\nx\n",
      "changelog/c.md": "---\ntitle: C\ntype: Shiny\nversion: 1.0\ndate: soon\n---\nx\n",
      "guides/d.md": "---\ntitle: D\naudiences: [vip]\n---\nHello {{nobody}}\n\n::: audience insiders\nx\n:::\n",
    }), ops);
    expect(r.refusal).toBe("invalid-front-matter");
    const fm = r.checks.invalidFrontMatter.map((p) => `${p.file}:${p.line}`);
    expect(fm).toEqual(expect.arrayContaining(["guides/a.md:2", "guides/b.md:1", "changelog/c.md:3", "changelog/c.md:4", "changelog/c.md:5"]));
    expect(r.checks.unknownVariables).toEqual([{ file: "guides/d.md", line: 5, name: "nobody" }]);
    expect(r.checks.unknownAudiences).toEqual([{ file: "guides/d.md", line: 1, name: "vip" }, { file: "guides/d.md", line: 7, name: "insiders" }]);
  });

  it("refuses bundles over the page and asset counts before reading them", async () => {
    const many = (n: number, name: (i: number) => string) => Object.fromEntries(Array.from({ length: n }, (_, i) => [name(i), "---\ntitle: x\n---\n"]));
    expect((await compileBundle(fileMap(many(3001, (i) => `guides/g${i}.md`)), new Map())).refusal).toBe("too-many-pages");
    expect((await compileBundle(fileMap(many(501, (i) => `img/i${i}.png`)), new Map())).refusal).toBe("too-many-assets");
    expect((await compileBundle(fileMap(many(500, (i) => `img/i${i}.png`)), new Map())).refusal).toBeUndefined();
  });

  it("neutralises HTML and script in Markdown", async () => {
    const r = await compileBundle(fileMap({
      "guides/x.md": "---\ntitle: X\n---\n<script>alert(1)</script>\n<img src=x onerror=alert(1)>\n[j](javascript:alert(1))\n<svg><script>alert(1)</script></svg>\n<a href=\"javascript:alert(1)\">a</a>\n<portico-audience data-labels=\"x\">\n<!--a:x-->\n\n<style>\nunclosed\n\n<math><style><img src=x onerror=alert(1)>\n\nAfter.\n",
    }), new Map());
    const html = r.pages[0].page.html;
    expect(html).toContain("<p>After.</p>");
    expect(html).not.toMatch(/<(script|svg|portico-audience)|<img[^>]*onerror|<a [^>]*href="javascript|<!--a:/i);
  });
});
