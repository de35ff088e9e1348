/** Branding (docs/branding.md): the `brand` block, contrast refusals, SVG and stylesheet sanitising, theme tokens. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contrastProblems, mergeBrand, readBrand, THEME_BACKGROUNDS, themeStylesheet, upgradeStoredConfig } from "./brand";
import { sanitizeCustomCss, sanitizeSvg } from "./brand-files";
import { compileBundle } from "./compile";
import { fileMap } from "./testing/bundle";

const enc = new TextEncoder();
const dec = new TextDecoder();
const EVIL_SVG = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "y">]><svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">` +
  `<script>alert(2)</script><linearGradient id="g"/><rect fill="url(#g)" style="fill:url(https://evil.example/x)" width="5" height="5" onclick="alert(3)"/>` +
  `<a href="javascript:alert(4)"><text>Acme</text></a><use xlink:href="https://evil.example/s.svg#a"/><use href="#g"/><image href="https://evil.example/p.png"/>` +
  `<foreignObject><iframe src="https://evil.example"></iframe></foreignObject><set attributeName="onclick" to="alert(5)"/><style>@import url(https://evil.example/a.css);</style></svg>`;

function read(raw: unknown) {
  const problems: { message: string; kind?: string }[] = [];
  const brand = readBrand(raw, (message, kind) => problems.push({ message, kind }));
  return { brand, problems };
}

describe("the brand block", () => {
  it("reads every key, normalising colours and keeping paths", () => {
    const { brand, problems } = read({
      name: " Acme Docs ", logo: { light: "./img/logo.svg", dark: "img/logo-dark.png" }, favicon: "favicon.ico",
      colors: { primary: "rgb(10 88 202)", dark: "#58A6FF" }, fonts: { text: { family: "Inter", files: [{ src: "fonts/inter.woff2", weight: "100 900" }, "fonts/inter-italic.woff2"] } },
      navigation: [{ title: "Status", href: "https://status.acme.com" }, { title: "Glossary", href: "/glossary" }], footer: [{ title: "Support", href: "mailto:help@acme.com" }],
      themeDefault: "dark", css: "brand.css",
    });
    expect(problems).toEqual([]);
    expect(brand).toEqual({
      name: "Acme Docs", logo: { light: "img/logo.svg", dark: "img/logo-dark.png" }, favicon: "favicon.ico", colors: { primary: "#0a58ca", dark: "#58a6ff" },
      fonts: { text: { family: "Inter", files: [{ src: "fonts/inter.woff2", weight: "100 900" }, { src: "fonts/inter-italic.woff2" }] } },
      navigation: [{ title: "Status", href: "https://status.acme.com" }, { title: "Glossary", href: "/glossary" }], footer: [{ title: "Support", href: "mailto:help@acme.com" }],
      themeDefault: "dark", css: "brand.css",
    });
  });

  it("refuses a colour below WCAG AA on its theme's background, naming the ratio", () => {
    const { brand, problems } = read({ colors: { primary: "#ffee00" } });
    expect(brand.colors).toBeUndefined();
    expect(problems[0]).toEqual({ kind: "contrast", message: "colors.primary #ffee00 has contrast 1.2:1 on #ffffff (light theme); WCAG AA needs 4.5:1; set colors.light to a variant for the light theme" });
    // A dark-only failure names the dark background and the key to add.
    expect(contrastProblems({ primary: "#0a58ca" })).toEqual(["colors.primary #0a58ca has contrast 2.9:1 on #0d1117 (dark theme); WCAG AA needs 4.5:1; set colors.dark to a variant for the dark theme"]);
    expect(contrastProblems({ primary: "#0a58ca", dark: "#58a6ff" })).toEqual([]);
    // Just under 4.5 on the banner's background is still refused (never rounded up).
    expect(contrastProblems({ light: "#767676" }).length).toBe(1);
  });

  it("refuses what is not a brand value", () => {
    const cases: [unknown, RegExp][] = [
      [{ colour: "#000" }, /unknown brand key\(s\): colour/],
      [{ colors: { primary: "#0a58ca80" } }, /opaque CSS colour/],
      [{ colors: { primary: "red; } body { display:none" } }, /opaque CSS colour/],
      [{ logo: "logo.gif" }, /SVG or PNG/],
      [{ logo: "../secret.svg" }, /path of a file in the content bundle/],
      [{ favicon: "https://evil.example/f.ico" }, /path of a file/],
      [{ navigation: [{ title: "x", href: "javascript:alert(1)" }] }, /https URL/],
      [{ navigation: [{ title: "x", href: "//evil.example" }] }, /https URL/],
      [{ fonts: { text: { family: "Inter\"; } body {", files: ["a.woff2"] } } }, /font name/],
      [{ fonts: { text: { family: "Inter", files: ["a.exe"] } } }, /woff2, woff, ttf or otf/],
      [{ themeDefault: "sepia" }, /system, light or dark/],
      [{ css: "style.scss" }, /\.css file/],
    ];
    for (const [raw, message] of cases) expect(read(raw).problems.map((p) => p.message).join("\n")).toMatch(message);
  });

  it("reads releases published with the first `branding` form", () => {
    const upgraded = upgradeStoredConfig({ branding: { logoUrl: "\uE002/_content/ab.svg", accent: "#0a58ca" } });
    expect(upgraded.brand).toEqual({ logo: { light: "\uE002/_content/ab.svg" }, colors: { light: "#0a58ca" } });
  });

  it("merges a PATCHed brand over the bundle's key by key", () => {
    expect(mergeBrand({ name: "A", colors: { primary: "#0a58ca", dark: "#58a6ff" } }, { colors: { primary: "#9a4a00", dark: "#f0a45d" } }))
      .toEqual({ name: "A", colors: { primary: "#9a4a00", dark: "#f0a45d" } });
  });

  it("keeps the contrast backgrounds equal to portico.css's tokens", () => {
    const css = readFileSync(new URL("../../client/static/portico.css", import.meta.url), "utf8");
    const token = (block: string, name: string) => new RegExp(`--${name}: (#[0-9a-f]{6})`).exec(block)?.[1];
    const light = css.slice(css.indexOf(":root {"), css.indexOf("}", css.indexOf(":root {")));
    const dark = css.slice(css.indexOf(':root[data-theme="dark"] {'));
    expect([token(light, "bg"), token(light, "soft")]).toEqual([...THEME_BACKGROUNDS.light]);
    expect([token(dark, "bg"), token(dark, "soft")]).toEqual([...THEME_BACKGROUNDS.dark]);
  });
});

describe("theme stylesheet", () => {
  it("overrides the design tokens per theme and declares fonts with font-display: swap", () => {
    const css = themeStylesheet({ colors: { primary: "#9a4a00", dark: "#f0a45d" }, fonts: { text: { family: "Inter", files: [{ src: "/p/a/_content/ab.woff2", weight: "100 900" }] } } });
    expect(css).toContain('@font-face { font-family: "Inter"; src: url("/p/a/_content/ab.woff2") format("woff2"); font-weight: 100 900; font-style: normal; font-display: swap; }');
    expect(css).toContain(':root { --sans: "Inter", system-ui');
    expect(css).toContain("--accent: #9a4a00; --focus: #9a4a00;");
    expect(css).toContain(':root[data-theme="dark"] { --accent: #f0a45d; --focus: #f0a45d; }');
    expect(themeStylesheet({})).toBe("");
  });
});

describe("SVG sanitising", () => {
  it("keeps the drawing and drops script, handlers and outside references", () => {
    const out = sanitizeSvg(EVIL_SVG)!;
    expect(out).toMatch(/^<svg [^>]*viewBox="0 0 10 10"/);
    expect(out).toContain('<rect fill="url(#g)" width="5" height="5">');
    expect(out).toContain('<use href="#g">');
    expect(out).toContain("Acme");
    expect(out).not.toMatch(/script|alert|onload|onclick|evil\.example|javascript:|foreignObject|iframe|<set|<image|<style|ENTITY/i);
  });

  it("refuses a file with no SVG left", () => {
    expect(sanitizeSvg("<html><script>alert(1)</script></html>")).toBeUndefined();
  });
});

describe("custom stylesheet sanitising", () => {
  const clean = (css: string, files: Record<string, string> = {}) => sanitizeCustomCss(enc.encode(css), (u) => files[u]);

  it("keeps rules, maps bundle URLs to their address and drops what loads from elsewhere", () => {
    const r = clean(`@import url(https://evil.example/a.css); @import "x.css"; @namespace svg url(http://www.w3.org/2000/svg);
.a { color: red; background: url(img/x.png) }
.b { background: url("https://evil.example/t.gif"); color: blue }
.c { behavior: url(x.htc); -moz-binding: url(x.xml#b); width: expression(alert(1)); --x: url(https://e.example) }
.d { background: u\\72l(https://e.example/y) }
@font-face { font-family: X; src: url(fonts/x.woff2) format("woff2"); font-display: swap }
</style><script>alert(1)</script>`, { "img/x.png": "abc.png", "fonts/x.woff2": "def.woff2" });
    if (!("css" in r)) throw new Error(r.refused);
    expect(r.css).toContain(".a{color:red;background:url(abc.png)}");
    expect(r.css).toContain(".b{color:blue}");
    expect(r.css).toContain("src:url(def.woff2)format(\"woff2\")");
    expect(r.css).not.toMatch(/import|namespace|evil|e\.example|behavior|binding|expression|<|script/i);
    expect(r.dropped).toEqual(expect.arrayContaining(["@import", "url(https://evil.example/t.gif)"]));
  });

  it("refuses a stylesheet over 64 KiB or not UTF-8", () => {
    expect(sanitizeCustomCss(new Uint8Array(64 * 1024 + 1).fill(32), () => undefined)).toEqual({ refused: expect.stringMatching(/at most 65536 bytes/) });
    expect(sanitizeCustomCss(new Uint8Array([0xff, 0xfe]), () => undefined)).toEqual({ refused: "is not UTF-8 text" });
  });
});

describe("a bundle's brand", () => {
  const bundle = (yaml: string, extra: Record<string, string | Uint8Array> = {}) => compileBundle(fileMap({
    "portico.yaml": yaml, "guides/intro.md": "---\ntitle: Intro\n---\nHello.\n", ...extra,
  }), new Map());

  it("compiles files to content addresses, sanitising the SVG logo and the stylesheet", async () => {
    const r = await bundle(`brand:
  logo: { light: img/logo.svg, dark: img/logo-dark.png }
  favicon: img/logo.svg
  colors: { primary: "#9a4a00", dark: "#f0a45d" }
  fonts: { text: { family: Inter, files: [fonts/inter.woff2] } }
  css: theme/brand.css
`, {
      "img/logo.svg": EVIL_SVG, "img/logo-dark.png": new Uint8Array([137, 80, 78, 71]), "fonts/inter.woff2": new Uint8Array([119, 79, 70, 50]),
      "theme/brand.css": ".top { background: url(../img/logo-dark.png) } .x { background: url(https://evil.example/p.gif) }",
    });
    expect(r.checks.invalidFrontMatter).toEqual([]);
    expect(r.checks.brokenLinks).toEqual([expect.objectContaining({ file: "theme/brand.css", target: "url(https://evil.example/p.gif)" })]);
    const svg = r.assets.find((a) => a.path === "img/logo.svg")!;
    expect(dec.decode(svg.data)).not.toMatch(/script|onload|evil/);
    const png = r.assets.find((a) => a.path === "img/logo-dark.png")!;
    const css = r.assets.find((a) => a.path === "theme/brand.css")!;
    expect(css.contentType).toBe("text/css; charset=utf-8");
    expect(dec.decode(css.data)).toBe(`.top{background:url(${png.sha256}.png)}.x{}`);
    const at = (a: { sha256: string }, ext: string) => `\uE002/_content/${a.sha256}.${ext}`;
    expect(r.config.brand).toEqual({
      logo: { light: at(svg, "svg"), dark: at(png, "png") }, favicon: at(svg, "svg"), colors: { primary: "#9a4a00", dark: "#f0a45d" },
      fonts: { text: { family: "Inter", files: [{ src: at(r.assets.find((a) => a.path === "fonts/inter.woff2")!, "woff2") }] } }, css: at(css, "css"),
    });
  });

  it("refuses a low-contrast colour and reports missing files", async () => {
    const r = await bundle(`brand:\n  logo: missing.svg\n  colors: { primary: "#ffee00" }\n`);
    expect(r.refusal).toBe("invalid-front-matter");
    expect(r.checks.invalidFrontMatter).toEqual([{ file: "portico.yaml", line: 1, message: expect.stringContaining("colors.primary #ffee00 has contrast 1.2:1 on #ffffff (light theme); WCAG AA needs 4.5:1") }]);
    expect(r.checks.brokenLinks).toEqual([expect.objectContaining({ target: "missing.svg", kind: "asset", message: "brand.logo.light: no file missing.svg in the bundle" })]);
  });
});
