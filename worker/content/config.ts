/**
 * @module portico.yaml (portal name, locales, navigation, variables, audiences, glossary path, branding, access, lint,
 * playground) and
 * glossary.yaml (term → definition, or `{definition, synonyms}`), read with defaults; problems carry lines.
 */
import { parseDocument, isMap, isPair, isScalar, type Document } from "yaml";
import { parseAccessBlock } from "../access/policy";
import { parseRuleset } from "../openapi/lint/ruleset";
import type { ContentConfig, FileProblem } from "./types";

const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const AUDIENCE = /^[a-z0-9][a-z0-9_-]*$/;
const COLOUR = /^#[0-9a-fA-F]{3,8}$/;
/** A host name (or `*.` + one), an IPv4 or bracketed IPv6 literal, an optional port. */
const HOST = /^(\*\.)?([A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?$/;

export const DEFAULT_CONFIG: ContentConfig = { locales: ["en"], navigation: [], variables: {}, audiences: [], glossary: "glossary.yaml", branding: {} };

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
  if (d.branding !== undefined) {
    const b = (d.branding ?? {}) as Record<string, unknown>;
    if (typeof b.logo === "string") config.branding.logo = b.logo;
    if (typeof b.accent === "string") COLOUR.test(b.accent) ? (config.branding.accent = b.accent) : bad("branding", "`branding.accent` must be a hex colour");
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
    if (!p || typeof p !== "object" || Array.isArray(p)) bad("playground", "`playground` must be a mapping of `allowHosts` and `allowPrivateHosts`");
    else if (!Array.isArray(hosts) || !hosts.every((h) => typeof h === "string" && HOST.test(h))) bad("playground", "`playground.allowHosts` must be a list of host names (api.example.com, api.example.com:8443, *.example.com)");
    else if (p.allowPrivateHosts !== undefined && typeof p.allowPrivateHosts !== "boolean") bad("playground", "`playground.allowPrivateHosts` must be true or false");
    else config.playground = { allowHosts: hosts.map((h) => h.toLowerCase()), allowPrivateHosts: p.allowPrivateHosts === true };
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
