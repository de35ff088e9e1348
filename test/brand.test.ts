/**
 * @module Branding over HTTP (issue 33, docs/branding.md): portico.yaml `brand:` published and applied on every
 * page type (design tokens, logos, favicon, fonts, links, theme default, custom stylesheet), the served files
 * sanitised, low contrast refused at publish and through PATCH /v1/portal, and PATCH's brand winning key by key.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";
import { bundle, liveContent, PETSTORE_OPS, uploadContent } from "./content/bundles";

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="#9a4a00"/><image href="https://evil.example/p.png"/></svg>`;
const BRAND_YAML = `${(bundle()["portico.yaml"] as string).replace(/^branding:.*\n/m, "")}brand:
  name: Acme Pets
  logo: { light: brand/logo.svg, dark: brand/logo-dark.png }
  favicon: brand/logo.svg
  colors: { primary: "#9a4a00", dark: "#f0a45d" }
  fonts: { text: { family: Acme Sans, files: [{ src: brand/acme.woff2, weight: "100 900" }] } }
  navigation: [{ title: Status, href: "https://status.acme.example" }, { title: Glossary, href: /glossary }]
  footer: [{ title: Support, href: "mailto:help@acme.example" }]
  themeDefault: dark
  css: brand/acme.css
`;
const FILES = {
  "brand/logo.svg": LOGO_SVG,
  "brand/logo-dark.png": new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 2]),
  "brand/acme.woff2": new Uint8Array([119, 79, 70, 50, 0, 1]),
  "brand/acme.css": "@import url(https://evil.example/x.css);\n.callout { border-radius: 12px; background-image: url(logo-dark.png) }\n</style><script>alert(1)</script>\n",
};
let token = "";

/** Base64 SHA-256 of `text`, as a CSP hash source names it. */
async function cspHash(text: string): Promise<string> {
  return btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)))));
}

const patch = (body: unknown) => SELF.fetch(`${ORIGIN}/v1/portal`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });

/** The brand as the page's head and banner show it. */
async function applied(path: string) {
  const res = await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual" });
  const status = res.status;
  const html = await res.text();
  const csp = res.headers.get("content-security-policy") ?? "";
  const attr = (re: RegExp) => re.exec(html)?.[1];
  const head = html.slice(0, html.indexOf("</head>"));
  const banner = html.slice(html.indexOf('<header class="top">'), html.indexOf("</header>"));
  return {
    status, html,
    theme: attr(/<html [^>]*data-theme="(\w+)"/),
    favicon: attr(/<link rel="icon" href="([^"]+)">/),
    /** The brand's tokens, inline, and whether the page's CSP admits exactly that text by its SHA-256. */
    themeCss: attr(/<style>([^<]*)<\/style>/),
    styleSrc: /style-src ([^;]*)/.exec(csp)?.[1] ?? "",
    customCss: attr(/<link rel="stylesheet" href="([^"]*\/_content\/[0-9a-f]{64}\.css)">/),
    cssOrder: [...head.matchAll(/<link rel="stylesheet" href="([^"]+)">|<style>/g)].map((m) => m[1]?.replace(/\?.*|[0-9a-f]{64}/g, "") ?? "<style>"),
    logos: [...banner.matchAll(/<img class="([^"]+)" src="([^"]+)"[^>]*>/g)].map((m) => [m[1], m[2]]),
    name: attr(/<span class="brand-name">([^<]+)<\/span>/),
    tabs: [...(/<nav class="tabs-nav"[^>]*>(.*?)<\/nav>/s.exec(banner)?.[1] ?? "").matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]),
    // The brand's footer links (the shell's own "Connect your AI tool" link follows them).
    footer: [...(/<footer class="foot"><ul class="foot-links">(.*?)<\/ul>/s.exec(html)?.[1] ?? "").matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]),
  };
}

beforeAll(async () => {
  token = await createPortal("branded", "Branded portal");
  expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
  // What the stylesheet loses is reported as broken links (the writer is told), so the publish needs the override.
  const res = await uploadContent(token, bundle("one", { "portico.yaml": BRAND_YAML, ...FILES }), { allowBrokenLinks: "true" });
  expect(res.status).toBe(201);
  expect(res.json.checks.invalidFrontMatter).toEqual([]);
  expect(res.json.checks.brokenLinks.map((l: { file: string; target: string }) => `${l.file} ${l.target}`)).toEqual(["brand/acme.css @import", 'brand/acme.css text "</style><script>alert(1)</script>"']);
});

describe("a published brand", () => {
  for (const path of ["/p/branded/guides/intro", "/p/branded/reference/pets/1.0.0/listpets", "/p/branded/search?q=pets", "/p/branded/changelog", "/p/branded/guides/nope"]) {
    it(`is applied on ${path}`, async () => {
      const b = await applied(path);
      expect(b.status).toBe(path.endsWith("nope") ? 404 : 200);
      expect(b.name).toBe("Acme Pets");
      expect(b.theme).toBe("dark");
      expect(b.favicon).toMatch(/^\/p\/branded\/_content\/[0-9a-f]{64}\.svg$/);
      expect(b.logos).toEqual([["logo logo-l", b.favicon], ["logo logo-d", expect.stringMatching(/^\/p\/branded\/_content\/[0-9a-f]{64}\.png$/)]]);
      expect(b.tabs.slice(-2)).toEqual(["https://status.acme.example", "/p/branded/glossary"]);
      expect(b.footer).toEqual([["mailto:help@acme.example", "Support"]]);
      // Portico's stylesheet, then the brand's tokens, then the writer's own CSS last (it may override anything).
      expect(b.cssOrder.filter((h) => !h.endsWith("content.css"))).toEqual(["/portico.css", "<style>", "/p/branded/_content/.css"]);
      expect(b.styleSrc).toBe(`'self' 'sha256-${await cspHash(b.themeCss!)}'`);
    });
  }

  it("marks a navigation link to a portal page as the current one on that page (the glossary)", async () => {
    const current = (html: string) => [...html.slice(html.indexOf('<header class="top">'), html.indexOf("</header>")).matchAll(/<a href="([^"]+)" aria-current="true"/g)].map((m) => m[1]);
    expect(current((await applied("/p/branded/glossary")).html)).toEqual(["/p/branded/glossary"]);
    expect(current((await applied("/p/branded/changelog")).html)).toEqual(["/p/branded/changelog"]);
  });

  it("writes the design tokens and @font-face into the head, admitted by the CSP's hash, and /theme.css the same", async () => {
    const b = await applied("/p/branded/guides/intro");
    const css = b.themeCss!;
    const res = await SELF.fetch(`${ORIGIN}/p/branded/theme.css`);
    expect(res.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await res.text()).toBe(css);
    expect(css).toMatch(/@font-face \{ font-family: "Acme Sans"; src: url\("\/p\/branded\/_content\/[0-9a-f]{64}\.woff2"\) format\("woff2"\); font-weight: 100 900; font-style: normal; font-display: swap; \}/);
    expect(css).toContain(':root { --sans: "Acme Sans", system-ui');
    expect(css).toContain("--accent: #9a4a00; --focus: #9a4a00;");
    expect(css).toContain(':root[data-theme="dark"] { --accent: #f0a45d; --focus: #f0a45d; }');
    const font = await SELF.fetch(`${ORIGIN}${/url\("([^"]+)"\)/.exec(css)![1]}`);
    expect(font.status).toBe(200);
    expect(font.headers.get("content-type")).toBe("font/woff2");
  });

  it("serves the custom stylesheet sanitised, and the SVG logo without script", async () => {
    const b = await applied("/p/branded/guides/intro");
    const css = await SELF.fetch(`${ORIGIN}${b.customCss}`);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    const text = await css.text();
    expect(text).toMatch(/^\.callout\{border-radius:12px;background-image:url\([0-9a-f]{64}\.png\)\}$/);
    const logo = await SELF.fetch(`${ORIGIN}${b.favicon}`);
    expect(logo.headers.get("content-type")).toBe("image/svg+xml");
    const svg = await logo.text();
    expect(svg).toContain('<rect width="10" height="10" fill="#9a4a00">');
    expect(svg).not.toMatch(/script|onload|alert|evil/);
  });

  it("refuses a bundle whose colour fails WCAG AA, naming the ratio, and keeps the live release", async () => {
    const before = await liveContent(token);
    const res = await uploadContent(token, bundle("two", { "portico.yaml": BRAND_YAML.replace('primary: "#9a4a00", dark: "#f0a45d"', 'primary: "#ffee00"'), ...FILES }), { allowBrokenLinks: "true" });
    expect(res.status).toBe(422);
    expect(res.json.error.code).toBe("low-contrast");
    expect(res.json.error.message).toContain("colors.primary #ffee00 has contrast 1.2:1 on #ffffff (light theme); WCAG AA needs 4.5:1");
    expect(await liveContent(token)).toBe(before);
  });
});

describe("PATCH /v1/portal brand", () => {
  it("refuses a low-contrast colour with 422 naming the ratio, changing nothing", async () => {
    const res = await patch({ brand: { colors: { primary: "#ffee00", dark: "#ffee00" } }, externalImages: true });
    expect(res.status).toBe(422);
    const body = await res.json<{ error: { code: string; message: string } }>();
    expect(body.error.code).toBe("low-contrast");
    expect(body.error.message).toBe("colors.primary #ffee00 has contrast 1.2:1 on #ffffff (light theme); WCAG AA needs 4.5:1; set colors.light to a variant for the light theme");
    const now = await (await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { authorization: `Bearer ${token}` } })).json<{ brand: unknown; settings: { externalImages: boolean } }>();
    expect(now).toMatchObject({ brand: {}, settings: { externalImages: false } });
  });

  it("refuses a file the live release does not have, and a malformed value", async () => {
    const missing = await patch({ brand: { logo: "nope.svg" } });
    expect(missing.status).toBe(422);
    expect((await missing.json<{ error: { code: string; message: string } }>()).error).toMatchObject({ code: "unknown-file", message: "brand.logo.light: no file nope.svg in the live content release" });
    const bad = await patch({ brand: { navigation: [{ title: "x", href: "javascript:alert(1)" }] } });
    expect(bad.status).toBe(400);
    expect((await bad.json<{ error: { code: string } }>()).error.code).toBe("invalid-brand");
  });

  it("wins over portico.yaml key by key, and null gives a key back", async () => {
    const res = await patch({ brand: { name: "Acme Pet Store", colors: { primary: "#0a58ca", dark: "#58a6ff" }, logo: { light: "brand/logo-dark.png" }, themeDefault: "light" } });
    expect(res.status).toBe(200);
    expect((await res.json<{ brand: Record<string, unknown> }>()).brand).toMatchObject({ name: "Acme Pet Store", colors: { primary: "#0a58ca", dark: "#58a6ff" }, logo: { light: expect.stringMatching(/^\uE002\/_content\/[0-9a-f]{64}\.png$/) } });
    const b = await applied("/p/branded/guides/intro");
    expect(b.name).toBe("Acme Pet Store");
    expect(b.theme).toBe("light");
    expect(b.logos).toEqual([["logo", expect.stringMatching(/\.png$/)]]);
    expect(b.footer).toEqual([["mailto:help@acme.example", "Support"]]);
    const css = b.themeCss!;
    expect(b.styleSrc).toBe(`'self' 'sha256-${await cspHash(css)}'`);
    expect(css).toContain("--accent: #0a58ca;");
    expect(css).toContain("Acme Sans");

    expect((await patch({ brand: { name: null, themeDefault: null } })).status).toBe(200);
    expect(await applied("/p/branded/guides/intro")).toMatchObject({ name: "Acme Pets", theme: "dark" });
    expect((await patch({ brand: null })).status).toBe(200);
    expect((await applied("/p/branded/guides/intro")).logos.length).toBe(2);
  });
});
