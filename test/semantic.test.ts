/**
 * @module Semantic retrieval end to end in workerd (issue 9): real D1, KV and Durable Objects; fakes only for what
 * tests cannot reach, Workers AI's embedding model and Vectorize (worker/semantic/testing/fakes.ts). The fakes are
 * handed to the portal's publisher (its `env`) and to the app's `fetch` as the `AI` and `VECTORIZE` bindings, which
 * is how production receives them; without them (every other test) search stays lexical only.
 */
import { createExecutionContext, env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { app } from "../worker/app";
import { PortalPublisher, publisherFor } from "../worker/publish/portal-publisher";
import { publishDefinition } from "../worker/publish/publish-definition";
import { accessKey } from "../worker/search/semantic";
import { FakeEmbeddingModel, FakeVectorize } from "../worker/semantic/testing/fakes";
import { namespaceOf } from "../worker/semantic/workers-ai-vectorize";
import { bundle, PETSTORE_OPS, uploadContent } from "./content/bundles";
import { createPortal, ORIGIN, upload } from "./harness/client";

/**
 * The fake's bag-of-words similarities are lower than a real model's (a one-word query against a 15-word document:
 * ~0.25), so the floor is set for it as production would set it for bge-m3; unrelated documents score 0.
 */
const SEMANTIC_MIN_SCORE = "0.1";

/** Made-up query words and the document word each means (what a real model would have learnt). */
const CONCEPTS = { quibbleflux: "rebates", zantiporous: "fetches", vormulent: "adopts" };

const PETS = PETSTORE_OPS.replace(
  "      operationId: showPetById\n",
  "      operationId: showPetById\n      summary: Info for a specific pet\n      description: Fetches one pet by its id.\n",
);

interface Fakes {
  ai: FakeEmbeddingModel;
  vectorize: FakeVectorize;
}

/** A portal whose publisher has the fake bindings; returns its token, id and fakes. */
async function semanticPortal(slug: string): Promise<{ token: string; portalId: number } & Fakes> {
  const token = await createPortal(slug);
  const fakes: Fakes = { ai: new FakeEmbeddingModel("@cf/baai/bge-m3", 1024, CONCEPTS), vectorize: new FakeVectorize() };
  await runInDurableObject(publisherFor(env.PUBLISHER, slug), (instance: PortalPublisher) => {
    const withFakes = { ...(instance as unknown as { env: Env }).env, AI: fakes.ai, VECTORIZE: fakes.vectorize, SEMANTIC_MIN_SCORE };
    (instance as unknown as { env: Env }).env = withFakes as unknown as Env;
  });
  const row = await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>();
  return { token, portalId: row!.id, ...fakes };
}

/** `search.json` through the app with the fake bindings (production's path), or without them (`fakes` undefined). */
async function search(slug: string, q: string, fakes?: Fakes, extra = ""): Promise<any> {
  const url = `${ORIGIN}/p/${slug}/search.json?q=${encodeURIComponent(q)}${extra}`;
  const res = fakes ? await app.fetch(new Request(url), { ...env, AI: fakes.ai, VECTORIZE: fakes.vectorize, SEMANTIC_MIN_SCORE } as unknown as Env, createExecutionContext()) : await SELF.fetch(url);
  expect(res.status, q).toBe(200);
  return res.json();
}

const texts = (ai: FakeEmbeddingModel, from = 0) => ai.calls.slice(from).flatMap((c) => c.texts);

describe("publishing embeds documents", () => {
  it("once each: a republish embeds only what changed, and the vectors of documents that left are deleted", async () => {
    const { token, portalId, ai, vectorize } = await semanticPortal("sem-a");
    expect((await upload(token, PETS, { api: "pets" })).status).toBe(201);
    expect(texts(ai)).toHaveLength(3);
    expect(vectorize.ids(namespaceOf(portalId))).toHaveLength(3);

    // A content release embeds its own documents; the API's are unchanged and not embedded again.
    let seen = ai.calls.length;
    expect((await uploadContent(token, bundle("one"))).status).toBe(201);
    const contentTexts = texts(ai, seen);
    expect(contentTexts.length).toBeGreaterThan(3);
    expect(contentTexts.join("\n")).not.toMatch(/showPetById|listPets/);
    const total = vectorize.ids(namespaceOf(portalId)).length;
    expect(total).toBe(3 + contentTexts.length);
    // Metadata carries what the filters and operators need.
    const partner = vectorize.ids(namespaceOf(portalId)).map((id) => vectorize.metadata(id)!).find((m) => m.labels === "partners");
    expect(partner).toMatchObject({ portal: portalId, access: accessKey(["partners"]), source: "content" });

    // A new version renames one operation: only it is embedded; the old one's vector goes once the version is live.
    seen = ai.calls.length;
    const renamed = PETS.replace("showPetById", "fetchOnePet").replace("1.0.0", "2.0.0");
    expect((await upload(token, renamed, { api: "pets" })).status).toBe(201);
    expect(texts(ai, seen)).toHaveLength(1);
    expect(texts(ai, seen)[0]).toContain("fetchOnePet");
    const ids = vectorize.ids(namespaceOf(portalId));
    expect(ids).toHaveLength(total);
    expect(ids.map((id) => vectorize.metadata(id)!.doc)).not.toContain("op:pets:showpetbyid");
    expect(ids.map((id) => vectorize.metadata(id)!.doc)).toContain("op:pets:fetchonepet");

    // Re-posting the live definition embeds nothing.
    seen = ai.calls.length;
    expect((await upload(token, renamed, { api: "pets" })).status).toBe(200);
    expect(ai.calls.length).toBe(seen);
  });

  it("a failing or hanging model never fails a publish: it goes live, found by words; re-posting it embeds what is missing", async () => {
    const { token, portalId, ai, vectorize } = await semanticPortal("sem-b");
    ai.fail = new Error("Workers AI unavailable");
    expect((await upload(token, PETS, { api: "pets" })).status).toBe(201);
    expect(vectorize.ids(namespaceOf(portalId))).toEqual([]);
    const fakes = { ai, vectorize };
    expect((await search("sem-b", "showPetById", fakes)).results[0].operationId).toBe("showPetById");

    // A model that never answers is abandoned within the publish's time (here a 14 s deadline leaves it 4 s).
    ai.fail = undefined;
    ai.hang = true;
    await runInDurableObject(publisherFor(env.PUBLISHER, "sem-b"), (instance: PortalPublisher) => void (instance.deadlineMs = 14_000));
    expect((await upload(token, PETS.replace("1.0.0", "1.0.1"), { api: "pets" })).status).toBe(201);
    expect((await search("sem-b", "showPetById", fakes)).results[0]).toMatchObject({ operationId: "showPetById", version: "1.0.1" });
    expect(vectorize.ids(namespaceOf(portalId))).toEqual([]);

    // Re-posting what is live (a CI retry) embeds what the live index lacks.
    ai.hang = false;
    const again = await upload(token, PETS.replace("1.0.0", "1.0.1"), { api: "pets" });
    expect(again.status).toBe(200);
    expect(again.json.unchanged).toBe(true);
    expect(vectorize.ids(namespaceOf(portalId))).toHaveLength(3);
    expect((await search("sem-b", "zantiporous", fakes)).results[0]?.operationId).toBe("showPetById");
    // Once complete, re-posting embeds nothing.
    const calls = ai.calls.length;
    expect((await upload(token, PETS.replace("1.0.0", "1.0.1"), { api: "pets" })).status).toBe(200);
    expect(ai.calls.length).toBe(calls);

    expect((await uploadContent(token, bundle("two"))).status).toBe(201);
    expect(vectorize.ids(namespaceOf(portalId)).length).toBeGreaterThan(3);
  });
});

describe("readers", () => {
  it("get semantic-only matches fused with the lexical ones; exact hits stay first", async () => {
    const { token, ai, vectorize } = await semanticPortal("sem-c");
    expect((await upload(token, PETS, { api: "pets" })).status).toBe(201);
    const fakes = { ai, vectorize };
    // No word of "zantiporous" is in the portal: lexically nothing, semantically the operation that "fetches".
    expect((await search("sem-c", "zantiporous")).total).toBe(0);
    const found = await search("sem-c", "zantiporous", fakes);
    expect(found.results[0]).toMatchObject({ operationId: "showPetById", kind: "operation" });
    expect(found.total).toBeGreaterThanOrEqual(1);
    // Typing an operation's name still puts it first.
    expect((await search("sem-c", "listPets", fakes)).results[0].operationId).toBe("listPets");
    // Hostile queries take the semantic path too and still answer 200 (the helper checks the status).
    for (const q of ["x".repeat(500), ".*(a+)+$[", "💥 日本語 ﷽", "\u0000\u202e", "   zantiporous   "]) await search("sem-c", q, fakes);
  });

  it("never see a private document through its vector: not in results, totals or facets", async () => {
    const { token, portalId, ai, vectorize } = await semanticPortal("sem-d");
    const extra = {
      "guides/partners.md": "---\ntitle: Partner onboarding\naudiences: [partners]\n---\nXylophonequartz rebates for partners.\n",
      "guides/public.md": "---\ntitle: Public page\n---\nEveryone reads this.\n",
    };
    expect((await upload(token, PETS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("beta", extra))).status).toBe(201);
    const fakes = { ai, vectorize };
    // The partners' page's vector exists and is the only one near "quibbleflux" (→ "rebates").
    expect(vectorize.ids(namespaceOf(portalId)).some((id) => String(vectorize.metadata(id)!.doc).startsWith("guide:en:partners"))).toBe(true);
    const r = await search("sem-d", "quibbleflux", fakes);
    expect(r.total).toBe(0);
    expect(r.results).toEqual([]);
    expect(JSON.stringify(r)).not.toMatch(/xylophonequartz|Partner onboarding|rebates/i);
    // The filter sent to Vectorize already left the partners' key out.
    const filter = vectorize.queries.at(-1)!.filter as { access: { $in: string[] } };
    expect(filter.access.$in).toEqual(["public"]);
    expect(filter.access.$in).not.toContain(accessKey(["partners"]));

    // Were Vectorize to ignore the filter, the engine would still drop the match: it maps ids through the index
    // and checks every document against the reader.
    const query = vectorize.query.bind(vectorize);
    vectorize.query = (vector, options = {}) => query(vector, { ...options, filter: undefined });
    const unfiltered = await search("sem-d", "quibbleflux", fakes);
    expect(unfiltered.total).toBe(0);
    expect(JSON.stringify(unfiltered)).not.toMatch(/xylophonequartz|Partner onboarding/i);
    // A public page about rebates is found the same way.
    const more = { ...extra, "guides/rebates.md": "---\ntitle: Discounts\n---\nPublic rebates for everyone.\n" };
    const third = await uploadContent(token, bundle("gamma", more));
    expect(third.status, JSON.stringify(third.json)).toBe(201);
    const pub = await search("sem-d", "quibbleflux", fakes);
    expect(pub.results.map((x: any) => x.title)).toEqual(["Discounts"]);
    expect(pub.total).toBe(1);
  });

  it("answer by words alone when the semantic side is slower than its budget", async () => {
    const { token, ai, vectorize } = await semanticPortal("sem-e");
    expect((await upload(token, PETS, { api: "pets" })).status).toBe(201);
    ai.hang = true;
    const before = ai.calls.length;
    const slow = await search("sem-e", "vormulent pets", { ai, vectorize });
    expect(ai.calls.length).toBe(before + 1);
    const lexical = await search("sem-e", "vormulent pets");
    expect(slow.results).toEqual(lexical.results);
    expect(slow.total).toBe(lexical.total);
    expect(slow.total).toBeGreaterThan(0);
  });

  it("never read the vectors of a publish that did not go live", async () => {
    const { token, portalId, ai, vectorize } = await semanticPortal("sem-f");
    expect((await upload(token, PETS, { api: "pets" })).status).toBe(201);
    // The D1 batch that would flip the next version fails after its vectors were stored.
    await runInDurableObject(publisherFor(env.PUBLISHER, "sem-f"), (instance: PortalPublisher) => {
      const real = instance.work;
      instance.work = (e, req, attempt) => {
        instance.work = real;
        const db = new Proxy(e.DB, { get: (t, k) => (k === "batch" ? (list: D1PreparedStatement[]) => (list.length >= 4 ? Promise.reject(new Error("D1 unavailable")) : t.batch(list)) : (t as any)[k]?.bind?.(t) ?? (t as any)[k]) });
        return publishDefinition({ ...e, DB: db }, req, attempt);
      };
    });
    const next = PETS.replace("Fetches one pet by its id.", "Adopts one pet by its id.").replace("1.0.0", "2.0.0");
    const before = vectorize.calls.deleteByIds;
    expect((await upload(token, next, { api: "pets" })).status).toBeGreaterThanOrEqual(400);
    // "vormulent" (→ "adopts") finds nothing: the live index does not list its vector ...
    const r = await search("sem-f", "vormulent", { ai, vectorize });
    expect(r.total).toBe(0);
    expect((await search("sem-f", "zantiporous", { ai, vectorize })).results[0].version).toBe("1.0.0");
    // ... and once the failed publish has settled, the vector it stored is deleted; the live ones stay (issue 38).
    const showPet = () => vectorize.ids(namespaceOf(portalId)).filter((id) => vectorize.metadata(id)!.doc === "op:pets:showpetbyid");
    for (let i = 0; i < 50 && showPet().length > 1; i++) await new Promise((res) => setTimeout(res, 100));
    expect(showPet()).toHaveLength(1);
    expect(vectorize.calls.deleteByIds).toBeGreaterThan(before);
    expect(vectorize.ids(namespaceOf(portalId))).toHaveLength(3);
    expect((await search("sem-f", "zantiporous", { ai, vectorize })).results[0].version).toBe("1.0.0");
  });

  it("deletes the vectors of a publish that ran past its deadline, before the next publish starts (issue 38)", async () => {
    const { token, portalId, vectorize } = await semanticPortal("sem-g");
    expect((await upload(token, PETS, { api: "pets" })).status).toBe(201);
    // The next publish stores its vectors, then waits for its body's R2 put (awaited before any D1 write) until
    // its deadline has passed. (12 s: embedding leaves a publish 10 s of its deadline for what follows.)
    await runInDurableObject(publisherFor(env.PUBLISHER, "sem-g"), (instance: PortalPublisher) => {
      const real = instance.work;
      instance.deadlineMs = 12_000;
      instance.work = (e, req, attempt, options) => {
        instance.work = real;
        const untilAbandoned = async () => {
          while (!attempt.aborted) await new Promise((res) => setTimeout(res, 50));
        };
        const stalled = new Proxy(e.DEFINITIONS, { get: (t, k) => (k === "put" ? (...args: unknown[]) => untilAbandoned().then(() => (t.put as any)(...args)) : (t as any)[k]?.bind?.(t) ?? (t as any)[k]) });
        return real({ ...e, DEFINITIONS: stalled }, req, attempt, options);
      };
    });
    const next = PETS.replace("Fetches one pet by its id.", "Adopts one pet by its id.").replace("1.0.0", "2.0.0");
    expect((await upload(token, next, { api: "pets" })).status).toBe(422);
    // The next upload waits in the queue until the abandoned one's vector is gone.
    const third = PETS.replace("1.0.0", "3.0.0");
    expect((await upload(token, third, { api: "pets" })).status).toBe(201);
    const docs = vectorize.ids(namespaceOf(portalId)).map((id) => vectorize.metadata(id)!.doc);
    expect(docs.filter((d) => d === "op:pets:showpetbyid")).toHaveLength(1);
  });
});
