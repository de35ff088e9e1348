import { describe, expect, it } from "vitest";
import { renderErrorPage, renderPortalHome } from ".";
import { elements, firstText } from "./testing/html";

describe("renderPortalHome", () => {
  it("lists each API with its live version and operation count, linking to its reference", () => {
    const html = renderPortalHome({
      portal: { slug: "acme", name: "Acme Docs" }, basePath: "/p/acme",
      apis: [{ slug: "pets", title: "Pets API", layout: "page-per-operation", liveVersion: "1.2", operations: 20 }, { slug: "bill", title: "Billing", layout: "single-page", operations: 1 }],
    });
    expect(firstText(html, "title")).toBe("Acme Docs · API documentation");
    expect(elements(html).filter((e) => e.tag === "a").map((e) => e.attrs.href)).toEqual(["#main", "/p/acme/", "/p/acme/reference/pets/", "/p/acme/reference/bill/", "/p/acme/connect"]);
    // The shell's footer links every reader page to the "Connect your AI tool" page (MCP, issue 31).
    expect(html).toMatch(/<footer class="foot">.*<a href="\/p\/acme\/connect">Connect your AI tool<\/a><\/p><\/footer>/s);
    expect(html).toContain('<span class="ch">version 1.2</span><span class="ch">20 operations</span>');
    expect(html).toContain('<span class="ch">1 operation</span>');
  });

  it("says so when nothing is published", () => {
    expect(renderPortalHome({ portal: { slug: "a", name: "A" }, basePath: "", apis: [] })).toContain("<p>No API has been published yet.</p>");
  });
});

describe("renderErrorPage", () => {
  it("is a full document with the status in the title", () => {
    const html = renderErrorPage({ status: 404, title: "Not found", message: 'no operation "x" in pets 1.0' });
    expect(firstText(html, "title")).toBe("404 Not found");
    expect(html).toContain("<h1>Not found</h1><p>no operation &quot;x&quot; in pets 1.0</p>");
  });
});
