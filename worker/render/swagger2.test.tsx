import { describe, expect, it } from "vitest";
import type { CodeSamplesProps } from "../../client/islands/types";
import { renderOperationPage, renderVersionIndex } from ".";
import { codeSampleProps, elements } from "./testing/html";
import { buildFile, pageProps, sameTag } from "./testing/reference";

describe("Swagger 2.0 (readme petstore, upgraded to 3.0 by the publish core)", () => {
  const ref = buildFile("readme-oas-examples/2.0/yaml/petstore.yaml");

  it("shows the server built from host, basePath and schemes, and says where the definition came from", () => {
    const html = renderVersionIndex({ ...pageProps(), header: ref.header, operations: ref.operations });
    expect(html).toContain('<code class="url">http://petstore.swagger.io/v2</code>');
    expect(html).toContain("(upgraded from Swagger 2.0)");
    expect(html).toContain("<h4>Implicit flow</h4>");
  });

  it("samples use that server and the operation's OAuth 2.0 requirement", () => {
    const op = ref.bySummary("post", "/pet");
    const html = renderOperationPage({ ...pageProps(), header: ref.header, slice: ref.slice(op.slug), nav: sameTag(ref, op) });
    const props = JSON.parse(elements(html).find((e) => e.attrs["data-island"] === "code-samples")!.attrs["data-props"]) as CodeSamplesProps;
    expect(props.input.servers[0].url).toBe("http://petstore.swagger.io/v2");
    expect(props.input.auth[0].value).toBe("Bearer YOUR_TOKEN");
    expect(html).toContain("curl http://petstore.swagger.io/v2/pet \\\n  --request POST");
  });
});

describe("one resolver: the page's first request example is the body the code sample sends", () => {
  const ref = buildFile("./demo/definition.yaml");
  it("shows no separate request example when the sample already carries the only one", () => {
    const op = ref.operations.find((o) => o.slug === "addparcel")!;
    const html = renderOperationPage({ ...pageProps(), header: ref.header, slice: ref.slice(op.slug), nav: sameTag(ref, op) });
    const aside = html.slice(html.indexOf("<aside"), html.indexOf("</aside>"));
    expect(aside.slice(0, aside.indexOf(">Response<"))).not.toContain('<div class="ex">');
  });
  for (const slug of ["createshipment", "quoterates"]) {
    it(slug, () => {
      const op = ref.operations.find((o) => o.slug === slug)!;
      const html = renderOperationPage({ ...pageProps(), header: ref.header, slice: ref.slice(slug), nav: sameTag(ref, op) });
      const props = codeSampleProps(html)[0]!;
      const shown = /<div class="ex">[\s\S]*?<pre tabindex="0"><code id="[^"]+">([\s\S]*?)<\/code><\/pre>/.exec(html.slice(html.indexOf("<aside")))?.[1];
      const text = shown!.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
      expect(JSON.parse(text)).toEqual(JSON.parse(props.input.body!.text!));
    });
  }
});
