import { describe, expect, it } from "vitest";
import type { CodeSamplesProps } from "../../client/islands/types";
import { withBodyFromCode } from "../openapi/samples/body-in-code";
import { renderOperationPage } from ".";
import { danglingFragments, duplicateIds, elements, firstText } from "./testing/html";
import { deepFreeze } from "../store/models";
import { buildFile, buildText, pageProps, sameTag, type TestReference } from "./testing/reference";

const demo = buildFile("./demo/definition.yaml");

function page(ref: TestReference, slug: string, props = pageProps()) {
  const op = ref.operations.find((o) => o.slug === slug)!;
  return renderOperationPage({ ...props, header: ref.header, slice: ref.slice(slug), nav: sameTag(ref, op), canonicalUrl: `https://docs.example/p/acme/reference/pets/1.0/${slug}` });
}

function islandProps<T>(html: string, name: string): T[] {
  return elements(html).filter((e) => e.attrs["data-island"] === name).map((e) => JSON.parse(e.attrs["data-props"]) as T);
}

/** The HTML of the section whose heading has id `id` (up to the next </section>). */
function section(html: string, id: string): string {
  const start = html.indexOf(`id="${id}"`);
  return start < 0 ? "" : html.slice(start, html.indexOf("</section>", start));
}

describe("renderOperationPage: document", () => {
  const html = page(demo, "createshipment");

  it("is a full document with title, description, canonical link and Open Graph tags", () => {
    expect(html.startsWith("<!doctype html>\n<html lang=\"en\">")).toBe(true);
    expect(firstText(html, "title")).toBe("Create a shipment · Parcel Logistics API 1.0 · Acme Docs");
    const metas = elements(html).filter((e) => e.tag === "meta");
    expect(metas.find((m) => m.attrs.name === "description")?.attrs.content).toMatch(/^Creates a shipment in draft status\./);
    expect(elements(html).find((e) => e.tag === "link" && e.attrs.rel === "canonical")?.attrs.href).toBe("https://docs.example/p/acme/reference/pets/1.0/createshipment");
    expect(metas.filter((m) => m.attrs.property?.startsWith("og:")).map((m) => m.attrs.property)).toEqual(["og:type", "og:title", "og:site_name", "og:description", "og:url"]);
  });

  it("has landmarks, one h1, a skip link and no duplicate ids or dangling fragment links", () => {
    const tags = elements(html).map((e) => e.tag);
    for (const t of ["header", "nav", "main", "footer", "aside"]) expect(tags, t).toContain(t);
    expect(tags.filter((t) => t === "h1").length).toBe(1);
    expect(elements(html).find((e) => e.attrs.class === "skip")?.attrs.href).toBe("#main");
    expect(duplicateIds(html)).toEqual([]);
    expect(danglingFragments(html)).toEqual([]);
  });

  it("lists the operation's security requirements with scopes and links to the scheme", () => {
    const auth = section(html, "op-auth");
    expect(auth).toContain("<strong>oauth2</strong></a> <span class=\"bd\">OAuth 2.0</span> scopes: <code>shipments:write</code>");
    expect(auth).toContain('href="/p/acme/reference/pets/1.0/#security-apiKey"');
  });

  it("keeps readOnly properties out of the request body and writeOnly ones out of responses", () => {
    const body = section(html, "op-body");
    expect(body).toContain("<code>callbackUrl</code>");
    expect(body).not.toMatch(/<code>createdAt<\/code>/);
    const responses = section(html, "op-responses");
    expect(responses).toContain("<code>createdAt</code>");
    expect(responses).not.toContain("<code>callbackUrl</code>");
  });

  it("links each callback to its own page", () => {
    expect(section(html, "op-callbacks")).toContain('href="/p/acme/reference/pets/1.0/createshipment-callback-statuschanged-post"');
  });

  it("embeds the code-sample island with the request the page documents", () => {
    const [props] = islandProps<CodeSamplesProps>(html, "code-samples");
    expect(props.input.method).toBe("POST");
    expect(props.input.path).toBe("/shipments");
    expect(props.input.auth).toEqual([{ scheme: "oauth2", placement: "header", name: "Authorization", value: "Bearer YOUR_TOKEN", placeholder: "YOUR_TOKEN" }]);
    expect(props.input.servers.map((s) => s.url)).toEqual(["https://{region}.api.parcel-logistics.example/{basePath}", "https://sandbox.parcel-logistics.example/{basePath}"]);
    // The body is in the page's cURL code, which the island reads it back from (page weight: not in the props twice).
    expect(props.bodyInCode).toBe(true);
    const code = /<code id="createshipment-sample-code"[^>]*>([\s\S]*?)<\/code>/.exec(html)![1]!.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&amp;", "&");
    const sent = JSON.parse(withBodyFromCode(props.input, code).body!.text!);
    expect(sent.id).toBeUndefined();
    expect(html).toContain("curl https://eu.api.parcel-logistics.example/v2/shipments \\\n  --request POST \\\n  --header &#39;Authorization: Bearer YOUR_TOKEN&#39;".replace(/&#39;/g, "'"));
  });

  it("offers version links that keep the operation and API links to each reference", () => {
    const links = elements(html).filter((e) => e.tag === "a").map((e) => e.attrs.href);
    expect(links).toContain("/p/acme/reference/pets/2.0-beta/createshipment");
    expect(links).toContain("/p/acme/reference/billing/");
  });
});

describe("renderOperationPage: schemas", () => {
  it("shows a recursive schema once, with a link back to where it first appears", () => {
    const html = page(demo, "getlocation");
    const cycle = elements(html).find((e) => e.tag === "a" && e.attrs.class === "cy");
    expect(cycle?.attrs.href).toMatch(/^#s\d+-1$/);
    expect(elements(html).some((e) => e.attrs.id === cycle!.attrs.href.slice(1) && e.attrs.class === "sc")).toBe(true);
    expect(html.match(/<p class="h"><code>children<\/code>/g)?.length).toBe(1);
  });

  it("renders oneOf variants as named radio tabs with discriminator values and the mapping", () => {
    const html = page(demo, "listtrackingevents");
    const group = elements(html).filter((e) => e.tag === "input" && e.attrs.type === "radio");
    expect(group.length).toBeGreaterThanOrEqual(3);
    // Named by the discriminator value the mapping gives them (before the component name).
    expect(html).toMatch(/<label for="v[0-9a-z]+-0">in_transit<\/label><div class="vp"[^>]*><p class="h"><i>object<\/i><i class="n">TransitEvent<\/i>/);
    expect(html).toContain("<span class=\"fl\">Mapping:</span> <code>in_transit</code> → TransitEvent, <code>delivered</code> → DeliveryEvent, <code>exception</code> → ExceptionEvent");
  });

  it("names anyOf options by title", () => {
    const html = page(demo, "quoterates");
    expect(html).toMatch(/aria-label="Any of"/);
    expect(html).toMatch(/<label for="v[0-9a-z]+-0">Postal code<\/label>/);
    expect(html).toMatch(/<label for="v[0-9a-z]+-1">Location<\/label>/);
  });

  it("shows enum descriptions (x-enum-descriptions) next to their values", () => {
    const html = page(demo, "listtrackingevents");
    expect(html).toContain('<dt><code>"recipient_absent"</code></dt><dd>Nobody was home; a second attempt is usually scheduled.</dd>');
  });

  it("folds a long list of allowed values after the first 40, every value still on the page", () => {
    const values = Array.from({ length: 45 }, (_, i) => `v${i}`);
    const ref = buildText(`
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /x:
    get:
      operationId: getX
      parameters: [{ name: one, in: query, schema: { type: string, enum: [${values.join(", ")}] } }]
      responses: { "200": { description: OK } }
`);
    const html = page(ref, "getx");
    const shown = html.slice(html.indexOf("Allowed:"), html.indexOf("</details>", html.indexOf("Allowed:")));
    expect(shown.match(/<code>"v\d+"<\/code>/g)).toEqual(values.map((v) => `<code>"${v}"</code>`));
    expect(shown).toContain('<code>"v39"</code></p><details><summary>5 more allowed values</summary><p class="fa"><code>"v40"</code>');
  });

  it("shows the allowed values, format and bounds of an array's scalar items", () => {
    const ref = buildText(`
openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /x:
    get:
      operationId: getX
      parameters: [{ name: kinds, in: query, schema: { type: array, items: { type: string, enum: [alpha, beta] } } }]
      responses:
        "200":
          description: OK
          content:
            application/json:
              schema: { type: array, items: { type: string, format: date, maxLength: 10 } }
`);
    const html = page(ref, "getx");
    const params = html.slice(html.indexOf('id="op-parameters"'), html.indexOf('id="op-responses"'));
    expect(params).toContain("Items:");
    expect(params).toContain('<code>"alpha"</code>');
    expect(params).toContain('<code>"beta"</code>');
    const responses = html.slice(html.indexOf('id="op-responses"'), html.indexOf("</section>", html.indexOf('id="op-responses"')));
    expect(responses).toContain('<span class="fl">Items:</span> <i>string</i> <small>date</small>');
    expect(responses).toContain("<span>length ≤ 10</span>");
  });

  it("replaces a schema already expanded on the page by an expandable reference to it", () => {
    const html = page(demo, "createshipment");
    const same = elements(html).filter((e) => e.tag === "a" && e.attrs["data-same"]);
    expect(same.length).toBeGreaterThan(0);
    for (const a of same) expect(elements(html).some((e) => e.attrs["data-b"] === a.attrs["data-same"])).toBe(true);
  });
});

describe("renderOperationPage: schemas shown once (GitHub's REST description)", () => {
  const github = buildFile("./node_modules/@octokit/openapi/generated/api.github.com.json");
  const html = page(github, "repos-get");

  it("links repository (a twin of nullable-repository, shown above) instead of listing its 98 properties again", () => {
    expect(html.match(/<code>allow_squash_merge<\/code>/g)?.length).toBe(2); // full-repository's own, nullable-repository's
    expect(html.match(/>Same as nullable-repository above</g)?.length).toBe(2); // parent and source
    expect(html).toMatch(/<code>parent<\/code> <i>object<\/i><i class="n">repository<\/i>/);
  });

  it("anchors exactly the nodes that links point at, and every link finds its target", () => {
    const els = elements(html);
    const linked = new Set(els.filter((e) => e.tag === "a" && (e.attrs["data-same"] || e.attrs.class === "cy")).map((e) => e.attrs.href.slice(1)));
    const bodies = els.filter((e) => e.attrs["data-b"] !== undefined).map((e) => e.attrs["data-b"]);
    expect(linked.size).toBeGreaterThan(0);
    expect(new Set(bodies)).toEqual(linked);
    expect(danglingFragments(html)).toEqual([]);
    expect(duplicateIds(html)).toEqual([]);
  });
});

describe("renderOperationPage: identical inline objects", () => {
  const address = (description: string) => `
                  type: object
                  description: ${description}
                  properties:
                    street: { type: string, description: "Street and house number, as printed on a letter to this address." }
                    city: { type: string, description: "City or town, without the arrondissement for Paris, Lyon and Marseille." }
                    postcode: { type: string, description: "Postal code in the country's own format, spaces kept." }
                    country: { type: string, enum: [FR, DE, NL], description: "ISO 3166-1 alpha-2 code." }`;
  const ref = buildText(`
openapi: 3.1.0
info: { title: Orders, version: "1" }
paths:
  /orders:
    post:
      operationId: createOrder
      requestBody:
        content:
          application/json:
            schema:
              type: object
              properties:
                billing:${address("Where invoices go.")}
                shipping:${address("Where parcels go.")}
      responses:
        "201": { description: Created }
`);
  const html = page(ref, "createorder");

  it("lists the second one's own description and links its properties to the first", () => {
    expect(html.match(/<code>postcode<\/code>/g)?.length).toBe(1);
    expect(html).toContain("<p class=\"md\">Where parcels go.</p>");
    const link = elements(html).find((e) => e.tag === "a" && e.attrs["data-same"])!;
    expect(html).toMatch(/ data-same="[^"]+">Same as billing above<\/a>/);
    expect(elements(html).filter((e) => e.attrs["data-b"] === link.attrs["data-same"]).length).toBe(1);
    expect(danglingFragments(html)).toEqual([]);
  });
});

describe("renderOperationPage: webhooks and callbacks", () => {
  it("renders a webhook like an operation, its sample aimed at the subscriber's endpoint", () => {
    const html = page(demo, "webhook-trackingeventcreated-post");
    expect(html).toContain('<p class="eb">Webhook</p>');
    const [props] = islandProps<CodeSamplesProps>(html, "code-samples");
    expect(props.input.servers).toEqual([{ url: "https://your-app.example.com/webhook", variables: {} }]);
  });

  it("renders a callback with a link to the operation that registers it", () => {
    const html = page(demo, "createshipment-callback-statuschanged-post");
    expect(html).toContain('Callback <code>statusChanged</code> of <a href="/p/acme/reference/pets/1.0/createshipment">createshipment</a>');
  });
});

describe("renderOperationPage: OpenAPI 3.2 (redocly-cli lint fixture)", () => {
  const ref = buildFile("redocly-cli/tests/e2e/lint/oas3.2/openapi.yaml");

  it("renders the QUERY method and a custom additionalOperations method", () => {
    const query = ref.operations.find((o) => o.method === "query")!;
    expect(page(ref, query.slug)).toContain('<span class="mb m-query">QUERY</span>');
    const custom = ref.operations.find((o) => o.path === "/products" && o.method !== "query")!;
    expect(page(ref, custom.slug)).toContain(`<span class="mb m-${custom.method.toLowerCase()}">${custom.method.toUpperCase()}</span>`);
  });

  it("renders a streaming response's itemSchema", () => {
    const stream = ref.bySummary("get", "/stream");
    const html = page(ref, stream.slug);
    expect(html).toContain("Each item of the stream:");
    expect(html).toContain("<code>data</code>");
  });

  it("lists a device authorization flow with its URLs", () => {
    const html = page(ref, ref.bySummary("get", "/giftcards").slug);
    expect(html).toContain("<strong>device_auth</strong></a> <span class=\"bd\">OAuth 2.0</span>");
  });
});

describe("renderOperationPage: the article kept per isolate (articleKey)", () => {
  const render = (extra: Partial<Parameters<typeof renderOperationPage>[0]>) => {
    const op = demo.operations.find((o) => o.slug === "createshipment")!;
    return renderOperationPage({ ...pageProps(), header: demo.header, slice: demo.slice("createshipment"), nav: sameTag(demo, op), canonicalUrl: "https://docs.example/p/acme/reference/pets/1.0/createshipment", ...extra });
  };

  it("gives the very page a fresh render gives, the first time and when reused", () => {
    const fresh = render({});
    const key = `memo-test-${Math.random()}/createshipment`;
    expect(render({ articleKey: key })).toBe(fresh);
    expect(render({ articleKey: key })).toBe(fresh);
  });

  it("never gives one reader's API key or variables to another reader of the same operation", () => {
    const key = `memo-test-${Math.random()}/createshipment`;
    const first = render({ articleKey: key, authorize: { apiKey: "key-of-reader-one" } as never, variables: { api_key: "key-of-reader-one" } });
    const second = render({ articleKey: key, authorize: { apiKey: "key-of-reader-two" } as never, variables: { api_key: "key-of-reader-two" } });
    expect(first).toContain("key-of-reader-one");
    expect(second).toContain("key-of-reader-two");
    expect(second).not.toContain("key-of-reader-one");
    expect(render({ articleKey: key })).not.toMatch(/key-of-reader-(one|two)/);
  });

  it("renders again for another base path or version label under the same key", () => {
    const key = `memo-test-${Math.random()}/createshipment`;
    render({ articleKey: key });
    const moved = render({ articleKey: key, basePath: "" });
    expect(moved).toContain('href="/reference/pets/1.0/#security-apiKey"');
    expect(moved).not.toContain('href="/p/acme/reference/pets/1.0/#security-apiKey"');
  });
});

describe("renderOperationPage: from a deeply frozen slice (store/models.ts keeps resolved slices per isolate)", () => {
  // Slices are shared by every reader of an isolate and frozen: a renderer that mutated one would throw here (and
  // the page would fall back to its degraded article), so the frozen render must equal the fresh one everywhere.
  const files = [
    "./demo/definition.yaml",
    "libopenapi/test_specs/all-the-components.yaml",
    "oai-spec/examples/v3.0/callback-example.yaml",
    "oai-spec/examples/v3.1/webhook-example.yaml",
    "readme-oas-examples/2.0/yaml/petstore.yaml",
    "redocly-cli/tests/e2e/lint/oas3.2/openapi.yaml",
  ];
  it.each(files)("%s: every operation renders the same from a frozen slice", (file) => {
    const ref = buildFile(file);
    expect(ref.operations.length).toBeGreaterThan(0);
    for (const op of ref.operations) {
      const props = { ...pageProps(), header: ref.header, nav: sameTag(ref, op), fragmentHref: (id: string) => `/f/${id}` };
      const fresh = renderOperationPage({ ...props, slice: ref.slice(op.slug) });
      const frozen = renderOperationPage({ ...props, slice: deepFreeze(ref.slice(op.slug)), header: deepFreeze(ref.header) });
      expect(frozen, op.slug).toBe(fresh);
      expect(frozen, op.slug).not.toContain("too large to show within this page");
    }
  });
});
