import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { sweepClosedPreviews } from "../../worker/git/sync";
import { connectedPortal, deliver, fake, fakeLog, pullRequestPayload, pushPayload, settled } from "./helpers";

const API = "parcel-logistics-api";

/** Publishes main, then opens a pull request from `branch` at the feature commit; returns the portal's token and the finished delivery. */
async function openPullRequest(slug: string, branch = fake().feature.branch, number = 12, sha = fake().feature.sha) {
  const token = await connectedPortal(slug);
  await deliver("push", pushPayload(slug, "main", fake().main));
  await settled(token, 1);
  await deliver("pull_request", pullRequestPayload(slug, branch, sha, number));
  const [done] = await settled(token, 2);
  return { token, done };
}

const portalRow = (slug: string) => env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>();
const previewRows = async (slug: string) =>
  (await env.DB.prepare("SELECT slug, branch, definitions FROM git_previews WHERE portal_id = (SELECT id FROM portals WHERE slug = ?) ORDER BY id").bind(slug).all<{ slug: string; branch: string; definitions: string }>()).results;

describe("a preview renders the branch's definitions", () => {
  it("shows the branch's reference (its new operation) with links inside the preview, gated and noindex, the live reference unchanged", async () => {
    const slug = "git-prev-ref";
    const { token, done } = await openPullRequest(slug);
    const base = `/p/${slug}/preview/feature-returns`;
    expect(done.result.previewUrl).toBe(`http://portico.test${base}/`);

    const index = await SELF.fetch(`${ORIGIN}${base}/reference/${API}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("x-robots-tag")).toContain("noindex");
    expect(index.headers.get("cache-control")).toContain("no-store");
    const html = await index.text();
    expect(html).toContain("Create a return");
    // Operation links stay in the preview; none goes to the live reference.
    expect(html).toContain(`href="${base}/reference/${API}/`);
    expect(html).not.toMatch(new RegExp(`href="/p/${slug}/reference/`));

    const [label] = [(JSON.parse((await previewRows(slug))[0].definitions) as Record<string, { label: string }>)[API].label];
    const page = await SELF.fetch(`${ORIGIN}${base}/reference/${API}/${encodeURIComponent(label)}/createreturn`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain("Create a return");
    expect(pageHtml).not.toMatch(new RegExp(`href="/p/${slug}/reference/`));

    // The live reference knows nothing of the branch.
    const live = await SELF.fetch(`${ORIGIN}/p/${slug}/reference/${API}/`);
    expect(await live.text()).not.toContain("Create a return");
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/reference/${API}/${encodeURIComponent(label)}/createreturn`)).status).not.toBe(200);

    // The preview's version is stored but never live, never listed.
    const portal = await portalRow(slug);
    const versions = (await env.DB.prepare("SELECT v.id, v.status, a.live_version_id AS live FROM versions v JOIN apis a ON a.id = v.api_id WHERE a.portal_id = ? ORDER BY v.id").bind(portal!.id).all<{ id: number; status: string; live: number }>()).results;
    expect(versions.map((v) => v.status)).toEqual(["published", "preview"]);
    expect(versions[0].live).toBe(versions[0].id);
    const listed = await (await SELF.fetch(`${ORIGIN}/p/${slug}/search.json?q=createReturn`)).json() as { results: unknown[] };
    expect(JSON.stringify(listed.results)).not.toContain("createReturn");

    // A guide's operation link in the preview opens the branch's operation.
    const op = await SELF.fetch(`${ORIGIN}${base}/op/${API}/createreturn`, { redirect: "manual" });
    expect(op.status).toBe(302);
    expect(op.headers.get("location")).toBe(`${base}/reference/${API}/${encodeURIComponent(label)}/createreturn`);
    // An unknown preview has no reference.
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/preview/no-such-branch/reference/${API}/`)).status).toBe(404);

    // The preview's own search finds the branch's operation, under the preview's base path (the live one does not).
    const own = await SELF.fetch(`${ORIGIN}${base}/search.json?q=createReturn`);
    expect(own.headers.get("x-robots-tag")).toContain("noindex");
    const hits = (await own.json() as { results: { url: string; operationId: string | null }[] }).results;
    expect(hits[0]).toMatchObject({ operationId: "createReturn", url: `${base}/reference/${API}/${encodeURIComponent(label)}/createreturn` });
    expect(hits.every((h) => h.url.startsWith(`${base}/`))).toBe(true);
    const guideHits = (await (await SELF.fetch(`${ORIGIN}${base}/search.json?q=${encodeURIComponent("send a parcel back")}`)).json() as { results: { url: string }[] }).results;
    expect(guideHits.map((h) => h.url)).toContain(`${base}/guides/tracking`);
    const searchPage = await SELF.fetch(`${ORIGIN}${base}/search?q=createReturn`);
    expect(searchPage.status).toBe(200);
    expect(await searchPage.text()).toContain(`${base}/reference/${API}/`);

    // Its search is sharded per source as the live portal's: the branch changed its definition and a guide, so both
    // shards were built; a new build of the same commit reuses both (nothing rebuilt), and search answers the same.
    expect(done.result.searchShards).toEqual({ built: [`api:${API}`, "content"], reused: [] });
    const pointer = JSON.parse((await env.DB.prepare("SELECT search_index AS s FROM git_previews WHERE slug = 'feature-returns' AND portal_id = (SELECT id FROM portals WHERE slug = ?)").bind(slug).first<{ s: string }>())!.s);
    expect(pointer.shards.map((r: { source: string }) => r.source)).toEqual([`api:${API}`, "content"]);
    await deliver("pull_request", pullRequestPayload(slug, fake().feature.branch, fake().feature.sha, 12, "synchronize"));
    const [again] = await settled(token, 3);
    expect(again.result.searchShards).toEqual({ built: [], reused: [`api:${API}`, "content"] });
    const rehits = (await (await SELF.fetch(`${ORIGIN}${base}/search.json?q=createReturn`)).json() as { results: { operationId: string | null }[] }).results;
    expect(rehits[0]).toMatchObject({ operationId: "createReturn" });
  });

  it("drops the preview's versions and stored models when the branch is deleted", async () => {
    const slug = "git-prev-drop";
    // A commit no other test of this file previews: its model is this preview's alone (models are content-addressed).
    const { token } = await openPullRequest(slug, "both-parts", 12, fake().both);
    const defs = JSON.parse((await previewRows(slug))[0].definitions) as Record<string, { version: number; label: string }>;
    const version = await env.DB.prepare("SELECT model_key AS modelKey FROM versions WHERE id = ?").bind(defs[API].version).first<{ modelKey: string }>();
    expect(await env.MODELS.get(`${version!.modelKey}/header`)).not.toBeNull();
    expect(await (await SELF.fetch(`${ORIGIN}/p/${slug}/preview/both-parts/reference/${API}/`)).text()).toContain("3.0.0");
    await deliver("push", { ...pushPayload(slug, "both-parts", "0".repeat(40)), deleted: true });
    const [gone] = await settled(token, 3);
    expect(gone.result).toMatchObject({ kind: "close", deleted: true, droppedVersions: 1 });
    expect(await previewRows(slug)).toEqual([]);
    expect((await env.DB.prepare("SELECT status FROM versions WHERE id = ?").bind(defs[API].version).first<{ status: string }>())!.status).toBe("dropped");
    expect(await env.MODELS.get(`${version!.modelKey}/header`)).toBeNull();
    expect((await env.MODELS.list({ prefix: `${version!.modelKey}/` })).keys).toEqual([]);
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/preview/both-parts/reference/${API}/`)).status).toBe(404);
    // The live version and its model are untouched.
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/reference/${API}/`)).status).toBe(200);
  });
});

describe("closed pull requests", () => {
  it("drop their preview's versions 7 days after closing (the sweep before each Git job)", async () => {
    const slug = "git-prev-sweep";
    const { token } = await openPullRequest(slug);
    const defs = JSON.parse((await previewRows(slug))[0].definitions) as Record<string, { version: number }>;
    await deliver("pull_request", pullRequestPayload(slug, fake().feature.branch, fake().feature.sha, 12, "closed"));
    await settled(token, 3);
    // Within the 7 days: still readable, nothing swept.
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/preview/feature-returns/reference/${API}/`)).status).toBe(200);
    const portal = await portalRow(slug);
    expect(await sweepClosedPreviews(env, portal!.id)).toBe(0);
    // Eight days on: the sweep drops the row and the preview version.
    expect(await sweepClosedPreviews(env, portal!.id, new Date(Date.now() + 8 * 86400_000))).toBe(1);
    expect(await previewRows(slug)).toEqual([]);
    expect((await env.DB.prepare("SELECT status FROM versions WHERE id = ?").bind(defs[API].version).first<{ status: string }>())!.status).toBe("dropped");
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/preview/feature-returns/reference/${API}/`)).status).toBe(404);
  });
});

describe("branches that slug alike", () => {
  it("get distinct previews: the second gets the slug plus a short hash, and each keeps its own", async () => {
    const slug = "git-prev-alike";
    const { token } = await openPullRequest(slug, "feature/returns", 12);
    await deliver("pull_request", pullRequestPayload(slug, "feature-returns", fake().feature.sha, 13));
    const [second] = await settled(token, 3);
    const rows = await previewRows(slug);
    expect(rows.map((r) => r.branch)).toEqual(["feature/returns", "feature-returns"]);
    expect(rows[0].slug).toBe("feature-returns");
    expect(rows[1].slug).toMatch(/^feature-returns-[0-9a-f]{7}$/);
    expect(second.result.previewUrl).toBe(`http://portico.test/p/${slug}/preview/${rows[1].slug}/`);
    for (const r of rows) expect((await SELF.fetch(`${ORIGIN}/p/${slug}/preview/${r.slug}/reference/${API}/`)).status).toBe(200);
    // A new commit on either branch keeps its slug.
    await deliver("pull_request", pullRequestPayload(slug, "feature-returns", fake().feature.sha, 13, "synchronize"));
    await deliver("pull_request", pullRequestPayload(slug, "feature/returns", fake().feature.sha, 12, "synchronize"));
    await settled(token, 5);
    const again = await previewRows(slug);
    expect(again.map((r) => [r.branch, r.slug])).toEqual(rows.map((r) => [r.branch, r.slug]));
    // The same definition bytes as the previous build: its preview version is kept, not published again.
    expect(again.map((r) => JSON.parse(r.definitions)[API].version)).toEqual(rows.map((r) => JSON.parse(r.definitions)[API].version));
  }, 150_000); // five deliveries, one after another
});

