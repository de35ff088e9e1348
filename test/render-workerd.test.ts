// Runs the reader renderer inside workerd (the Workers runtime): markdown-it and sanitize-html (with its
// htmlparser2/postcss dependencies) must load and sanitise there exactly as under Node.
import { describe, expect, it } from "vitest";
import { renderMarkdown, renderOperationPage } from "../worker/render";
import { buildReference } from "../worker/openapi/build";

describe("renderer in workerd", () => {
  it("sanitises Markdown descriptions", () => {
    expect(renderMarkdown('Hi <script>alert(1)</script> <img src=x onerror=alert(1)> <a href="javascript:alert(1)">x</a> **b**')).toBe(
      '<p>Hi &lt;script&gt;alert(1)&lt;/script&gt;  <a rel="nofollow noopener">x</a> <strong>b</strong></p>\n');
    expect(renderMarkdown("| a |\n|---|\n| <b onclick=x>1</b> |")).toContain("<td><b>1</b></td>");
  });

  it("renders an operation page from a built slice", () => {
    const yaml = `openapi: 3.1.0
info: { title: T, version: "1" }
paths:
  /pets/{id}:
    get:
      operationId: getPet
      description: "Returns <em onmouseover=x>one</em> pet"
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { "200": { description: ok, content: { application/json: { schema: { type: object, properties: { name: { type: string } } } } } } }
`;
    const built = buildReference({ body: new TextEncoder().encode(yaml) });
    if (!built.ok) throw new Error(built.message);
    const api = { slug: "pets", title: "Pets", layout: "page-per-operation" as const };
    const html = renderOperationPage({
      portal: { slug: "p", name: "P" }, basePath: "/p/p", apis: [api], api, versions: [{ label: "1", live: true }], version: { label: "1", live: true },
      header: built.header, slice: built.slice("getpet"), nav: built.operations,
    });
    expect(html).toContain(">Returns <em>one</em> pet</p>");
    expect(html).not.toContain("onmouseover");
    expect(html).toContain("curl https://api.example.com/pets/ID");
  });
});
