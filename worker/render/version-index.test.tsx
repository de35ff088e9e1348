import { describe, expect, it } from "vitest";
import { renderVersionIndex } from ".";
import { danglingFragments, duplicateIds, elements, firstText } from "./testing/html";
import { buildFile, buildText, pageProps } from "./testing/reference";

describe("renderVersionIndex (demo definition)", () => {
  const ref = buildFile("./demo/definition.yaml");
  const html = renderVersionIndex({ ...pageProps(), header: ref.header, operations: ref.operations });
  const links = elements(html).filter((e) => e.tag === "a");

  it("is a full document with the legacy-anchor script and the reference's counts", () => {
    expect(firstText(html, "title")).toBe("Parcel Logistics API 1.0 · API reference · Acme Docs");
    expect(html).toContain('<script type="module" src="/assets/anchors.js"></script>');
    const c = ref.header.counts;
    expect(html).toContain(`<li><strong>${c.operations}</strong> operations</li><li><strong>${c.schemas}</strong> schemas</li><li><strong>${c.securitySchemes}</strong> security schemes</li>`);
    expect(html).toContain(`<li><strong>${c.webhooks}</strong> webhooks</li>`);
  });

  it("links every path operation under its tag, showing method and path (what anchor mapping reads)", () => {
    for (const op of ref.operations.filter((o) => o.kind === "operation")) {
      const href = `/p/acme/reference/pets/1.0/${op.slug}`;
      expect(links.some((a) => a.attrs.href === href && a.attrs.class?.split(" ").includes("opl")), op.slug).toBe(true);
      expect(html, op.slug).toContain(`<a href="${href}" class="opl${op.deprecated ? " dep" : ""}"><span class="mb m-${op.method}">${op.method.toUpperCase()}</span> <code class="op-path">${op.path}</code>`);
    }
    const tagSection = elements(html).find((e) => e.attrs["data-tag"] === "Shipments");
    expect(tagSection?.attrs.id).toBe("tag-shipments");
  });

  it("lists webhooks in their own section and callbacks under the operation that registers them", () => {
    expect(html).toMatch(/<section class="blk" id="webhooks"[^>]*><h2 id="webhooks-h">Webhook events<\/h2><ul class="oplist"><li><a href="\/p\/acme\/reference\/pets\/1.0\/webhook-trackingeventcreated-post"/);
    expect(html).toMatch(/<a href="\/p\/acme\/reference\/pets\/1.0\/createshipment" [^>]*>[\s\S]*?<ul class="ol-cb"><li><span class="fl">callback statusChanged<\/span> <a href="\/p\/acme\/reference\/pets\/1.0\/createshipment-callback-statuschanged-post"/);
  });

  it("lists every server with its variables and every security scheme", () => {
    expect(html).toContain('<code class="url">https://{region}.api.parcel-logistics.example/{basePath}</code>');
    expect(html).toContain("<dt><code>{region}</code></dt><dd>default <code>eu</code> · one of <code>eu</code>, <code>us</code>, <code>ap</code>");
    for (const name of Object.keys(ref.header.securitySchemes)) expect(elements(html).some((e) => e.attrs.id === `security-${name}`), name).toBe(true);
  });

  it("has no duplicate ids and no dangling fragment links", () => {
    expect(duplicateIds(html)).toEqual([]);
    expect(danglingFragments(html)).toEqual([]);
  });
});

describe("renderVersionIndex: security schemes in full (security.yaml)", () => {
  const ref = buildFile("readme-oas-examples/3.0/yaml/security.yaml");
  const html = renderVersionIndex({ ...pageProps(), header: ref.header, operations: ref.operations });

  it("shows every OAuth 2.0 flow with its URLs and scopes, API keys with their location, HTTP schemes", () => {
    const oauth = html.slice(html.indexOf('id="security-oauth2"'), html.indexOf("</section>", html.indexOf('id="security-oauth2"')));
    expect(oauth.match(/<h4>[^<]+ flow<\/h4>/g)).toEqual(["<h4>Authorization code flow</h4>", "<h4>Client credentials flow</h4>", "<h4>Implicit flow</h4>", "<h4>Resource owner password flow</h4>"]);
    expect(oauth).toContain('<dt>authorizationUrl</dt><dd><a href="http://example.com/oauth/dialog" rel="nofollow noopener">http://example.com/oauth/dialog</a></dd>');
    expect(oauth).toContain("<tr><td><code>write:things</code></td><td>Add things to your account</td></tr>");
    expect(html).toContain("<dt>Sent in</dt><dd>cookie <code>api_key</code></dd>");
    expect(html).toContain('<span class="bd">HTTP basic</span>');
  });
});

describe("renderVersionIndex: OpenAPI 3.2 tag nesting", () => {
  const ref = buildText(`openapi: 3.2.0
info: { title: Shop, version: "1" }
tags:
  - { name: products, summary: Products }
  - { name: books, summary: Books, parent: products, kind: nav }
  - { name: ebooks, summary: E-books, parent: books }
  - { name: loop-a, parent: loop-b }
  - { name: loop-b, parent: loop-a }
paths:
  /books: { get: { tags: [books], summary: List books, responses: { "200": { description: ok } } } }
  /ebooks: { get: { tags: [ebooks], summary: List e-books, responses: { "200": { description: ok } } } }
  /a: { get: { tags: [loop-a], responses: { "200": { description: ok } } } }
  /plain: { get: { responses: { "200": { description: ok } } } }
`);
  const html = renderVersionIndex({ ...pageProps(), header: ref.header, operations: ref.operations });

  it("nests child tags under their parent, one heading level down", () => {
    expect(html).toMatch(/<section class="tag" id="tag-products"[^>]*><h3 id="tag-products-h">Products<\/h3><section class="tag" id="tag-books"[^>]*><h4 id="tag-books-h">Books<span class="bd">nav<\/span><\/h4>[\s\S]*<section class="tag" id="tag-ebooks"[^>]*><h5 id="tag-ebooks-h">E-books<\/h5>/);
  });

  it("ignores a parent cycle and groups untagged operations", () => {
    expect(html).toMatch(/<h3 id="tag-loop-a-h">loop-a<\/h3>/);
    expect(html).toContain('<h3 id="tag-other-operations-h">Other operations</h3>');
  });
});
