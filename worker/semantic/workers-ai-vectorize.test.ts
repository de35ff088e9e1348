import { describe, expect, it } from "vitest";
import { accessKey, type SemanticItem } from "../search/semantic";
import { FakeEmbeddingModel, FakeVectorize } from "./testing/fakes";
import { EMBEDDING_DIMENSIONS, EMBEDDING_MODEL, filterFor, namespaceOf, workersAiVectorize } from "./workers-ai-vectorize";

const item = (id: string, text: string, labels: string[] = [], locale = "en"): SemanticItem => ({
  id,
  text,
  metadata: { portal: 1, source: "content", kind: "guide", locale, access: accessKey(labels), labels: labels.join(","), doc: `guide:${locale}:${id}` },
});
const FAR_FUTURE = Number.MAX_SAFE_INTEGER;
// The fake's bag-of-words similarities run lower than a real model's; 0.1 keeps related texts, drops unrelated (0).
const setup = (concepts: Record<string, string> = {}, minScore = 0.1) => {
  const ai = new FakeEmbeddingModel(EMBEDDING_MODEL, EMBEDDING_DIMENSIONS, concepts);
  const vectorize = new FakeVectorize();
  return { ai, vectorize, semantic: workersAiVectorize(ai, vectorize, { minScore }) };
};

describe("Workers AI + Vectorize adapter", () => {
  it("embeds in batches of at most 100 and upserts each batch into the portal's namespace with its metadata", async () => {
    const { ai, vectorize, semantic } = setup();
    const items = Array.from({ length: 250 }, (_v, i) => item(`id-${i}`, `document number ${i} about widgets`));
    const outcome = await semantic.store(7, items, FAR_FUTURE);
    expect(outcome.error).toBeUndefined();
    expect(outcome.stored.sort()).toEqual(items.map((i) => i.id).sort());
    expect(ai.calls.map((c) => c.texts.length).sort((a, b) => a - b)).toEqual([50, 100, 100]);
    expect(vectorize.calls.upsert).toBe(3);
    expect(vectorize.ids(namespaceOf(7))).toHaveLength(250);
    expect(vectorize.metadata("id-3")).toMatchObject({ portal: 1, kind: "guide", locale: "en", access: "public", doc: "guide:en:id-3" });
  });

  it("answers the nearest ids within the reader's access keys and locales, never another portal's", async () => {
    const { semantic } = setup({ reimburse: "refund", reimbursement: "refund" });
    await semantic.store(1, [
      item("refund", "Refund a charge. Returns money to the card."),
      item("secret", "Partner refund terms and refund rebates.", ["partners"]),
      item("refund-fr", "Remboursement: refund in French.", [], "fr"),
      item("payout", "Create a payout to your bank."),
    ], FAR_FUTURE);
    await semantic.store(2, [item("other-portal", "Refund refund refund.")], FAR_FUTURE);

    const publicScope = { access: ["public"] };
    const ids = await semantic.query(1, "reimburse", publicScope, 10);
    expect(ids.slice(0, 2).sort()).toEqual(["refund", "refund-fr"]);
    expect(ids).not.toContain("secret");
    expect(ids).not.toContain("other-portal");

    const partner = await semantic.query(1, "reimbursement terms", { access: ["public", accessKey(["partners"])] }, 10);
    expect(partner[0]).toBe("secret");

    const fr = await semantic.query(1, "reimburse", { access: ["public"], locales: ["fr"] }, 10);
    expect(fr).toEqual(["refund-fr"]);
  });

  it("drops matches under the similarity floor: Vectorize answers the nearest vectors however far they are", async () => {
    const { semantic } = setup({ reimburse: "refund" }, 0.1);
    await semantic.store(11, [item("refund", "Refund a charge."), item("payout", "Create a payout to your bank.")], FAR_FUTURE);
    expect(await semantic.query(11, "reimburse", { access: ["public"] }, 10)).toEqual(["refund"]);
    expect(await semantic.query(11, "unrelated words", { access: ["public"] }, 10)).toEqual([]);
    // With the production floor: a two-word text (similarity 0.71) is kept, a five-word one (0.45) is not.
    const strict = setup({ reimburse: "refund" }, 0.5);
    await strict.semantic.store(12, [item("two", "refund charge"), item("five", "refund a charge to cards")], FAR_FUTURE);
    expect(await strict.semantic.query(12, "reimburse", { access: ["public"] }, 10)).toEqual(["two"]);
  });

  it("caches a query's embedding per isolate: the same words again ask the model nothing", async () => {
    const { ai, semantic } = setup();
    await semantic.store(3, [item("a", "alpha beta")], FAR_FUTURE);
    const before = ai.calls.length;
    await semantic.query(3, "cached words zq", { access: ["public"] }, 5);
    await semantic.query(3, "  cached   words zq ", { access: ["public"] }, 5);
    expect(ai.calls.length).toBe(before + 1);
  });

  it("stops at the first failed batch and reports it, keeping what was stored", async () => {
    const { ai, semantic } = setup();
    const items = Array.from({ length: 300 }, (_v, i) => item(`f-${i}`, `text ${i}`));
    let calls = 0;
    const run = ai.run.bind(ai);
    ai.run = async (model, input) => {
      if (++calls === 2) throw new Error("model overloaded");
      return run(model, input);
    };
    const outcome = await semantic.store(4, items, FAR_FUTURE);
    expect(String(outcome.error)).toContain("model overloaded");
    expect(outcome.stored.length).toBeLessThan(300);
    expect(outcome.stored.length % 100).toBe(0);
    expect(outcome.skipped).toBe(300 - outcome.stored.length);
  });

  it("refuses a model answer of the wrong shape, and gives up on a hanging model at `until`", async () => {
    const bad = new FakeEmbeddingModel(EMBEDDING_MODEL, 512);
    const wrong = await workersAiVectorize(bad, new FakeVectorize()).store(5, [item("x", "text")], FAR_FUTURE);
    expect(String(wrong.error)).toContain("1024");
    expect(wrong.stored).toEqual([]);

    const { ai, vectorize, semantic } = setup();
    ai.hang = true;
    const hung = await semantic.store(5, [item("y", "text")], Date.now() + 50);
    expect(hung.stored).toEqual([]);
    expect(String(hung.error)).toMatch(/no answer within/);
    expect(vectorize.calls.upsert).toBe(0);
  });

  it("deletes by id in batches of at most 1,000", async () => {
    const { vectorize, semantic } = setup();
    const items = Array.from({ length: 1200 }, (_v, i) => item(`d-${i}`, `doc ${i}`));
    await semantic.store(6, items, FAR_FUTURE);
    await semantic.remove(6, items.slice(0, 1100).map((i) => i.id));
    expect(vectorize.ids()).toHaveLength(100);
    expect(vectorize.calls.deleteByIds).toBe(2);
  });
});

describe("the reader filter", () => {
  it("is access $in, plus locale $in when a locale was asked; clauses past 2,048 bytes are dropped, access first", () => {
    expect(filterFor({ access: ["public"] })).toEqual({ access: { $in: ["public"] } });
    expect(filterFor({ access: ["public"], locales: ["fr", "fr-CA"] })).toEqual({ locale: { $in: ["fr", "fr-CA"] }, access: { $in: ["public"] } });
    const many = Array.from({ length: 100 }, (_v, i) => accessKey([`l${i}`]));
    expect(filterFor({ access: many, locales: ["de"] })).toEqual({ locale: { $in: ["de"] } });
    expect(filterFor({ access: many })).toBeUndefined();
  });

  it("is one the fake Vectorize accepts, and the fake refuses what Vectorize refuses", async () => {
    const v = new FakeVectorize(4, ["access"]);
    await v.upsert([{ id: "a", values: [1, 0, 0, 0], metadata: { access: "public" } }]);
    await expect(v.query([1, 0, 0, 0], { filter: { locale: "en" } })).rejects.toThrow(/metadata index/);
    await expect(v.query([1, 0, 0, 0], { filter: { $or: [] } as never })).rejects.toThrow();
    await expect(v.query([1, 0, 0, 0], { topK: 101 })).rejects.toThrow(/topK/);
    await expect(v.query([1, 0, 0, 0], { topK: 21, returnMetadata: "all" })).rejects.toThrow(/topK/);
    await expect(v.upsert([{ id: "x".repeat(65), values: [1, 0, 0, 0] }])).rejects.toThrow(/64 bytes/);
    expect((await v.query([1, 0, 0, 0], { filter: { access: { $in: ["public"] } } })).matches.map((m) => m.id)).toEqual(["a"]);
    expect((await v.query([1, 0, 0, 0], { filter: { access: { $nin: ["public"] } } })).matches).toEqual([]);
  });
});
