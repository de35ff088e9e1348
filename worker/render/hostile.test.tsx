import { describe, expect, it } from "vitest";
import type { CodeSamplesProps } from "../../client/islands/types";
import { EXAMPLE_BUDGET, TEXT_BUDGET, VIEW_BUDGET } from "../openapi/budgets";
import { renderMarkdown } from "./markdown";
import { lintDocument } from "../openapi/lint";
import type { OperationSlice } from "../openapi/model/types";
import { denseGraphDoc } from "../openapi/schema-view/testing/hostile";
import { renderOperationPage } from ".";
import { codeSampleProps, danglingFragments, duplicateIds, elements } from "./testing/html";
import { buildText, pageProps, sameTag, type TestReference } from "./testing/reference";

function page(ref: TestReference, slug: string, slice: OperationSlice = ref.slice(slug)) {
  const op = ref.operations.find((o) => o.slug === slug)!;
  return renderOperationPage({ ...pageProps(), header: ref.header, slice, nav: sameTag(ref, op), canonicalUrl: `https://docs.example/p/acme/reference/pets/1.0/${slug}` });
}

function notes(html: string): string[] {
  return [...html.matchAll(/role="note">([^<]*)</g)].map((m) => m[1]);
}

function sampleProps(html: string): CodeSamplesProps {
  return codeSampleProps(html)[0]!;
}

describe("hostile definitions (issue 14): a request body with huge minLength / minItems", () => {
  for (const bound of ["400000000", "1e9", "1e12", "1e308"]) {
    it(`renders the page with a short generated example marked truncated (${bound})`, () => {
      const ref = buildText(`
openapi: 3.0.3
info: { title: T, version: "1" }
paths:
  /x:
    post:
      operationId: postX
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                name: { type: string, minLength: ${bound} }
                tags: { type: array, minItems: ${bound}, items: { type: string, minLength: ${bound} } }
      responses:
        "200":
          description: OK
          content: { application/json: { schema: { type: array, minItems: ${bound}, items: { type: integer } } } }
`);
      const html = page(ref, "postx");
      expect(html.length).toBeLessThan(100_000);
      const sent = JSON.parse(sampleProps(html).input.body!.text!) as { name: string; tags: string[] };
      expect(sent.name.length).toBeLessThanOrEqual(EXAMPLE_BUDGET.maxStringLength);
      expect(sent.tags.length).toBeLessThanOrEqual(EXAMPLE_BUDGET.maxItems);
      expect(notes(html).filter((n) => n.startsWith("example truncated")).length).toBe(2); // request sample, response example
      expect(html).toContain(`length ≥ ${Number(bound)}`);
    });
  }
});

describe("hostile definitions (issue 14): the dense graph (500 schemas × 20 references, 2,000 operations)", () => {
  const ref = buildText(JSON.stringify(denseGraphDoc()));

  it("renders an operation's page within the page budget, degraded but valid, with the cut said", () => {
    for (const slug of ["op0", "op1999"]) {
      const html = page(ref, slug);
      const rows = (html.match(/<li/g) ?? []).length;
      expect(rows).toBeLessThanOrEqual(VIEW_BUDGET.maxNodesPerPage + 100);
      expect(html.length).toBeLessThan(1_500_000);
      expect(notes(html)).toContain("schema shown to depth 24");
      expect(notes(html).some((n) => /^\d+ more fields? not shown$/.test(n))).toBe(true);
      expect(html).toContain("Same as S");
      expect(duplicateIds(html)).toEqual([]);
      expect(danglingFragments(html)).toEqual([]);
      expect(html.endsWith("</html>\n") || html.endsWith("</html>")).toBe(true);
    }
  });
});

describe("hostile definitions (issue 14): a catastrophic pattern with an example", () => {
  const attack = "a".repeat(40_000) + "!";
  const text = JSON.stringify({
    openapi: "3.0.3", info: { title: "T", version: "1" },
    paths: { "/x": { post: { operationId: "postX", requestBody: { content: { "application/json": { schema: {
      type: "object", properties: { code: { type: "string", pattern: "^(a+)+$", example: attack } },
    } } } }, responses: { 200: { description: "OK" } } } } },
  });

  it("renders the page with the pattern and the example, and lint reports the mismatch on the linear-time matcher", () => {
    const html = page(buildText(text), "postx");
    expect(html).toContain("pattern ^(a+)+$");
    expect(JSON.parse(sampleProps(html).input.body!.text!)).toEqual({ code: attack });
    const found = lintDocument(text).problems.filter((p) => p.rule === "oas3-valid-schema-example");
    expect(found.map((p) => p.message)).toEqual(['"example" property must match pattern "^(a+)+$"']);
  });
});

describe("a page whose operation cannot be rendered", () => {
  it("renders a degraded page with the operation's title and a note, never throws", () => {
    const ref = buildText(JSON.stringify({ openapi: "3.0.3", info: { title: "T", version: "1" }, paths: { "/x": { get: { operationId: "getX", summary: "Get X", responses: { 200: { description: "OK" } } } } } }));
    // A slice whose operation is not an object (a corrupted store entry): every component that reads it would throw.
    const broken = { ...ref.slice("getx"), operation: null } as unknown as OperationSlice;
    const html = page(ref, "getx", broken);
    expect(html).toContain("<h1");
    expect(html).toContain("Get X");
    expect(notes(html)).toEqual(["This operation's details are too large to show within this page's limits."]);
  });
});

describe("hostile definitions (issue 14): a 2.5 MB description", () => {
  it("renders its first part with a note saying how much is not shown (the long fuzz run's slowest page)", () => {
    const description = "<a href='x'>".repeat(Math.ceil(2_500_000 / 12));
    const html = renderMarkdown(description);
    const note = /role="note">description truncated: (\d+) more characters not shown</.exec(html);
    expect(note).not.toBeNull();
    expect(Number(note![1])).toBe(description.length - TEXT_BUDGET.maxMarkdownChars);
    expect(html.length).toBeLessThan(4 * TEXT_BUDGET.maxMarkdownChars);
    expect(renderMarkdown("A *short* one.")).toBe("<p>A <em>short</em> one.</p>\n");
  });
});
