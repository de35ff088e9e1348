import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { gzipSync } from "fflate";
import { createTar } from "nanotar";
import { tarGz } from "../../worker/content/testing/bundle";
import { createPortal, getPage, ORIGIN, upload } from "../harness/client";
import { bundle, liveContent, PETSTORE_OPS, uploadContent } from "./bundles";
import { catalogFor } from "../../worker/store/portal-catalog";

async function portalWithApi(slug: string): Promise<string> {
  const token = await createPortal(slug);
  expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
  return token;
}

describe("POST /v1/content/upload", () => {
  it("publishes a bundle (201 with counts and checks), lists it, and answers 200 unchanged for the live bundle", async () => {
    const token = await portalWithApi("content-a");
    const first = await uploadContent(token, bundle());
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ pages: 3, steps: 1, changelog: 2, glossary: 1, locales: ["en", "de"] });
    expect(first.json.checks).toMatchObject({ brokenLinks: [], invalidFrontMatter: [], unknownVariables: [], unknownAudiences: [] });
    expect(first.json.checks.undocumentedOperations).toEqual({ pets: [expect.objectContaining({ operationId: "showPetById" })] });
    const live = JSON.parse(await liveContent(token));
    expect(live.release.id).toBe(first.json.release);
    expect(live.pages.map((p: any) => `${p.kind}/${p.locale}/${p.slug}`).sort()).toEqual(
      ["changelog/en/2026-01-01-new", "changelog/en/2026-02-01-partner", "guide/de/intro", "guide/en/auth", "guide/en/intro", "step/en/first"]);
    const again = await uploadContent(token, bundle());
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ unchanged: true, release: first.json.release });
  });

  it("checks without publishing on ?dryRun=true", async () => {
    const token = await portalWithApi("content-dry");
    await uploadContent(token, bundle("one"));
    const before = await liveContent(token);
    const dry = await uploadContent(token, bundle("two"), { dryRun: "true" });
    expect(dry.status).toBe(200);
    expect(dry.json).toMatchObject({ dryRun: true, release: null, pages: 3 });
    expect(await liveContent(token)).toBe(before);
    expect((await getPage("/p/content-dry/guides/intro")).html).toContain("Marker one.");

    // The dry run's preview link shows the new pages, as any audience, and is never indexed.
    const preview = new URL(dry.json.preview.url);
    expect(preview.pathname).toMatch(/^\/p\/content-dry\/preview\/pv_[\w-]{43}\/$/);
    const res = await SELF.fetch(`${ORIGIN}${preview.pathname}guides/intro`);
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get("x-robots-tag")).toContain("noindex");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(html).toContain("Marker two.");
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain(`href="${preview.pathname}guides/auth#keys"`);
    expect(html).not.toContain("SECRET-PARTNER-two");
    expect(await (await SELF.fetch(`${ORIGIN}${preview.pathname}guides/intro?audience=partners`)).text()).toContain("SECRET-PARTNER-two");
    expect((await getPage(`${preview.pathname}changelog`)).html).toContain("Pets two");
    expect((await getPage(`${preview.pathname}glossary`)).html).toContain("An animal in the store.");
    expect((await getPage(`${preview.pathname}tags/start`)).html).toContain(`href="${preview.pathname}guides/auth"`);
    expect((await getPage("/p/content-dry/preview/pv_unknown/guides/intro")).status).toBe(404);
    expect((await getPage("/p/content-dry/sitemap.xml")).html).not.toContain("preview");
    expect((await getPage("/p/content-dry/llms-full.txt")).html).not.toContain("Marker two");
  });

  it("deletes expired previews (rows, pages, assets) on the portal's next upload; live ones stay", async () => {
    const token = await portalWithApi("content-expire");
    await uploadContent(token, bundle("one"));
    const old = await uploadContent(token, bundle("two"), { dryRun: "true" });
    const fresh = await uploadContent(token, bundle("three"), { dryRun: "true" });
    const oldPath = new URL(old.json.preview.url).pathname;
    const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    const previewRows = () => count("SELECT count(*) AS n FROM content_previews v JOIN portals p ON p.id = v.portal_id WHERE p.slug = 'content-expire'");
    // Digests are per bundle, not per portal (another test previews the same bundle): scope every query to the portal.
    const oldRelease = `SELECT r.id FROM content_releases r JOIN portals p ON p.id = r.portal_id WHERE p.slug = 'content-expire' AND r.digest = '${old.json.digest}'`;
    // Page rows live in the portal's catalog (store/portal-catalog.ts), by release id.
    const oldId = (await env.DB.prepare(oldRelease).first<{ id: number }>())!.id;
    const portalId = (await env.DB.prepare("SELECT id FROM portals WHERE slug = 'content-expire'").first<{ id: number }>())!.id;
    const pageRows = async () => (await catalogFor(env, portalId).stub.releasePages(portalId, oldId)).length;
    expect(await previewRows()).toBe(2);
    expect(await pageRows()).toBeGreaterThan(0);
    // Age the first preview past its expiry, as a day passing would.
    await env.DB.prepare(`UPDATE content_previews SET expires_at = '2000-01-01T00:00:00.000Z' WHERE release_id IN (${oldRelease})`).run();
    expect((await getPage(`${oldPath}guides/intro`)).status).toBe(404);
    expect((await uploadContent(token, bundle("four"))).status).toBe(201);
    expect(await previewRows()).toBe(1);
    expect(await count(`SELECT count(*) AS n FROM (${oldRelease})`)).toBe(0);
    expect(await pageRows()).toBe(0);
    expect((await getPage(`${new URL(fresh.json.preview.url).pathname}guides/intro`)).html).toContain("Marker three.");
    expect((await getPage("/p/content-expire/guides/intro")).html).toContain("Marker four.");
  });

  it("refuses broken links with 422 and the list, unless ?allowBrokenLinks=true", async () => {
    const token = await portalWithApi("content-broken");
    await uploadContent(token, bundle("one"));
    const before = await liveContent(token);
    const broken = bundle("two", { "guides/bad.md": "---\ntitle: Bad\n---\nSee [gone](op:pets#deletePet).\n" });
    const refused = await uploadContent(token, broken);
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("broken-links");
    expect(refused.json.error.details.checks.brokenLinks).toEqual([
      { file: "guides/bad.md", line: 4, target: "op:pets#deletePet", kind: "operation", message: 'API "pets" has no live operation "deletePet"' },
    ]);
    expect(await liveContent(token)).toBe(before);
    const allowed = await uploadContent(token, broken, { allowBrokenLinks: "true" });
    expect(allowed.status).toBe(201);
    expect(allowed.json.checks.brokenLinks).toHaveLength(1);
  });

  it("refuses hostile bundles with a 4xx and leaves the live release byte-identical", async () => {
    const token = await portalWithApi("content-hostile");
    await uploadContent(token, bundle("one"));
    const before = await liveContent(token);
    const many: Record<string, string> = {};
    for (let i = 0; i <= 10_000; i++) many[`guides/g${i}.md`] = "---\ntitle: g\n---\nx\n";
    const pages: Record<string, string> = {};
    for (let i = 0; i <= 3000; i++) pages[`guides/p${i}.md`] = "---\ntitle: p\n---\nx\n";
    const cases: [string, Uint8Array, number][] = [
      ["3,001 pages", tarGz(pages), 413],
      ["bomb", gzipSync(new Uint8Array(80 * 1024 * 1024)), 413],
      ["traversal", gzipSync(createTar([{ name: "../../guides/x.md", data: "---\ntitle: x\n---\n" }])), 400],
      ["10,001 files", tarGz(many), 413],
      ["bad front matter", tarGz(bundle("two", { "guides/bad.md": "---\ntitle: [oops\n---\nx\n" })), 422],
      ["not an archive", new TextEncoder().encode("# hello"), 415],
      ["huge page", tarGz(bundle("two", { "guides/huge.md": "---\ntitle: Huge\n---\n" + "a".repeat(600 * 1024) })), 422],
    ];
    for (const [name, body, status] of cases) {
      const res = await uploadContent(token, body);
      expect(res.status, name).toBe(status);
      expect(res.json.error.code, name).toBeTypeOf("string");
      expect(await liveContent(token), name).toBe(before);
    }
  });

  it("serialises concurrent uploads: every one is accepted and the live release is one whole bundle", async () => {
    const token = await portalWithApi("content-race");
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => uploadContent(token, bundle(`m${i}`))));
    for (const r of results) expect(r.status).toBe(201);
    const last = results.reduce((a, b) => (b.json.release > a.json.release ? b : a));
    const live = JSON.parse(await liveContent(token));
    expect(live.release.id).toBe(last.json.release);
  });

  it("publishes a 600-guide bundle (several KV chunks, two row statements) and serves its first and last page", async () => {
    const token = await portalWithApi("content-big");
    const big: Record<string, string> = {};
    for (let i = 0; i < 600; i++) big[`guides/g${i}.md`] = `---\ntitle: Guide ${i}\n---\n${`Paragraph of guide ${i}. `.repeat(40)}\n\n## Part\n\nEnd-${i}.\n`;
    const res = await uploadContent(token, big);
    expect(res.status).toBe(201);
    expect(res.json.pages).toBe(600);
    for (const i of [0, 599]) {
      const page = await getPage(`/p/content-big/guides/g${i}`);
      expect(page.status).toBe(200);
      expect(page.html).toContain(`End-${i}.`);
    }
  });

  it("needs the portal token", async () => {
    const res = await uploadContent("nope", bundle());
    expect(res.status).toBe(401);
  });
});
