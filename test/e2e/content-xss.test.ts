/**
 * @module Browser test: Markdown in a content bundle carrying script, event handlers, `javascript:` URLs, SVG
 * and forged reader markers runs nothing on its guide, code steps, changelog, tag and glossary pages, even when
 * the reader clicks every link on the page and hovers the glossary terms.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs and the benchmark
import { uploadContent, zipFiles } from "../../scripts/lib/content-bundle.mjs";
import { baseUrl, createPortal, launchBrowser, visitHostile } from "./browser";

const PORTAL = "content-xss";
const PAYLOADS = [
  "<script>window.__xss = 1</script>",
  "<img src=x onerror=\"window.__xss = 2\">",
  "<svg onload=\"window.__xss = 3\"><script>window.__xss = 3</script></svg>",
  "[click](javascript:window.__xss=4)",
  "[entity](jav&#x61;script:window.__xss=5)",
  "<a href=\"javascript:window.__xss=6\">raw link</a>",
  "<iframe src=\"javascript:window.__xss=7\"></iframe>",
  "<details open ontoggle=\"window.__xss=8\"><summary>s</summary>d</details>",
  "<div style=\"background:url(javascript:window.__xss=9)\">styled</div>",
  "<portico-audience data-labels=\"x\"><b onclick=\"window.__xss=10\">forged</b></portico-audience>",
  "![img](data:text/html,<script>window.__xss=11</script>)",
  "<math><mtext><table><mglyph><style><img src=x onerror=\"window.__xss=12\">",
  "{{evil}} <form action=\"javascript:window.__xss=13\"><button>go</button></form>",
].join("\n\n");

const BUNDLE = {
  "portico.yaml": "name: \"<script>window.__xss=20</script>\"\nvariables:\n  evil: { default: \"<img src=x onerror=window.__xss=21>\" }\n",
  "guides/hostile.md": `---\ntitle: "<img src=x onerror=window.__xss=22>"\ntags: ["<script>window.__xss=23</script>"]\n---\n# Hostile\n\n![evil](img/evil.svg)\n\nA term: danger.\n\n${PAYLOADS}\n\n## <img src=x onerror="window.__xss=24"> heading\n\nA term: danger.\n`,
  "steps/hostile.md": `---\ntitle: Hostile steps\n---\n${PAYLOADS}\n\n\`\`\`sample javascript <script>window.__xss=25</script>\nalert("</code><script>window.__xss=26</script>")\n\`\`\`\n\n## <b onmouseover="window.__xss=27">step</b> {lines=1}\n${PAYLOADS}\n`,
  "changelog/x.md": `---\ntitle: "<script>window.__xss=28</script>"\ntype: New\nversion: v1.0.0\ndate: 2026-01-01\n---\n${PAYLOADS}\n`,
  "glossary.yaml": "danger: \"<img src=x onerror=window.__xss=29> **bold**\"\n",
  "guides/img/evil.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"window.__xss=30\"><script>window.__xss=30</script></svg>",
};

let browser: Browser;

beforeAll(async () => {
  const token = await createPortal(PORTAL);
  const res = await uploadContent(baseUrl(), token, zipFiles(BUNDLE), "?allowBrokenLinks=true");
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.json)}`);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
});

/** Hovers glossary terms and clicks tabs, details and in-page links: a payload may hide behind any of them. */
const visit = (url: string) => visitHostile(browser, url, { hover: ".term", click: ["main b, main summary, main button"] });

describe("hostile Markdown", () => {
  it("runs nothing on any content page", async () => {
    for (const path of ["guides/hostile", "steps/hostile", "changelog", "glossary", `tags/${encodeURIComponent("<script>window.__xss=23</script>")}`]) {
      const r = await visit(`${baseUrl()}/p/${PORTAL}/${path}`);
      expect(r.xss, path).toBeUndefined();
      expect(r.dialogs, path).toEqual([]);
      // Only the refused images (src=x) may fail to load; no script error.
      expect(r.errors.filter((e) => !/Failed to load resource/.test(e)), path).toEqual([]);
      await r.page.close();
    }
  });

  it("serves an SVG asset sandboxed: opened directly, its script does not run", async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => { dialogs.push(d.message()); void d.dismiss(); });
    await page.goto(`${baseUrl()}/p/${PORTAL}/guides/hostile`);
    const src = await page.locator("main img[alt=evil]").getAttribute("src");
    expect(src).toMatch(/\/_content\/[0-9a-f]{64}\.svg$/);
    const res = await page.goto(new URL(src!, baseUrl()).toString(), { waitUntil: "load" });
    expect(res?.headers()["content-security-policy"]).toContain("sandbox");
    expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(dialogs).toEqual([]);
    await page.close();
  });
});
