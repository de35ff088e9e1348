import { env, SELF } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import { uploadContent } from "./content/bundles";
import { ACCESS, patchAccess } from "./readers/fixture";

const V1 = `openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
      responses: {'200': {description: ok}}
`;
const V2 = V1.replace("{name: limit, in: query, schema: {type: integer}}", "{name: limit, in: query, required: true, schema: {type: integer}}")
  .concat("  /pets/{petId}:\n    get:\n      operationId: showPet\n      parameters: [{name: petId, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}\n");

const CONTENT = {
  "portico.yaml": "name: Pets docs\nlocales: [en]\nnavigation:\n  - title: Start\n    items: [guides/intro]\n",
  "guides/intro.md": "---\ntitle: Intro\n---\nHello.\n",
  "changelog/2026-01-01-hello.md": "---\ntitle: Docs launched\ntype: New\nversion: v1.0.0\ndate: 2026-01-01\n---\nThe docs are here.\n",
};

const api = (token: string, path: string, init: RequestInit = {}) =>
  SELF.fetch(`${ORIGIN}/v1/apis/${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(init.headers ?? {}) } });

async function setUp(slug: string, apiSlug = "pets"): Promise<string> {
  const token = await createPortal(slug);
  expect((await upload(token, V1, { api: apiSlug, version: "1.0.0" })).status).toBe(201);
  expect((await upload(token, V2, { api: apiSlug, version: "2.0.0" })).status).toBe(201);
  expect((await uploadContent(token, CONTENT)).status).toBe(201);
  return token;
}

/** Drafts stored for the portal `slug` (D1). */
const draftCount = async (slug: string) => (await env.DB.prepare("select count(*) as n from changelog_drafts d join portals p on p.id = d.portal_id where p.slug = ?").bind(slug).first<{ n: number }>())!.n;

/** Polls `read` every 25 ms until `done` holds (10 s at most), for work done after an answer; answers the last value read. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const stop = Date.now() + 10_000;
  let value = await read();
  while (!done(value) && Date.now() < stop) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    value = await read();
  }
  return value;
}

describe("changelog drafts", () => {
  it("drafts the new version from the diff; only approval shows it on the changelog page and in RSS", async () => {
    const token = await setUp("drafts");
    const listed = await api(token, "pets/changelog/drafts");
    expect(listed.status).toBe(200);
    const { drafts } = (await listed.json()) as any;
    expect(drafts).toHaveLength(1);
    const draft = drafts[0];
    expect(draft).toMatchObject({ from: "1.0.0", to: "2.0.0", type: "Breaking", version: "v2.0.0", title: "Pets v2.0.0", status: "draft" });
    // Every bullet cites only changes of the diff.
    const diff = (await (await api(token, "pets/changes?from=1.0.0&to=2.0.0")).json()) as any;
    const ids = new Set(diff.changes.map((c: any) => c.id));
    for (const b of draft.bullets) for (const id of b.changeIds) expect(ids.has(id)).toBe(true);
    expect(draft.bullets.flatMap((b: any) => b.changeIds).sort()).toEqual([...ids].sort());

    expect((await getPage("/p/drafts/changelog")).html).not.toContain("Pets v2.0.0");
    expect(await (await SELF.fetch(`${ORIGIN}/p/drafts/changelog.rss`)).text()).not.toContain("Pets v2.0.0");
    expect((await getPage("/p/drafts/reference/pets/2.0.0/listpets")).html).not.toContain("Breaking in");

    const edited = await api(token, `pets/changelog/drafts/${draft.id}`, { method: "PATCH", body: JSON.stringify({ title: "Pets 2: limit is required", body: "The `limit` parameter is now required. <script>alert(1)</script>" }) });
    expect(edited.status).toBe(200);
    expect((await api(token, `pets/changelog/drafts/${draft.id}/approve`, { method: "POST" })).status).toBe(200);

    const page = await getPage("/p/drafts/changelog");
    expect(page.html).toContain("Pets 2: limit is required");
    expect(page.html).toContain("Docs launched");
    expect(page.html.indexOf("Pets 2: limit is required")).toBeLessThan(page.html.indexOf("Docs launched")); // newest first
    expect(page.html).not.toContain("<script>alert(1)</script>");
    const rss = await (await SELF.fetch(`${ORIGIN}/p/drafts/changelog.rss`)).text();
    expect(rss).toContain("Pets 2: limit is required");
    expect((await getPage("/p/drafts/changelog?type=Breaking")).html).toContain("Pets 2: limit is required");
    // Operation pages carry badges linking to the entry; the older version's pages do not.
    expect(page.html).toContain('id="pets-v2-0-0"');
    expect((await getPage("/p/drafts/reference/pets/2.0.0/listpets")).html).toContain('<a class="hb hb-breaking" href="/p/drafts/changelog#pets-v2-0-0">Breaking in v2.0.0</a>');
    expect((await getPage("/p/drafts/reference/pets/2.0.0/showpet")).html).toContain('<a class="hb hb-new" href="/p/drafts/changelog#pets-v2-0-0">New in v2.0.0</a>');
    expect((await getPage("/p/drafts/reference/pets/1.0.0/listpets")).html).not.toContain("Breaking in");
    expect((await getPage("/p/drafts/changelog?type=New")).html).not.toContain("Pets 2: limit is required");
  });

  it("a small new version is drafted moments after its answer, before anyone lists drafts", async () => {
    const token = await createPortal("drafts-publish");
    expect((await upload(token, V1, { api: "pets", version: "1.0.0" })).status).toBe(201);
    const count = () => draftCount("drafts-publish");
    expect(await count()).toBe(0); // a first version has nothing to compare with
    expect((await upload(token, V2, { api: "pets", version: "2.0.0" })).status).toBe(201);
    // Made after the answer (issue 37). Read from D1, not through the drafts route (which would write a missing draft itself).
    expect(await until(count, (n) => n === 1)).toBe(1);
    const { drafts } = (await (await api(token, "pets/changelog/drafts")).json()) as any;
    expect(drafts.map((d: any) => [d.from, d.to, d.status])).toEqual([["1.0.0", "2.0.0", "draft"]]);
  });

  it("a draft that fails after the answer is logged, and written when drafts are listed", async () => {
    const token = await createPortal("drafts-retry");
    // Bytes of their own: raw bodies are shared by content address, and diffs cached by it.
    expect((await upload(token, `${V1}# drafts-retry\n`, { api: "pets", version: "1.0.0" })).status).toBe(201);
    const listing = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    const key = `definitions/${listing.apis[0].versions[0].sha256}`;
    const v1Body = await (await env.DEFINITIONS.get(key))!.text();
    // The previous version's body stops reading: the diff, so the draft, fails after the upload has answered.
    await env.DEFINITIONS.put(key, "openapi: 3.0.3\ninfo: {title: t\n  version: 1\n");
    const warn = vi.spyOn(console, "warn");
    try {
      expect((await upload(token, `${V2}# drafts-retry\n`, { api: "pets", version: "2.0.0" })).status).toBe(201);
      const failed = () => warn.mock.calls.some((args) => args[0] === "changelog draft after publish failed" && args[1] === "drafts-retry");
      expect(await until(async () => failed(), (x) => x)).toBe(true);
    } finally {
      warn.mockRestore();
      await env.DEFINITIONS.put(key, v1Body);
    }
    expect(await draftCount("drafts-retry")).toBe(0);
    const { drafts } = (await (await api(token, "pets/changelog/drafts")).json()) as any;
    expect(drafts.map((d: any) => [d.from, d.to, d.status])).toEqual([["1.0.0", "2.0.0", "draft"]]);
  });

  it("reviews once: a reviewed draft cannot be edited or reviewed again; listing again adds no duplicate", async () => {
    const token = await setUp("drafts-once");
    const { drafts } = (await (await api(token, "pets/changelog/drafts")).json()) as any;
    const id = drafts[0].id;
    expect((await api(token, `pets/changelog/drafts/${id}/discard`, { method: "POST" })).status).toBe(200);
    expect((await api(token, `pets/changelog/drafts/${id}/approve`, { method: "POST" })).status).toBe(409);
    expect((await api(token, `pets/changelog/drafts/${id}`, { method: "PATCH", body: JSON.stringify({ title: "x" }) })).status).toBe(409);
    expect((await api(token, "pets/changelog/drafts/999999/approve", { method: "POST" })).status).toBe(404);
    expect((await api(token, `pets/changelog/drafts/${id}`, { method: "PATCH", body: JSON.stringify({ title: "" }) })).status).toBe(400);
    const again = (await (await api(token, "pets/changelog/drafts")).json()) as any;
    expect(again.drafts.map((d: any) => [d.id, d.status])).toEqual([[id, "discarded"]]);
    expect((await getPage("/p/drafts-once/changelog")).html).not.toContain("Pets v2.0.0");
    // another portal's token sees none of it
    const other = await createPortal("drafts-other");
    expect((await api(other, `pets/changelog/drafts/${id}/approve`, { method: "POST" })).status).toBe(404);
    expect((await SELF.fetch(`${ORIGIN}/v1/apis/pets/changelog/drafts`)).status).toBe(401);
  });

  it("without a content release, approved entries still badge operations, unlinked (no changelog page to link to)", async () => {
    const token = await createPortal("drafts-nocontent");
    expect((await upload(token, V1, { api: "pets", version: "1.0.0" })).status).toBe(201);
    expect((await upload(token, V2, { api: "pets", version: "2.0.0" })).status).toBe(201);
    const { drafts } = (await (await api(token, "pets/changelog/drafts")).json()) as any;
    expect((await api(token, `pets/changelog/drafts/${drafts[0].id}/approve`, { method: "POST" })).status).toBe(200);
    const html = (await getPage("/p/drafts-nocontent/reference/pets/2.0.0/listpets")).html;
    expect(html).toContain('<span class="hb hb-breaking">Breaking in v2.0.0</span>');
    expect(html).not.toContain("/changelog#");
  });

  it("the review page is a script shell that holds no data and is never framed", async () => {
    await createPortal("drafts-admin");
    const res = await SELF.fetch(`${ORIGIN}/p/drafts-admin/admin/changelog`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    const html = await res.text();
    expect(html).toContain('<script type="module" src="/assets/changelog-admin.js">');
    expect(html).toContain('data-portal="drafts-admin"');
    expect((await SELF.fetch(`${ORIGIN}/p/no-such-portal/admin/changelog`)).status).toBe(404);
  });

  it("an approved entry of a gated API stays hidden from readers who may not open the API", async () => {
    const token = await setUp("drafts-gated", "internal");
    expect((await patchAccess(token, ACCESS)).status).toBe(200);
    const { drafts } = (await (await api(token, "internal/changelog/drafts")).json()) as any;
    expect((await api(token, `internal/changelog/drafts/${drafts[0].id}/approve`, { method: "POST" })).status).toBe(200);
    const page = await getPage("/p/drafts-gated/changelog");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Docs launched");
    expect(page.html).not.toContain("Pets v2.0.0");
    expect(await (await SELF.fetch(`${ORIGIN}/p/drafts-gated/changelog.rss`)).text()).not.toContain("Pets v2.0.0");
  });
});
