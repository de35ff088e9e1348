import { describe, expect, it } from "vitest";
import { renderErrorPage, renderOperationPage, renderPortalHome, renderSinglePage, renderVersionIndex } from ".";
import { renderMarkdown } from "./markdown";
import { elements } from "./testing/html";
import { buildFile, pageProps, sameTag, streamText } from "./testing/reference";

const OUR_SCRIPTS = new Set(["/assets/theme-init.js", "/assets/islands.js", "/assets/anchors.js"]);

/** Everything in `html` that a browser could execute. */
function executable(html: string): string[] {
  const found: string[] = [];
  for (const e of elements(html)) {
    if (e.tag === "link" && e.attrs.rel === "icon" && e.attrs.href === "data:,") continue; // our empty favicon
    // The top bar's search box: a GET form to the portal's own results page (CSP form-action 'self').
    if (e.tag === "form" && e.attrs.class === "sb" && e.attrs.method === "get" && /^\/p\/[^/?#]+\/search$/.test(e.attrs.action ?? "")) continue;
    if (e.tag === "script" && !(e.attrs.src && OUR_SCRIPTS.has(e.attrs.src)) && !(e.attrs.src === undefined && Object.keys(e.attrs).length === 0)) found.push(`<script ${JSON.stringify(e.attrs)}>`);
    if (["iframe", "object", "embed", "form", "svg", "math", "style", "base", "meta"].includes(e.tag) && !(e.tag === "meta" && !e.attrs["http-equiv"])) found.push(`<${e.tag}>`);
    for (const [name, value] of Object.entries(e.attrs)) {
      if (name.startsWith("on")) found.push(`${e.tag}[${name}]`);
      if (["href", "src", "action", "formaction", "xlink:href", "data"].includes(name) && /^\s*(javascript|data|vbscript):/i.test(value)) found.push(`${e.tag}[${name}=${value}]`);
      if (name === "style" && /url\(|expression\(/i.test(value)) found.push(`${e.tag}[style]`);
    }
  }
  return found;
}

/** What the page CSP (script-src 'self', style-src 'self') would block: inline scripts, style elements and attributes. */
function inlineCode(html: string): string[] {
  return elements(html).flatMap((e) =>
    (e.tag === "script" && !e.attrs.src) || e.tag === "style" ? [`<${e.tag}>`] : e.attrs.style !== undefined ? [`${e.tag}[style]`] : []);
}

describe("hostile definitions render nothing executable", () => {
  const ref = buildFile("./worker/render/testing/hostile-definition.yaml");
  const props = pageProps();

  it("operation pages (operation and webhook)", () => {
    for (const op of ref.operations) {
      const html = renderOperationPage({ ...props, header: ref.header, slice: ref.slice(op.slug), nav: sameTag(ref, op) });
      expect(executable(html), op.slug).toEqual([]);
      expect(inlineCode(html), op.slug).toEqual([]);
    }
    const op = ref.operations.find((o) => o.kind === "operation")!;
    // The payload stays readable as text: what the author wrote is shown, not run.
    expect(renderOperationPage({ ...props, header: ref.header, slice: ref.slice(op.slug), nav: [] })).toContain("&lt;script&gt;window.__xss=36&lt;/script&gt;**bold** <a rel=\"nofollow noopener\">x</a>");
  });

  it("the version index and the single page", async () => {
    const index = renderVersionIndex({ ...props, header: ref.header, operations: ref.operations });
    expect(executable(index)).toEqual([]);
    expect(inlineCode(index)).toEqual([]);
    const single = await streamText(renderSinglePage({ ...props, header: ref.header, operations: ref.operations, slices: (async function* () {
      for (const o of ref.operations) yield ref.slice(o.slug);
    })() }));
    expect(executable(single)).toEqual([]);
    expect(inlineCode(single)).toEqual([]);
  });

  it("portal home and error pages", () => {
    const home = renderPortalHome({ portal: { slug: "x", name: "<script>alert(1)</script>" }, basePath: "/p/x", apis: [{ slug: "a\"><script>", title: "<img src=x onerror=alert(1)>", layout: "single-page", liveVersion: "<svg onload=alert(1)>", operations: 3 }] });
    expect(executable(home)).toEqual([]);
    const err = renderErrorPage({ status: 404, title: "<script>alert(1)</script>", message: "<img src=x onerror=alert(1)>" });
    expect(executable(err)).toEqual([]);
    expect(err).toContain("<p>&lt;img src=x onerror=alert(1)></p>");
  });

  it("keeps safe Markdown and links while dropping unsafe ones", () => {
    expect(renderMarkdown("**bold** [ok](https://example.com) [bad](javascript:alert(1))")).toBe(
      '<p><strong>bold</strong> <a href="https://example.com" rel="nofollow noopener">ok</a> [bad](javascript:alert(1))</p>\n');
    expect(renderMarkdown('<a href="javascript:alert(1)" onclick="x()">y</a>')).toBe('<p><a rel="nofollow noopener">y</a></p>\n');
    expect(renderMarkdown("<img src=x onerror=alert(1)>")).toBe("");
    expect(renderMarkdown('<img src="https://example.com/a.png" onerror=alert(1) alt="A">')).toBe('<img src="https://example.com/a.png" alt="A" />');
    expect(renderMarkdown("| a | b |\n|--:|---|\n| 1 | 2 |")).toContain('<th class="ta-right">a</th>');
  });
});
