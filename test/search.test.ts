/**
 * @module Search over HTTP (issue 9) in workerd against real D1/KV/DO: the index is built by the publisher and
 * flips with its version or release (never half), readers never see a private document's words (results, totals,
 * suggestions), hostile queries answer 200 or 400, and organisations search their portals on the Enterprise plan.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, jsonOrRaw, ORIGIN, upload } from "./harness/client";
import { bundle, PETSTORE_OPS, uploadContent } from "./content/bundles";
import { PortalPublisher, publisherFor } from "../worker/publish/portal-publisher";
import { publishDefinition } from "../worker/publish/publish-definition";
import { fillVariables } from "../worker/routes/search";

async function search(portal: string, q: string, extra = ""): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await SELF.fetch(`${ORIGIN}/p/${portal}/search.json?q=${encodeURIComponent(q)}${extra}`);
  return { status: res.status, json: await jsonOrRaw(res), headers: res.headers };
}

const OPS_WITH_FIELDS = PETSTORE_OPS.replace(
  "      operationId: listPets\n",
  "      operationId: listPets\n      summary: List all pets\n      parameters: [{ name: pageCursor, in: query, description: Opaque cursor of the next page, schema: { type: string, enum: [asc, desc] } }]\n",
);

describe("search.json", () => {
  it("finds operations by summary, operationId, parameters and enum values, and guide sections by anchor", async () => {
    const token = await createPortal("srch-a");
    expect((await upload(token, OPS_WITH_FIELDS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("alpha"))).status).toBe(201);

    const byId = await search("srch-a", "showPetById");
    expect(byId.status).toBe(200);
    expect(byId.json.results[0]).toMatchObject({ kind: "operation", api: "pets", operationId: "showPetById", method: "GET", path: "/pets/{petId}", url: "/p/srch-a/reference/pets/1.0.0/showpetbyid" });
    expect((await search("srch-a", "pageCursor")).json.results[0].operationId).toBe("listPets");
    expect((await search("srch-a", "list pets")).json.results[0].title).toBe("List all pets");

    const setup = await search("srch-a", "setup", "&kind=guide");
    expect(setup.json.results[0]).toMatchObject({ kind: "guide", title: "Setup", section: "Introduction", url: "/p/srch-a/guides/intro#setup", locale: "en" });
    // Variables in snippets resolve for the reader (here: the bundle default).
    const key = await search("srch-a", "key setup", "&kind=guide");
    expect(JSON.stringify(key.json.results)).toContain("KEY_DEFAULT");
    expect(JSON.stringify(key.json.results)).not.toContain("{{api_key}}");
    expect(key.headers.get("cache-control")).toContain("private");

    const step = await search("srch-a", "set the key", "&kind=step");
    expect(step.json.results.map((r: any) => r.url)).toContain("/p/srch-a/steps/first#step-1");
    expect((await search("srch-a", "animal store", "&kind=glossary")).json.results[0]).toMatchObject({ kind: "glossary", title: "Pet" });
    expect((await search("srch-a", "einführung", "&locale=de")).json.results[0]).toMatchObject({ locale: "de", url: "/p/srch-a/de/guides/intro" });
    // Kind facets count readable matches before the kind filter.
    const faceted = await search("srch-a", "pets", "&kind=guide");
    expect(faceted.json.facets.kind.operation).toBeGreaterThan(0);
    expect(faceted.json.results.every((r: any) => r.kind === "guide")).toBe(true);
  });

  it("never shows a private document's words to a reader without access: results, totals and suggestions", async () => {
    const token = await createPortal("srch-b");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    const extra = {
      "guides/partners.md": "---\ntitle: Partner onboarding\naudiences: [partners]\n---\nXylophonequartz rebates for partners.\n\n## Contracts\n\nXylophonequartz contract terms.\n",
      "guides/public.md": "---\ntitle: Public page\n---\nEveryone reads this.\n\n::: audience partners\nQuokkaflamingo discount codes.\n:::\n",
    };
    expect((await uploadContent(token, bundle("beta", extra))).status).toBe(201);
    const markers = /xylophonequartz|quokkaflamingo|SECRET-PARTNER|SECRET-FEED|Partner onboarding|Partner pricing|Partner change/i;
    for (const q of ["Xylophonequartz", "xylophonequart", "xylophonequartz rebates", "Quokkaflamingo", "quokaflamingo", "Quokkaflamingo discount", "SECRET-FEED-ENTRY", "partner pricing", "partner onboarding"]) {
      const r = await search("srch-b", q);
      expect(r.status).toBe(200);
      expect(JSON.stringify({ ...r.json, query: "" }), q).not.toMatch(markers);
      if (/xylo|quok/i.test(q)) expect(r.json.total, q).toBe(0);
    }
    // The public part of the page with a partners-only block is found; its block's words are not.
    expect((await search("srch-b", "everyone reads")).json.results[0]).toMatchObject({ title: "Public page" });
    const page = await (await SELF.fetch(`${ORIGIN}/p/srch-b/search?q=Xylophonequartz+Quokkaflamingo`)).text();
    expect(page).toContain("No results for");
    expect(page.slice(page.indexOf('<ol class="sp-results">'))).not.toMatch(markers);
  });

  it("answers hostile queries with 200 or 400, never 5xx", async () => {
    const token = await createPortal("srch-c");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    const queries = ["x".repeat(10 * 1024), "a ".repeat(5000), ".*(a+)+$[", "\\", "(?<=x)", "[[[[", "%", "💥 日本語 ﷽", "\u0000\u202e", "   ", "", "pets".repeat(100)];
    for (const q of queries) {
      const r = await search("srch-c", q);
      expect([200, 400], q.slice(0, 20)).toContain(r.status);
      if (r.status === 400) expect(r.json.error.message).toBeTruthy();
      const page = await SELF.fetch(`${ORIGIN}/p/srch-c/search?q=${encodeURIComponent(q)}`);
      expect([200, 400]).toContain(page.status);
      await page.arrayBuffer();
    }
    expect((await search("srch-c", "x".repeat(10 * 1024))).status).toBe(400);
    expect((await search("srch-c", "")).json).toEqual({ query: "", total: 0, results: [] });
    for (const bad of ["&limit=0", "&limit=abc", "&limit=1000", "&kind=bogus", "&locale=%3Cscript%3E", "&prefer=x%20y"]) expect((await search("srch-c", "pets", bad)).status).toBe(400);
    expect((await search("no-such-portal", "pets")).status).toBe(404);
    for (const raw of ["%E0%A4%A", "%ED%A0%80", "%FF", "%00"]) expect([200, 400]).toContain((await SELF.fetch(`${ORIGIN}/p/srch-c/search.json?q=${raw}`)).status);
  });
});

describe("variables in results", () => {
  it("fill for the reader: their value, else the default, else as written; escaped in snippets, marks kept", () => {
    const reader = { audiences: ["public"], variables: { api_key: "<sk_live>" }, locale: "en" };
    const defaults = { api_key: "KEY_DEFAULT", org_name: "Acme & Co" };
    expect(fillVariables("Bearer {{<mark>api_key</mark>}} at {{org_name}} {{unknown}}", reader, defaults, true)).toBe("Bearer <mark>&lt;sk_live&gt;</mark> at Acme &amp; Co {{unknown}}");
    expect(fillVariables("Key {{api_key}}", { ...reader, variables: {} }, defaults, false)).toBe("Key KEY_DEFAULT");
  });
});

describe("the index flips with its release", () => {
  it("a content release and a version each replace the index whole; a failed commit leaves the old index live", async () => {
    const token = await createPortal("srch-d");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("gamma"))).status).toBe(201);
    expect((await search("srch-d", "gamma")).json.total).toBeGreaterThan(0);
    expect((await uploadContent(token, bundle("delta"))).status).toBe(201);
    expect((await search("srch-d", "delta")).json.total).toBeGreaterThan(0);
    expect((await search("srch-d", "gamma")).json.total).toBe(0);
    // The API stays in the index across content releases (its documents come from the cached set).
    expect((await search("srch-d", "showPetById")).json.results[0].operationId).toBe("showPetById");

    // The D1 batch that would flip the version (operations, version, API pointer, search pointer) fails after the
    // new index was built and stored: neither the version nor the index may change.
    await runInDurableObject(publisherFor(env.PUBLISHER, "srch-d"), (instance: PortalPublisher) => {
      const real = instance.work;
      instance.work = (e, req, attempt) => {
        instance.work = real;
        const db = new Proxy(e.DB, { get: (t, k) => (k === "batch" ? (list: D1PreparedStatement[]) => (list.length >= 4 ? Promise.reject(new Error("D1 unavailable")) : t.batch(list)) : (t as any)[k]?.bind?.(t) ?? (t as any)[k]) });
        return publishDefinition({ ...e, DB: db }, req, attempt);
      };
    });
    const renamed = PETSTORE_OPS.replace("showPetById", "fetchOnePetEpsilon").replace("1.0.0", "2.0.0");
    expect((await upload(token, renamed, { api: "pets" })).status).toBeGreaterThanOrEqual(400);
    expect((await search("srch-d", "fetchOnePetEpsilon")).json.results.map((r: any) => r.operationId)).not.toContain("fetchOnePetEpsilon");
    expect((await search("srch-d", "showPetById")).json.results[0].version).toBe("1.0.0");

    expect((await upload(token, renamed, { api: "pets" })).status).toBe(201);
    expect((await search("srch-d", "fetchOnePetEpsilon")).json.results[0]).toMatchObject({ version: "2.0.0", url: "/p/srch-d/reference/pets/2.0.0/fetchonepetepsilon" });
    expect((await search("srch-d", "showPetById")).json.results.map((r: any) => r.operationId)).not.toContain("showPetById");
    expect((await search("srch-d", "delta")).json.total).toBeGreaterThan(0);
  });
});

describe("portals without an index", () => {
  it("get one when the live definition or bundle is posted again (answered unchanged)", async () => {
    const token = await createPortal("srch-e");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("zeta"))).status).toBe(201);
    const portal = await env.DB.prepare("SELECT id FROM portals WHERE slug = 'srch-e'").first<{ id: number }>();
    await env.DB.prepare("DELETE FROM search_live WHERE portal_id = ?").bind(portal!.id).run();
    expect((await search("srch-e", "zeta")).json.total).toBe(0);
    const again = await upload(token, PETSTORE_OPS, { api: "pets" });
    expect(again.status).toBe(200);
    expect(again.json.unchanged).toBe(true);
    expect((await search("srch-e", "zeta")).json.total).toBeGreaterThan(0);
    expect((await search("srch-e", "showPetById")).json.results[0].operationId).toBe("showPetById");
  });
});

describe("layouts", () => {
  it("an API switched to the single-page layout gets anchor URLs in results", async () => {
    const token = await createPortal("srch-f");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await search("srch-f", "showPetById")).json.results[0].url).toBe("/p/srch-f/reference/pets/1.0.0/showpetbyid");
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/pets`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }) });
    expect(res.status).toBe(200);
    expect((await search("srch-f", "showPetById")).json.results[0].url).toBe("/p/srch-f/reference/pets/1.0.0/#showpetbyid");
  });
});

describe("tag descriptions", () => {
  it("find an operation by a word only its first tag's description holds, when published and when rebuilt from the stored model", async () => {
    const token = await createPortal("srch-t");
    const spec = `openapi: 3.0.3
info: { title: Mail, version: "1.0" }
tags:
  - name: Mailboxes
    description: Mailboxes are the **quasarinbox** folders of a tenant.
  - name: Apps
paths:
  /apps/{id}:
    put: { operationId: updateApp, summary: Update an app, tags: [Apps], responses: { "200": { description: ok } } }
  /mailboxes/{id}:
    put: { operationId: updateMailbox, summary: Update a mailbox, tags: [Mailboxes], responses: { "200": { description: ok } } }
`;
    expect((await upload(token, spec, { api: "mail" })).status).toBe(201);
    const found = await search("srch-t", "update quasarinbox");
    expect(found.json.results[0]).toMatchObject({ operationId: "updateMailbox" });
    // Searched, not shown: the tag's text is no snippet of the operation.
    expect(found.json.results[0].snippet).not.toContain("quasarinbox");
    // A new layout rebuilds the API's documents from the stored model and its header's tags.
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/mail`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ layout: "single-page" }) });
    expect(res.status).toBe(200);
    const rebuilt = await search("srch-t", "update quasarinbox");
    expect(rebuilt.json.results[0]).toMatchObject({ operationId: "updateMailbox", url: "/p/srch-t/reference/mail/1.0/#updatemailbox" });
  });
});

describe("organisations", () => {
  it("search every member portal on the Enterprise plan, each result labelled with its portal", async () => {
    const a = await createPortal("org-one");
    const b = await createPortal("org-two");
    expect((await upload(a, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await upload(b, PETSTORE_OPS.replace("listPets", "listPetsElsewhere"), { api: "other" })).status).toBe(201);
    const put = (body: unknown) => SELF.fetch(`${ORIGIN}/v1/orgs/acme-group`, { method: "PUT", headers: { authorization: `Bearer ${env.PORTICO_ADMIN_TOKEN}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await put({ name: "Acme", portals: ["org-one", "org-two"] })).status).toBe(200);
    expect((await SELF.fetch(`${ORIGIN}/o/acme-group/search.json?q=pets`)).status).toBe(403);
    expect((await put({ name: "Acme", plan: "enterprise", portals: ["org-one", "org-two", "nope"] })).status).toBe(400);
    expect((await put({ name: "Acme", plan: "enterprise", portals: ["org-one", "org-two"] })).status).toBe(200);
    const res = await SELF.fetch(`${ORIGIN}/o/acme-group/search.json?q=list%20pets`);
    const json = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(new Set(json.results.map((r: any) => r.portal))).toEqual(new Set(["org-one", "org-two"]));
    expect(json.results.find((r: any) => r.portal === "org-two").url).toMatch(/^\/p\/org-two\//);
    expect((await SELF.fetch(`${ORIGIN}/v1/orgs/acme-group`, { method: "PUT", body: "{}" })).status).toBe(401);
  });
});
