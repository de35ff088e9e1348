import { describe, expect, it, vi } from "vitest";
import { denseGraphDoc } from "../openapi/schema-view/testing/hostile";
import { renderSinglePage } from ".";
import { duplicateIds } from "./testing/html";
import { buildText, pageProps, streamText } from "./testing/reference";

// A small single-page budget, so that a few operations of the dense graph spend it (the real one is 250,000 nodes).
vi.mock("../openapi/budgets", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../openapi/budgets")>();
  return { ...actual, VIEW_BUDGET: { ...actual.VIEW_BUDGET, maxNodesPerSinglePage: 5_000 } };
});

describe("renderSinglePage within one budget for the whole page", () => {
  it("shows the first operations' schemas and cuts the later ones with a note, every operation still listed", async () => {
    const ref = buildText(JSON.stringify(denseGraphDoc(500, 20, 12)));
    const slices = (async function* () {
      for (const o of ref.operations) yield ref.slice(o.slug);
    })();
    const html = await streamText(renderSinglePage({ ...pageProps("single-page"), header: ref.header, operations: ref.operations, slices }));
    const articles = html.split('<article class="op"').slice(1);
    expect(articles.length).toBe(12);
    const rows = articles.map((a) => (a.match(/<li/g) ?? []).length);
    expect(rows[0]).toBeGreaterThan(1_000);
    expect(rows[11]).toBeLessThan(50);
    expect(articles[11]).toContain("not expanded: this page already shows as much of the schema as its budget allows");
    expect(rows.reduce((a, b) => a + b, 0)).toBeLessThan(5_000 + 12 * 50);
    expect(duplicateIds(html)).toEqual([]);
  });
});
