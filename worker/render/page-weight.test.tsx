import { describe, expect, it } from "vitest";
import { PAGE_WEIGHT } from "../openapi/budgets";
import { renderOperationFragment, renderOperationPage } from ".";
import { duplicateIds, elements } from "./testing/html";
import { heavyDefinition } from "./testing/heavy";
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
