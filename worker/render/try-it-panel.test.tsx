import { describe, expect, it } from "vitest";
import type { TryItProps } from "../../client/islands/types";
import { renderOperationPage, renderSinglePage } from ".";
import { elements } from "./testing/html";
import { buildFile, pageProps, sameTag, streamText } from "./testing/reference";

const demo = buildFile("./demo/definition.yaml");

function tryIslands(html: string): { props: TryItProps; raw: string }[] {
  return elements(html).filter((e) => e.attrs["data-island"] === "try-it").map((e) => ({ props: JSON.parse(e.attrs["data-props"]!) as TryItProps, raw: e.attrs["data-props"]! }));
}

describe("the Try-it panel on reference pages", () => {
  it("sits in the examples column of an operation page, closed, carrying only its URLs", () => {
    const op = demo.operations.find((o) => o.slug === "createshipment")!;
    const html = renderOperationPage({ ...pageProps(), header: demo.header, slice: demo.slice(op.slug), nav: sameTag(demo, op) });
    const islands = tryIslands(html);
    expect(islands.map((i) => i.props)).toEqual([{ spec: "/p/acme/reference/pets/1.0/createshipment/try.json", base: "/p/acme", samples: "createshipment-sample" }]);
    expect(islands[0]!.raw.length).toBeLessThan(200);
    const aside = html.slice(html.indexOf('<aside class="op-x"'));
    expect(aside).toContain('data-island="try-it"');
    expect(aside).toContain('<button type="button" class="try-open">Try it</button>');
  });

  it("is on every operation of the single page too (its spec at the operation's own URL), never on webhooks or callbacks", async () => {
    const slices = (async function* () { for (const o of demo.operations) yield demo.slice(o.slug); })();
    const html = await streamText(renderSinglePage({ ...pageProps("single-page"), header: demo.header, operations: demo.operations, slices }));
    const islands = tryIslands(html);
    const operations = demo.operations.filter((o) => o.kind === "operation");
    expect(operations.length).toBeLessThan(demo.operations.length);
    expect(islands.map((i) => i.props.spec)).toEqual(operations.map((o) => `/p/acme/reference/pets/1.0/${o.slug}/try.json`));
  });
});
