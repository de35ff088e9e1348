/**
 * @module Branding (portico.yaml `brand:` and `PATCH /v1/portal`'s `brand`): reading the block, the WCAG AA
 * contrast check of its colours, and the stylesheet that turns a brand into design-token overrides
 * (docs/branding.md). Platform-free: the same code checks a bundle at publish, a PATCH, and `portico check`.
 */
import { formatHex, parse, wcagContrast } from "culori";

/** `themeDefault`: the theme a reader who has not picked one sees. */
export const THEME_DEFAULTS = ["system", "light", "dark"] as const;
export type ThemeDefault = (typeof THEME_DEFAULTS)[number];

/** A top-bar tab or footer link. `href` is an https URL, a mailto: address, or a path inside the portal (`/guides/x`). */
export interface BrandLink {
  title: string;
  href: string;
}

/** One `@font-face` of a brand family: a bundle path as written, or its content address once compiled. */
export interface BrandFontFile {
  src: string;
  /** CSS `font-weight`: one weight (`400`) or a variable font's range (`100 900`). */
  weight?: string;
  style?: "normal" | "italic";
}

/** A font family of the brand: `text` is body and headings, `code` is code and paths. */
export interface BrandFont {
  family: string;
  files: BrandFontFile[];
}

/**
 * The brand as written (bundle paths) or compiled (`\uE002/_content/<sha>.<ext>` URLs): every key optional, absent
 * = Portico's default. Colours are normalised to lower-case `#rrggbb`.
 */
export interface Brand {
  name?: string;
  logo?: { light: string; dark?: string };
  favicon?: string;
  colors?: { primary?: string; light?: string; dark?: string };
  fonts?: { text?: BrandFont; code?: BrandFont };
  navigation?: BrandLink[];
  footer?: BrandLink[];
  themeDefault?: ThemeDefault;
  /** A stylesheet of the bundle for what the settings do not cover (sanitised at publish: docs/branding.md). */
  css?: string;
}

/** The keys a `brand` block may hold, in documentation order. */
export const BRAND_KEYS = ["name", "logo", "favicon", "colors", "fonts", "navigation", "footer", "themeDefault", "css"] as const;

/**
 * Theme backgrounds a brand colour is read on: the page (`--bg`) and the banner and code panels (`--soft`).
 * Kept equal to client/static/portico.css's tokens (worker/content/brand.test.ts compares them).
 */
export const THEME_BACKGROUNDS = {
  light: ["#ffffff", "#f6f8fa"],
  dark: ["#0d1117", "#161b22"],
} as const;

/** WCAG 2.1 AA minimum contrast for normal-size text (success criterion 1.4.3). */
export const AA_TEXT_CONTRAST = 4.5;

/** Most links in `navigation` or `footer`; most font files per family. */
const MAX_LINKS = 12;
const MAX_FONT_FILES = 8;
const FAMILY = /^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$/;
const WEIGHT = /^[1-9]00( [1-9]00)?$|^[1-9][0-9]{0,2}( [1-9][0-9]{0,2})?$/;
/** A bundle path: no scheme, no `..`, no leading slash (resolved against the bundle's root). */
const BUNDLE_PATH = /^(?!\/)(?!.*(^|\/)\.\.(\/|$))[^\0:?#\\]{1,300}$/;

/** Normalises a CSS colour (hex, rgb(), hsl(), a named colour) to `#rrggbb`, or undefined when it is not one. */
export function normaliseColour(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 64) return undefined;
  const c = parse(value.trim());
  if (!c || (c.alpha !== undefined && c.alpha < 1)) return undefined;
  return formatHex(c);
}

/** Contrast ratio (WCAG 2.1 relative luminance) of two `#rrggbb` colours, 1-21. */
export function contrastRatio(a: string, b: string): number {
  return wcagContrast(a, b);
}

/** A ratio as the refusal messages write it: one decimal, rounded down so 4.49 never shows as 4.5. */
function ratioText(r: number): string {
  return `${(Math.floor(r * 10) / 10).toFixed(1)}:1`;
}

/** The brand colour each theme uses: its variant, else `primary`. */
export function themeColours(colors: Brand["colors"]): { light?: string; dark?: string } {
  return { light: colors?.light ?? colors?.primary, dark: colors?.dark ?? colors?.primary };
}

/**
 * WCAG AA check of the brand colours: each theme's colour is link and focus text on that theme's backgrounds,
 * so it needs 4.5:1 on each ({@link THEME_BACKGROUNDS}).
 * @returns one message per failing colour, naming the key, the ratio and the background, e.g.
 *   `colors.primary #ffee00 has contrast 1.3:1 on #ffffff (light theme); WCAG AA needs 4.5:1`.
 */
export function contrastProblems(colors: Brand["colors"]): string[] {
  const problems: string[] = [];
  for (const theme of ["light", "dark"] as const) {
    const key = colors?.[theme] ? theme : colors?.primary ? "primary" : undefined;
    if (!key) continue;
    const colour = colors![key]!;
    for (const bg of THEME_BACKGROUNDS[theme]) {
      const r = contrastRatio(colour, bg);
      if (r < AA_TEXT_CONTRAST) {
        const hint = key === "primary" ? `; set colors.${theme} to a variant for the ${theme} theme` : "";
        problems.push(`colors.${key} ${colour} has contrast ${ratioText(r)} on ${bg} (${theme} theme); WCAG AA needs ${AA_TEXT_CONTRAST}:1${hint}`);
        break;
      }
    }
  }
  return problems;
}

function readLinks(raw: unknown, key: "navigation" | "footer", bad: (m: string) => void): BrandLink[] | undefined {
  if (!Array.isArray(raw) || raw.length > MAX_LINKS) {
    bad(`\`brand.${key}\` must be a list of at most ${MAX_LINKS} \`{title, href}\``);
    return undefined;
  }
  const out: BrandLink[] = [];
  for (const [i, l] of raw.entries()) {
    const at = `\`brand.${key}[${i}]\``;
    if (!l || typeof l !== "object" || Array.isArray(l)) { bad(`${at} must be \`{title, href}\``); return undefined; }
    const { title, href } = l as Record<string, unknown>;
    if (typeof title !== "string" || !title.trim() || title.length > 60) { bad(`${at}.title must be text of 1-60 characters`); return undefined; }
    if (typeof href !== "string" || !linkHrefOk(href)) { bad(`${at}.href must be an https URL, a mailto: address or a path of the portal starting with /`); return undefined; }
    out.push({ title: title.trim(), href });
  }
  return out;
}

/** Link targets a brand may name: https (http on localhost), mailto:, or a portal path (never `//host`). */
export function linkHrefOk(href: string): boolean {
  if (href.length > 2048 || /[\0-\x1f\s]/.test(href)) return false;
  if (href.startsWith("/")) return !href.startsWith("//");
  if (/^mailto:[^\s@]+@[^\s@]+$/i.test(href)) return true;
  if (!URL.canParse(href)) return false;
  const u = new URL(href);
  return u.protocol === "https:" || (u.protocol === "http:" && ["localhost", "127.0.0.1"].includes(u.hostname));
}

function readPath(raw: unknown, at: string, bad: (m: string) => void): string | undefined {
  if (typeof raw === "string" && BUNDLE_PATH.test(raw.replace(/^\.\//, ""))) return raw.replace(/^\.\//, "");
  bad(`\`${at}\` must be a path of a file in the content bundle`);
  return undefined;
}

function readFont(raw: unknown, at: string, bad: (m: string) => void): BrandFont | undefined {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) { bad(`\`${at}\` must be \`{family, files}\``); return undefined; }
  const { family, files } = raw as Record<string, unknown>;
  if (typeof family !== "string" || !FAMILY.test(family)) { bad(`\`${at}.family\` must be a font name of letters, digits, spaces, "-" and "_"`); return undefined; }
  if (!Array.isArray(files) || files.length === 0 || files.length > MAX_FONT_FILES) { bad(`\`${at}.files\` must list 1-${MAX_FONT_FILES} font files (woff2, woff, ttf, otf)`); return undefined; }
  const out: BrandFontFile[] = [];
  for (const [i, f] of files.entries()) {
    const entry = typeof f === "string" ? { src: f } : (f as Record<string, unknown> | null);
    if (!entry || typeof entry !== "object") { bad(`\`${at}.files[${i}]\` must be a path or \`{src, weight, style}\``); return undefined; }
    const src = readPath(entry.src, `${at}.files[${i}].src`, bad);
    if (!src) return undefined;
    if (!/\.(woff2|woff|ttf|otf)$/i.test(src)) { bad(`\`${at}.files[${i}].src\` must be a woff2, woff, ttf or otf file`); return undefined; }
    const file: BrandFontFile = { src };
    if (entry.weight !== undefined) {
      const w = String(entry.weight);
      if (!WEIGHT.test(w)) { bad(`\`${at}.files[${i}].weight\` must be a weight (400) or a range (100 900)`); return undefined; }
      file.weight = w;
    }
    if (entry.style !== undefined) {
      if (entry.style !== "normal" && entry.style !== "italic") { bad(`\`${at}.files[${i}].style\` must be normal or italic`); return undefined; }
      file.style = entry.style;
    }
    out.push(file);
  }
  return { family, files: out };
}

/**
 * Reads a `brand` block (portico.yaml, or the `brand` of a PATCH body) into a {@link Brand} of bundle paths.
 * Each problem goes to `bad` (the key's value is then left out; `kind` is `contrast` for a colour failing WCAG AA);
 * colours are checked for contrast here, so a bundle and a PATCH are refused with the same message.
 */
export function readBrand(raw: unknown, bad: (message: string, kind?: "contrast") => void): Brand {
  const brand: Brand = {};
  if (raw === undefined || raw === null) return brand;
  if (typeof raw !== "object" || Array.isArray(raw)) { bad(`\`brand\` must be a mapping of ${BRAND_KEYS.join(", ")}`); return brand; }
  const b = raw as Record<string, unknown>;
  const unknown = Object.keys(b).filter((k) => !(BRAND_KEYS as readonly string[]).includes(k));
  if (unknown.length) bad(`unknown brand key(s): ${unknown.map((k) => k.slice(0, 40)).join(", ")}; known: ${BRAND_KEYS.join(", ")}`);
  if (b.name !== undefined) {
    if (typeof b.name === "string" && b.name.trim() && b.name.length <= 100) brand.name = b.name.trim();
    else bad("`brand.name` must be text of 1-100 characters");
  }
  if (b.logo !== undefined) {
    const l = typeof b.logo === "string" ? { light: b.logo } : b.logo;
    if (!l || typeof l !== "object" || Array.isArray(l)) bad("`brand.logo` must be a path or `{light, dark}` paths of SVG or PNG files");
    else {
      const { light, dark } = l as Record<string, unknown>;
      const lp = readPath(light, "brand.logo.light", bad);
      const dp = dark === undefined ? undefined : readPath(dark, "brand.logo.dark", bad);
      const notImage = [lp, dp].find((p) => p && !/\.(svg|png)$/i.test(p));
      if (notImage) bad(`\`brand.logo\`: ${notImage.slice(0, 100)} must be an SVG or PNG file`);
      else if (lp && (dark === undefined || dp)) brand.logo = { light: lp, ...(dp ? { dark: dp } : {}) };
    }
  }
  if (b.favicon !== undefined) {
    const p = readPath(b.favicon, "brand.favicon", bad);
    if (p && !/\.(svg|png|ico)$/i.test(p)) bad("`brand.favicon` must be an SVG, PNG or ICO file");
    else if (p) brand.favicon = p;
  }
  if (b.colors !== undefined) {
    if (!b.colors || typeof b.colors !== "object" || Array.isArray(b.colors)) bad("`brand.colors` must be `{primary, light, dark}`");
    else {
      const c = b.colors as Record<string, unknown>;
      const colors: NonNullable<Brand["colors"]> = {};
      for (const key of Object.keys(c)) {
        if (key !== "primary" && key !== "light" && key !== "dark") { bad(`unknown colour \`brand.colors.${key.slice(0, 40)}\`; known: primary, light, dark`); continue; }
        const hex = normaliseColour(c[key]);
        if (hex) colors[key] = hex;
        else bad(`\`brand.colors.${key}\` must be an opaque CSS colour (#0a58ca, rgb(10 88 202))`);
      }
      const problems = contrastProblems(colors);
      for (const p of problems) bad(p, "contrast");
      if (!problems.length && Object.keys(colors).length) brand.colors = colors;
    }
  }
  if (b.fonts !== undefined) {
    if (!b.fonts || typeof b.fonts !== "object" || Array.isArray(b.fonts)) bad("`brand.fonts` must be `{text, code}`");
    else {
      const f = b.fonts as Record<string, unknown>;
      const fonts: NonNullable<Brand["fonts"]> = {};
      for (const key of Object.keys(f)) {
        if (key !== "text" && key !== "code") { bad(`unknown font \`brand.fonts.${key.slice(0, 40)}\`; known: text, code`); continue; }
        const font = readFont(f[key], `brand.fonts.${key}`, bad);
        if (font) fonts[key] = font;
      }
      if (Object.keys(fonts).length) brand.fonts = fonts;
    }
  }
  for (const key of ["navigation", "footer"] as const) {
    if (b[key] === undefined) continue;
    const links = readLinks(b[key], key, bad);
    if (links) brand[key] = links;
  }
  if (b.themeDefault !== undefined) {
    if ((THEME_DEFAULTS as readonly unknown[]).includes(b.themeDefault)) brand.themeDefault = b.themeDefault as ThemeDefault;
    else bad("`brand.themeDefault` must be system, light or dark");
  }
  if (b.css !== undefined) {
    const p = readPath(b.css, "brand.css", bad);
    if (p && !/\.css$/i.test(p)) bad("`brand.css` must be a .css file");
    else if (p) brand.css = p;
  }
  return brand;
}

/** The bundle paths a brand names (logo, favicon, fonts, stylesheet), each with the key that names it. */
export function brandFiles(brand: Brand): { key: string; path: string }[] {
  const out: { key: string; path: string }[] = [];
  if (brand.logo) {
    out.push({ key: "logo.light", path: brand.logo.light });
    if (brand.logo.dark) out.push({ key: "logo.dark", path: brand.logo.dark });
  }
  if (brand.favicon) out.push({ key: "favicon", path: brand.favicon });
  for (const k of ["text", "code"] as const) brand.fonts?.[k]?.files.forEach((f, i) => out.push({ key: `fonts.${k}.files[${i}]`, path: f.src }));
  if (brand.css) out.push({ key: "css", path: brand.css });
  return out;
}

/**
 * Replaces every bundle path of `brand` by `url(path)`; a path `url` cannot resolve is left out and reported.
 * @returns a new brand (the input is untouched).
 */
export function resolveBrandFiles(brand: Brand, url: (path: string) => string | undefined, missing: (key: string, path: string) => void): Brand {
  const out: Brand = structuredClone(brand);
  const get = (key: string, path: string) => {
    const u = url(path);
    if (!u) missing(key, path);
    return u;
  };
  if (out.logo) {
    const light = get("logo.light", out.logo.light);
    const dark = out.logo.dark ? get("logo.dark", out.logo.dark) : undefined;
    if (light) out.logo = { light, ...(dark ? { dark } : {}) };
    else delete out.logo;
  }
  if (out.favicon) {
    const u = get("favicon", out.favicon);
    if (u) out.favicon = u;
    else delete out.favicon;
  }
  for (const k of ["text", "code"] as const) {
    const font = out.fonts?.[k];
    if (!font) continue;
    font.files = font.files.flatMap((f, i) => {
      const u = get(`fonts.${k}.files[${i}]`, f.src);
      return u ? [{ ...f, src: u }] : [];
    });
    if (!font.files.length) delete out.fonts![k];
  }
  if (out.css) {
    const u = get("css", out.css);
    if (u) out.css = u;
    else delete out.css;
  }
  return out;
}

/**
 * The brand readers see: `override` (PATCH /v1/portal) key by key over `base` (the live release's portico.yaml);
 * a key replaces the bundle's whole value (`colors` with all its variants).
 */
export function mergeBrand(base: Brand | undefined, override: Brand | undefined): Brand {
  // Whole keys, colours included: each side's colours passed the contrast check as a set, so the result does too.
  return { ...(base ?? {}), ...(override ?? {}) };
}

const FONT_FORMAT: Record<string, string> = { woff2: "woff2", woff: "woff", ttf: "truetype", otf: "opentype" };
const TEXT_STACK = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const CODE_STACK = 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, monospace';

/** A value safe inside a CSS `url("…")` of a stylesheet (compiled URLs are `/…/_content/<sha>.<ext>`). */
function cssUrl(u: string): string | undefined {
  return /^[A-Za-z0-9/_.:%-]{1,600}$/.test(u) ? `url("${u}")` : undefined;
}

/**
 * The portal's theme stylesheet (`/theme.css`): design-token overrides for the brand's colours and fonts, and the
 * `@font-face` rules (`font-display: swap`). URLs are already resolved against the portal's base path. Every
 * value was validated when read (hex colours, font names of letters and digits), so none can close a rule.
 */
export function themeStylesheet(brand: Brand): string {
  const out: string[] = [];
  const faces: string[] = [];
  for (const [k, fallback] of [["text", TEXT_STACK], ["code", CODE_STACK]] as const) {
    const font = brand.fonts?.[k];
    if (!font || !FAMILY.test(font.family)) continue;
    for (const f of font.files) {
      const url = cssUrl(f.src);
      if (!url) continue;
      const ext = f.src.slice(f.src.lastIndexOf(".") + 1).toLowerCase();
      faces.push(`@font-face { font-family: "${font.family}"; src: ${url} format("${FONT_FORMAT[ext] ?? "woff2"}"); font-weight: ${f.weight && WEIGHT.test(f.weight) ? f.weight : "400"}; font-style: ${f.style === "italic" ? "italic" : "normal"}; font-display: swap; }`);
    }
    out.push(`--${k === "text" ? "sans" : "mono"}: "${font.family}", ${fallback};`);
  }
  const hex = (c: string | undefined) => (c && /^#[0-9a-f]{6}$/.test(c) ? c : undefined);
  const { light, dark } = themeColours(brand.colors);
  const rules: string[] = [...faces];
  const lightTokens = [...out, ...(hex(light) ? [`--accent: ${light}; --focus: ${light};`] : [])];
  if (lightTokens.length) rules.push(`:root { ${lightTokens.join(" ")} }`);
  if (hex(dark)) {
    const tokens = `--accent: ${dark}; --focus: ${dark};`;
    rules.push(`@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${tokens} } }`, `:root[data-theme="dark"] { ${tokens} }`);
  }
  return rules.length ? rules.join("\n") + "\n" : "";
}

/** Whether a brand changes anything `/theme.css` carries (so pages without one skip the request). */
export function hasThemeStylesheet(brand: Brand): boolean {
  return !!(brand.colors || brand.fonts?.text || brand.fonts?.code);
}

/**
 * A stored release's config as today's code reads it: releases published before `brand` carry
 * `branding: {logoUrl, accent}`, read as the light theme's logo and colour.
 */
export function upgradeStoredConfig<C extends { brand?: Brand }>(config: C & { branding?: { logoUrl?: string; accent?: string } }): C & { brand: Brand } {
  if (config.brand) return config as C & { brand: Brand };
  const old = config.branding ?? {};
  const accent = normaliseColour(old.accent);
  const brand: Brand = {
    ...(old.logoUrl ? { logo: { light: old.logoUrl } } : {}),
    ...(accent && contrastProblems({ light: accent }).length === 0 ? { colors: { light: accent } } : {}),
  };
  return { ...config, brand };
}

/** Every file URL a brand names (logos, favicon, font files, stylesheet): assets any reader may fetch. */
export function brandUrls(brand: Brand): string[] {
  return [brand.logo?.light, brand.logo?.dark, brand.favicon, ...(brand.fonts?.text?.files ?? []).map((f) => f.src), ...(brand.fonts?.code?.files ?? []).map((f) => f.src), brand.css]
    .filter((u): u is string => !!u);
}
