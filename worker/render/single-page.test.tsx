import { describe, expect, it } from "vitest";
import type { OperationSlice } from "../openapi/model/types";
import { renderSinglePage } from ".";
import { danglingFragments, duplicateIds, elements } from "./testing/html";
import { buildFile, pageProps, streamText } from "./testing/reference";

const ref = buildFile("./demo/definition.yaml");
const props = { ...pageProps("single-page"), header: ref.header, operations: ref.operations };

describe("renderSinglePage", () => {
  it("sends head and navigation before asking for the first slice", async () => {
    let requested = 0;
    const slices = (async function* () {
      for (const o of ref.operations) {
        requested++;
        yield ref.slice(o.slug);
      }
    })();
    const reader = renderSinglePage({ ...props, slices }).getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(requested).toBe(0);
    expect(first.startsWith("<!doctype html>")).toBe(true);
    expect(first).toContain('<nav class="side"');
    expect(first).toContain('<main id="main">');
    const second = new TextDecoder().decode((await reader.read()).value);
    expect(requested).toBe(1);
    expect(second).toContain(`<article class="op" id="${ref.operations[0].slug}"`);
    await reader.cancel();
  });

  it("writes one section per operation (id = slug), tag headings, and a page without duplicate ids", async () => {
    const html = await streamText(renderSinglePage({ ...props, slices: (async function* () { for (const o of ref.operations) yield ref.slice(o.slug); })() }));
    const articles = elements(html).filter((e) => e.tag === "article").map((e) => e.attrs.id);
    expect(articles).toEqual(ref.operations.map((o) => o.slug));
    // A tag seen again later in stream order gets a repeated heading without an id.
    expect(elements(html).filter((e) => e.attrs.class === "tag-h" && e.attrs.id).map((e) => e.attrs.id)).toEqual(
      ["tag-shipments", "tag-parcels", "tag-labels", "tag-tracking", "tag-rates", "tag-locations", "tag-pickups", "tag-webhooks", "webhooks", "callbacks"]);
    expect(duplicateIds(html)).toEqual([]);
    expect(danglingFragments(html)).toEqual([]);
    expect(html.endsWith("</body>\n</html>\n")).toBe(true);
    // Navigation links stay on the page.
    expect(elements(html).some((e) => e.tag === "a" && e.attrs.href === "#createshipment")).toBe(true);
  });

  it("turns a slice that cannot be rendered into a notice and carries on", async () => {
    const bad = { ...ref.slice(ref.operations[0].slug), operation: null } as unknown as OperationSlice;
    const html = await streamText(renderSinglePage({ ...props, slices: (async function* () { yield bad; yield ref.slice(ref.operations[1].slug); })() }));
    expect(html).toContain("This operation could not be rendered.");
    expect(html).toContain(`<article class="op" id="${ref.operations[1].slug}"`);
  });

  it("closes the document when the slice source fails", async () => {
    const html = await streamText(renderSinglePage({ ...props, slices: (async function* () { yield ref.slice(ref.operations[0].slug); throw new Error("KV down"); })() }));
    expect(html).toContain('role="alert">The rest of this reference could not be loaded.</p></main></div>');
    expect(html.endsWith("</html>\n")).toBe(true);
  });
});
