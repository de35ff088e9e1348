import { describe, expect, it } from "vitest";
import { PAGE_WEIGHT } from "../openapi/budgets";
import { renderOperationFragment, renderOperationPage } from ".";
import type { CodeSamplesProps } from "../../client/islands/types";
import { withBodyFromCode } from "../openapi/samples/body-in-code";
import { examplePreview } from "./components/defer";
import { duplicateIds, elements } from "./testing/html";
import { bigExample, heavyDefinition } from "./testing/heavy";
import { buildText, pageProps } from "./testing/reference";

const ref = buildText(heavyDefinition());
const op = ref.operations[0]!;
const href = (id: string) => `/p/acme/reference/pets/1.0/${op.slug}/fragments/${id}?m=0123456789abcdef`;
const props = { ...pageProps(), header: ref.header, slice: ref.slice(op.slug), nav: ref.operations };
const fragmentProps = { ...props, fragmentHref: href, operationHref: `/p/acme/reference/pets/1.0/${op.slug}` };

/** A page's schema part: up to the examples panel. */
const article = (html: string) => html.slice(0, html.indexOf('<aside class="op-x"'));

/** The fragment ids a page or fragment links to. */
const linkedIds = (html: string) => elements(html).filter((e) => e.tag === "p" && e.attrs["data-frag"]).map((e) => /fragments\/([0-9.]+)\?/.exec(e.attrs["data-frag"]!)![1]!);

describe("page weight: schema bodies past the inline budget load from fragments", () => {
  it("keeps the page light, and every property is on the page or in a fragment it links to (fragments link on)", () => {
    const whole = renderOperationPage(props);
    const light = renderOperationPage({ ...props, fragmentHref: href });
    expect(light.length).toBeLessThan(whole.length / 2);
    const ids = linkedIds(light);
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual(ids.map((_, i) => String(i)));
    expect(light).toContain(`<a href="${href("0").replaceAll("&", "&amp;")}">Show 8 properties</a>`);

    // Walk every fragment the page links to, and the fragments they link to (the article only: the examples
    // panel's generated example names every field anyway).
    let text = article(light);
    const queue = [...ids];
    while (queue.length > 0) {
      const id = queue.shift()!;
      const html = renderOperationFragment(fragmentProps, id);
      expect(html, `fragment ${id}`).toBeDefined();
      expect(duplicateIds(html!)).toEqual([]);
      expect(html).toContain(`href="${fragmentProps.operationHref}"`);
      text += html;
      const more = linkedIds(html!);
      for (const m of more) expect(m.startsWith(`${id}.`)).toBe(true);
      queue.push(...more);
    }
    for (let g = 0; g < 40; g++) for (let i = 0; i < 8; i++) expect(text).toContain(`leaf_${g}_${i}`);
    for (const v of ["alpha", "beta"]) for (let i = 0; i < 30; i++) expect(text).toContain(`${v}_inner_${i}`);
    // Without fragments the same page inlines everything.
    expect(linkedIds(whole)).toEqual([]);
    expect(whole).toContain("leaf_39_7");
  });

  it("spends the budget in document order: the first bodies inline, the later ones deferred", () => {
    const light = article(renderOperationPage({ ...props, fragmentHref: href }));
    expect(light).toContain("leaf_0_0");
    expect(light).not.toContain("leaf_39_7");
    expect(light).toContain("group_39");
    expect(PAGE_WEIGHT.inlineSchemaBytes).toBeLessThan(light.length);
  });

  it("answers undefined for a body the page does not have", () => {
    expect(renderOperationFragment(fragmentProps, "9999")).toBeUndefined();
    expect(renderOperationFragment(fragmentProps, "0.9999")).toBeUndefined();
  });
});

describe("page weight: a page like GitHub's heaviest stays under 60 KB", () => {
  const pub = ref.operations.find((o) => o.slug === "publishthing")!;
  const pubHref = (id: string) => `/p/acme/reference/pets/1.0/${pub.slug}/fragments/${id}?m=0123456789abcdef`;
  // As the reader route renders it: the Authorize control (no key entered), variables, fragments.
  const pubProps = {
    ...pageProps(), header: ref.header, slice: ref.slice(pub.slug), nav: ref.operations,
    authorize: { action: "/p/acme/auth/api-key", clearAction: "/p/acme/auth/api-key/clear", returnTo: "/p/acme/reference/pets/1.0/publishthing" },
    variables: { api_key: "reader-key-123" },
  };
  const bytes = (html: string) => new TextEncoder().encode(html).length;
  const pretty = (label: string) => JSON.stringify(bigExample(label), null, 2);
  /** The deferred examples' placeholders: their fragment URL and link text. */
  const deferredExamples = (html: string) => elements(html).filter((e) => e.tag === "div" && e.attrs.class === "df" && e.attrs["data-frag"]).map((e) => e.attrs["data-frag"]!);

  it("is over 60 KB whole, and at most 60 × 1024 UTF-8 bytes as served", () => {
    expect(bytes(renderOperationPage(pubProps))).toBeGreaterThan(60 * 1024);
    const light = renderOperationPage({ ...pubProps, fragmentHref: pubHref });
    expect(bytes(light)).toBeLessThanOrEqual(60 * 1024);
    expect(duplicateIds(light)).toEqual([]);
    // Deferring schema bodies alone would not do: with its three long examples inline it would be over.
    const previews = elements(light).filter((e) => e.tag === "div" && e.attrs.class === "df").length * PAGE_WEIGHT.examplePreviewChars;
    expect(bytes(light) - previews + bytes(pretty("current")) + bytes(pretty("published")) + bytes(pretty("queued"))).toBeGreaterThan(60 * 1024);
  });

  it("cuts a preview at a line end, or inside a first line longer than the preview", () => {
    expect(examplePreview("a\nb\nc")).toBe("a\nb\nc\n…");
    const long = Array.from({ length: 100 }, (_, i) => `line ${i} `.padEnd(100, "y")).join("\n");
    const preview = examplePreview(long);
    expect(preview.length).toBeLessThanOrEqual(PAGE_WEIGHT.examplePreviewChars + 2);
    expect(preview.split("\n").slice(0, -1).every((l) => l.length === 100)).toBe(true);
    expect(examplePreview("z".repeat(5000))).toBe(`${"z".repeat(PAGE_WEIGHT.examplePreviewChars)}\n…`);
  });

  it("shows a long example's first lines and links the whole (past the page's example budget)", () => {
    const light = renderOperationPage({ ...pubProps, fragmentHref: pubHref });
    const aside = light.slice(light.indexOf('<aside class="op-x"'));
    expect(deferredExamples(aside)).toEqual([pubHref("x0"), pubHref("x1"), pubHref("x2")]);
    const lines = pretty("current").split("\n").length;
    expect(aside).toContain(`<a href="${pubHref("x0").replaceAll("&", "&amp;")}">Show the whole example (${lines} lines, `);
    // The preview is the example's start; its end is only in the fragment.
    expect(aside).toContain(pretty("current").split("\n").slice(0, 10).join("\n").replaceAll("&", "&amp;").replaceAll("<", "&lt;"));
    expect(aside).not.toContain("last_field_of_current");
    expect(aside).not.toContain("last_field_of_published");
    expect(aside).not.toContain("last_field_of_queued");
    // The request example is short: inline, with its copy button.
    expect(aside).toContain("hello-world");
  });

  it("serves each deferred example whole from its fragment, with a copy button for the whole", () => {
    const light = renderOperationPage({ ...pubProps, fragmentHref: pubHref });
    const props = { ...pubProps, variables: undefined, authorize: undefined, fragmentHref: pubHref, operationHref: `/p/acme/reference/pets/1.0/${pub.slug}` };
    for (const [id, label] of [["x0", "current"], ["x1", "published"], ["x2", "queued"]] as const) {
      const html = renderOperationFragment(props, id)!;
      expect(html, id).toBeDefined();
      const body = html.slice(html.indexOf("data-frag-body"));
      expect(body).toContain(pretty(label).replaceAll("&", "&amp;").replaceAll("<", "&lt;"));
      const code = elements(body).find((e) => e.tag === "code")!;
      expect(code.attrs.id).toMatch(/^x/);
      // The code keeps an id no element of the page uses, and the copy button targets it.
      expect(elements(light).some((e) => e.attrs.id === code.attrs.id)).toBe(false);
      const copy = elements(body).find((e) => e.attrs["data-island"] === "copy")!;
      expect(JSON.parse(copy.attrs["data-props"]!)).toEqual({ target: code.attrs.id });
    }
    expect(renderOperationFragment(props, "x3")).toBeUndefined();
  });

  it("never defers an example carrying a reader's {{name}} value, and fills it", () => {
    const light = renderOperationPage({ ...pubProps, fragmentHref: pubHref });
    expect(light).toContain("reader-key-123");
    expect(light).toContain("placeholder_field_59");
    expect(light).not.toContain("{{api_key}}");
  });

  it("inlines every example when the page has no fragment URLs (previews, single page)", () => {
    const whole = renderOperationPage(pubProps);
    expect(deferredExamples(whole)).toEqual([]);
    expect(whole).toContain("last_field_of_published");
    expect(whole).toContain("last_field_of_queued");
  });
});

describe("page weight: the request body is not repeated in the code samples' props", () => {
  it("leaves it out of the props, and the island reads it back from the cURL code exactly", () => {
    const pub = ref.operations.find((o) => o.slug === "publishthing")!;
    const page = renderOperationPage({ ...pageProps(), header: ref.header, slice: ref.slice(pub.slug), nav: ref.operations });
    const island = elements(page).find((e) => e.attrs["data-island"] === "code-samples")!;
    const wire = JSON.parse(island.attrs["data-props"]!) as CodeSamplesProps;
    expect(wire.bodyInCode).toBe(true);
    expect(wire.input.body).toEqual({ mimeType: "application/json", text: "" });
    // The cURL code as the browser reads it (entities decoded).
    const code = /<code id="publishthing-sample-code"[^>]*>([\s\S]*?)<\/code>/.exec(page)![1]!.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");
    expect(withBodyFromCode(wire.input, code).body).toEqual({ mimeType: "application/json", text: JSON.stringify({ repository: "hello-world", private: false }) });
  });
});
