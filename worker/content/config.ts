/**
 * @module portico.yaml (portal name, locales, navigation, variables, audiences, glossary path, brand, access, lint,
 * playground) and
 * glossary.yaml (term → definition, or `{definition, synonyms}`), read with defaults; problems carry lines.
 */
import { parseDocument, isMap, isPair, isScalar, type Document } from "yaml";
import { parseAccessBlock } from "../access/policy";
import { parseRuleset } from "../openapi/lint/ruleset";
import { normaliseColour, readBrand } from "./brand";
import type { ContentConfig, FileProblem, OAuthSchemeSettings } from "./types";

const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const AUDIENCE = /^[a-z0-9][a-z0-9_-]*$/;
/** A host name (or `*.` + one), an IPv4 or bracketed IPv6 literal, an optional port. */
const HOST = /^(\*\.)?([A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/;

export const DEFAULT_CONFIG: ContentConfig = { locales: ["en"], navigation: [], variables: {}, audiences: [], glossary: "glossary.yaml", brand: {} };

function load(file: string, text: string, problems: FileProblem[]): { data: unknown; doc?: Document } {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    problems.push({ file, line: doc.errors[0].linePos?.[0]?.line ?? 1, message: `not valid YAML: ${doc.errors[0].message.split("\n")[0]}` });
    return { data: undefined };
  }
  return { data: doc.toJS({ maxAliasCount: 50 }), doc };
}

function lineOfKey(doc: Document | undefined, text: string, key: string): number {
  if (doc && isMap(doc.contents)) {
    for (const item of doc.contents.items) {
      if (isPair(item) && isScalar(item.key) && item.key.value === key && item.key.range) return text.slice(0, item.key.range[0]).split("\n").length;
    }
  }
  return 1;
}

const OAUTH_URL_FIELDS = ["authorizationUrl", "tokenUrl", "openIdConnectUrl"] as const;
/** A security scheme name as `components.securitySchemes` keys are written in practice (bounded, no controls). */
const SCHEME_NAME = /^[A-Za-z0-9_.\-]{1,100}$/;

/**
 * `playground.oauth.<scheme>`: `{clientId, authorizationUrl?, tokenUrl?, openIdConnectUrl?}` per security scheme
 * (docs/playground.md, "OAuth 2.0"). URLs must be absolute http(s). `clientSecret` is refused: portico.yaml lives in
 * a repository and a secret there is everyone's (readers type a confidential client's secret themselves).
 * @returns the valid entries (undefined when the block is absent); each problem goes to `bad`.
 */
function readOAuthSettings(raw: unknown, bad: (message: string) => void): Record<string, OAuthSchemeSettings> | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "object" || Array.isArray(raw)) {
    bad("`playground.oauth` must map security scheme names to `{clientId, authorizationUrl, tokenUrl, openIdConnectUrl}`");
    return undefined;
  }
  const out: Record<string, OAuthSchemeSettings> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const at = `\`playground.oauth.${name.slice(0, 100)}\``;
    if (!SCHEME_NAME.test(name)) { bad(`${at}: a security scheme name is letters, digits, "_", "." and "-"`); continue; }
    if (!value || typeof value !== "object" || Array.isArray(value)) { bad(`${at} must be a mapping`); continue; }
    const v = value as Record<string, unknown>;
    if ("clientSecret" in v) { bad(`${at}.clientSecret is not read: a secret in portico.yaml is readable by everyone with the repository; use a public client (PKCE) or let readers enter their own secret`); continue; }
    const unknownKeys = Object.keys(v).filter((k) => k !== "clientId" && !(OAUTH_URL_FIELDS as readonly string[]).includes(k));
    if (unknownKeys.length) { bad(`${at}: unknown field ${unknownKeys[0].slice(0, 50)} (clientId, authorizationUrl, tokenUrl, openIdConnectUrl)`); continue; }
    if (v.clientId !== undefined && (typeof v.clientId !== "string" || !/^[\x20-\x7e]{1,256}$/.test(v.clientId))) { bad(`${at}.clientId must be 1-256 printable ASCII characters`); continue; }
    const entry: OAuthSchemeSettings = {};
    if (typeof v.clientId === "string") entry.clientId = v.clientId;
    let ok = true;
    for (const field of OAUTH_URL_FIELDS) {
      const url = v[field];
      if (url === undefined) continue;
      if (typeof url !== "string" || !/^https?:\/\//i.test(url) || url.length > 2048 || !URL.canParse(url)) { bad(`${at}.${field} must be an absolute http(s) URL`); ok = false; break; }
      entry[field] = url;
    }
    if (ok) out[name] = entry;
  }
  return out;
}

/** Reads portico.yaml (absent: defaults). Invalid fields are reported and replaced by their default. */
export function readConfig(text: string | undefined): { config: ContentConfig; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  const config: ContentConfig = structuredClone(DEFAULT_CONFIG);
  if (text === undefined) return { config, problems };
  const file = "portico.yaml";
  const { data, doc } = load(file, text, problems);
  if (data === undefined || data === null) return { config, problems };
  if (typeof data !== "object" || Array.isArray(data)) return { config, problems: [...problems, { file, line: 1, message: "portico.yaml must be a mapping" }] };
  const d = data as Record<string, unknown>;
  const bad = (key: string, message: string) => problems.push({ file, line: lineOfKey(doc, text, key), message });
  if (d.name !== undefined) typeof d.name === "string" ? (config.name = d.name) : bad("name", "`name` must be text");
  if (d.locales !== undefined) {
    if (Array.isArray(d.locales) && d.locales.length > 0 && d.locales.every((l) => typeof l === "string" && LOCALE.test(l))) config.locales = [...new Set(d.locales as string[])];
    else bad("locales", "`locales` must be a non-empty list of locale tags (en, fr, pt-BR), the default first");
  }
  if (d.navigation !== undefined) {
    if (Array.isArray(d.navigation) && d.navigation.every((g) => g && typeof g === "object" && typeof g.title === "string" && Array.isArray(g.items) && g.items.every((i: unknown) => typeof i === "string"))) {
      config.navigation = (d.navigation as { title: string; items: string[] }[]).map((g) => ({ title: g.title, items: g.items }));
    } else bad("navigation", "`navigation` must be a list of `{title, items: [guides/<slug> | steps/<slug> | api:<api>]}`");
  }
  if (d.variables !== undefined) {
    if (d.variables && typeof d.variables === "object" && !Array.isArray(d.variables)) {
      for (const [name, v] of Object.entries(d.variables as Record<string, unknown>)) {
        if (!NAME.test(name)) bad("variables", `variable name "${name}" must be letters, digits and _`);
        else if (typeof v === "string" || typeof v === "number") config.variables[name] = { default: String(v) };
        else if (v && typeof v === "object" && "default" in v) {
          const o = v as { default: unknown; description?: unknown };
          config.variables[name] = { default: String(o.default ?? ""), description: typeof o.description === "string" ? o.description : undefined };
        } else bad("variables", `variable "${name}" needs a default value`);
      }
    } else bad("variables", "`variables` must map names to `{default, description}`");
  }
  if (d.audiences !== undefined) {
    if (Array.isArray(d.audiences) && d.audiences.every((a) => typeof a === "string" && AUDIENCE.test(a))) config.audiences = d.audiences as string[];
    else bad("audiences", "`audiences` must be a list of lower-case names");
  }
  if (d.glossary !== undefined) typeof d.glossary === "string" && !d.glossary.includes("..") ? (config.glossary = d.glossary) : bad("glossary", "`glossary` must be a path in the bundle");
  if (d.brand !== undefined) config.brand = readBrand(d.brand, (message) => bad("brand", message));
  if (d.branding !== undefined) {
    // The first form (`branding: {logo, accent}`), read into `brand`: the accent is the light theme's colour, as it
    // always was (the dark theme keeps Portico's, which a dark accent would fail on). `brand` wins where both say.
    if (d.brand !== undefined) bad("branding", "`branding` and `brand` are both set: move `branding.logo` and `branding.accent` into `brand`");
    else {
      const b = (d.branding ?? {}) as Record<string, unknown>;
      const accent = b.accent === undefined ? undefined : normaliseColour(b.accent);
      if (b.accent !== undefined && !accent) bad("branding", "`branding.accent` must be a hex colour");
      config.brand = readBrand({ ...(typeof b.logo === "string" ? { logo: b.logo } : {}), ...(accent ? { colors: { light: accent } } : {}) }, (message) => bad("branding", message));
    }
  }
  if (d.lint !== undefined) {
    // A Spectral-compatible ruleset, applied to this portal's uploads and its editor (openapi/lint/ruleset.ts).
    const parsed = parseRuleset(d.lint);
    if (parsed.ok) config.lint = parsed.ruleset;
    else for (const p of parsed.problems) bad("lint", `\`${p.at}\` ${p.message}`);
  }
  if (d.access !== undefined) {
    // Same block as PATCH /v1/portal's `access`, secrets excepted (they never belong in a repository).
    const parsed = parseAccessBlock(d.access, false);
    if (parsed.ok) config.access = parsed.value.settings;
    else bad("access", parsed.message);
  }
  if (d.playground !== undefined) {
    const p = (d.playground ?? {}) as Record<string, unknown>;
    const hosts = p.allowHosts ?? [];
    if (!p || typeof p !== "object" || Array.isArray(p)) bad("playground", "`playground` must be a mapping of `allowHosts`, `allowPrivateHosts` and `oauth`");
    else if (!Array.isArray(hosts) || !hosts.every((h) => typeof h === "string" && HOST.test(h))) bad("playground", "`playground.allowHosts` must be a list of host names (api.example.com, api.example.com:8443, *.example.com)");
    else if (p.allowPrivateHosts !== undefined && typeof p.allowPrivateHosts !== "boolean") bad("playground", "`playground.allowPrivateHosts` must be true or false");
    else {
      const oauth = readOAuthSettings(p.oauth, (message) => bad("playground", message));
      config.playground = { allowHosts: hosts.map((h) => h.toLowerCase()), allowPrivateHosts: p.allowPrivateHosts === true, ...(oauth ? { oauth } : {}) };
    }
  }
  return { config, problems };
}

/** A glossary entry before its Markdown is rendered. */
export interface RawTerm {
  term: string;
  definition: string;
  synonyms: string[];
}

/** Reads glossary.yaml: `term: definition` or `term: {definition, synonyms}`. */
export function readGlossary(file: string, text: string | undefined): { terms: RawTerm[]; problems: FileProblem[] } {
  const problems: FileProblem[] = [];
  if (text === undefined) return { terms: [], problems };
  const { data, doc } = load(file, text, problems);
  if (data === undefined || data === null) return { terms: [], problems };
  if (typeof data !== "object" || Array.isArray(data)) return { terms: [], problems: [{ file, line: 1, message: "the glossary must map terms to definitions" }] };
  const terms: RawTerm[] = [];
  for (const [term, v] of Object.entries(data as Record<string, unknown>)) {
    if (typeof v === "string") terms.push({ term, definition: v, synonyms: [] });
    else if (v && typeof v === "object" && typeof (v as { definition?: unknown }).definition === "string") {
      const syn = (v as { synonyms?: unknown }).synonyms;
      terms.push({ term, definition: (v as { definition: string }).definition, synonyms: Array.isArray(syn) ? syn.filter((s): s is string => typeof s === "string") : [] });
    } else problems.push({ file, line: lineOfKey(doc, text, term), message: `term "${term}" needs a definition` });
  }
  return { terms, problems };
}
