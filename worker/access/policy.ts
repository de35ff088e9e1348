/**
 * @module A portal's access policy: who may read which path (portal default, sections by path prefix or navigation
 * group, a page's own `audiences`), parsed from `PATCH /v1/portal`'s and portico.yaml's `access` block. Platform-free.
 * The labels it gives a unit go to `canRead` (worker/access/reader.ts), which stays the only decision.
 */
import type { SignInMethod } from "./identity";
import { SIGNED_IN } from "./reader";
import { AUDIENCE, DOMAIN, EMAIL } from "./names";

export { SIGNED_IN, EMAIL };
export const SIGN_IN_METHODS: readonly SignInMethod[] = ["password", "magic-link", "jwt", "saml"];
const PREFIX = /^(\/[A-Za-z0-9._~%-]+)+$/;
const CLAIM = /^[A-Za-z_][A-Za-z0-9_.:/-]{0,127}$/;
const MAX_SECTIONS = 100;

/** A gated section: a path prefix after `/p/{portal}` (`/guides/partners`, `/reference/internal`) or a navigation group title. */
export interface AccessSection {
  prefix?: string;
  group?: string;
  audiences: string[];
}

/** The JWT way in, minus its HS256 secret (kept apart: never echoed). */
export interface JwtSettings {
  jwks?: { keys: Record<string, unknown>[] };
  publicKey?: string;
  issuer?: string;
  audience?: string;
  /** Claim holding the reader's audience names (default `groups`). */
  audiencesClaim: string;
  /** Claim holding an object of per-reader variables (default `vars`). */
  variablesClaim: string;
}

/** The non-secret access settings (what `GET/PATCH /v1/portal` show). */
export interface AccessSettings {
  default: "public" | "private";
  methods: SignInMethod[];
  /** What a reader signed in with the shared password holds; absent: every audience of the portal. */
  passwordAudiences?: string[];
  jwt?: JwtSettings;
  /** Who may ask for a link (a domain or an address), and what they hold once in (absent: every audience of the portal). */
  magicLink?: { allowedDomains: string[]; allowList: string[]; audiences?: string[] };
  sections: AccessSection[];
}

/** Settings with the facts about secrets a decision needs (never the secrets themselves). */
export interface AccessPolicy extends AccessSettings {
  hasPassword: boolean;
  hasJwtSecret: boolean;
  /** Every audience the portal names (portico.yaml's `audiences`, sections, passwordAudiences). */
  audiences: string[];
}

export const PUBLIC_SETTINGS: AccessSettings = { default: "public", methods: [], sections: [] };

/** A parsed `access` block: the settings it names, and secrets when the source may carry them (`null` = clear). */
export interface ParsedAccess {
  settings: Partial<AccessSettings>;
  password?: string | null;
  jwtSecret?: string | null;
}

type Result = { ok: true; value: ParsedAccess } | { ok: false; message: string };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function audiences(v: unknown, name: string): string[] {
  if (!Array.isArray(v) || v.length > 64 || !v.every((a) => typeof a === "string" && AUDIENCE.test(a.toLowerCase()))) {
    throw new Error(`${name} must be a list of at most 64 audience names (lower-case letters, digits, - and _)`);
  }
  return [...new Set(v.map((a: string) => a.toLowerCase()))];
}

function parseJwt(v: unknown, secrets: boolean, out: ParsedAccess): JwtSettings {
  if (!isObject(v)) throw new Error("access.jwt must be an object");
  const known = ["secret", "jwks", "publicKey", "issuer", "audience", "audiencesClaim", "variablesClaim"];
  const unknown = Object.keys(v).filter((k) => !known.includes(k));
  if (unknown.length) throw new Error(`access.jwt: unknown field(s) ${unknown.join(", ")}`);
  const jwt: JwtSettings = { audiencesClaim: "groups", variablesClaim: "vars" };
  if (v.secret !== undefined) {
    if (!secrets) throw new Error("access.jwt.secret cannot be in portico.yaml: set it with PATCH /v1/portal");
    if (v.secret !== null && (typeof v.secret !== "string" || v.secret.length < 32 || v.secret.length > 512)) throw new Error("access.jwt.secret must be 32-512 characters (HS256 needs at least 256 bits)");
    out.jwtSecret = v.secret as string | null;
  }
  if (v.jwks !== undefined) {
    if (!isObject(v.jwks) || !Array.isArray(v.jwks.keys) || v.jwks.keys.length === 0 || v.jwks.keys.length > 20 || !v.jwks.keys.every(isObject)) throw new Error("access.jwt.jwks must be a JWK Set: {\"keys\": [1-20 public JWKs]}");
    if (v.jwks.keys.some((k) => "d" in k || "k" in k)) throw new Error("access.jwt.jwks must hold public keys only (no `d` or `k`)");
    jwt.jwks = { keys: v.jwks.keys as Record<string, unknown>[] };
  }
  if (v.publicKey !== undefined) {
    if (typeof v.publicKey !== "string" || !/^-----BEGIN PUBLIC KEY-----[\s\S]+-----END PUBLIC KEY-----\s*$/.test(v.publicKey.trim()) || v.publicKey.length > 8192) throw new Error("access.jwt.publicKey must be a PEM SPKI public key (-----BEGIN PUBLIC KEY-----)");
    jwt.publicKey = v.publicKey.trim();
  }
  if (jwt.jwks && jwt.publicKey) throw new Error("access.jwt: give jwks or publicKey, not both");
  for (const k of ["issuer", "audience"] as const) {
    if (v[k] !== undefined) {
      if (typeof v[k] !== "string" || !v[k] || (v[k] as string).length > 512) throw new Error(`access.jwt.${k} must be a non-empty string`);
      jwt[k] = v[k] as string;
    }
  }
  for (const k of ["audiencesClaim", "variablesClaim"] as const) {
    if (v[k] !== undefined) {
      if (typeof v[k] !== "string" || !CLAIM.test(v[k] as string)) throw new Error(`access.jwt.${k} must be a claim name`);
      jwt[k] = v[k] as string;
    }
  }
  return jwt;
}

function parseSections(v: unknown): AccessSection[] {
  if (!Array.isArray(v) || v.length > MAX_SECTIONS) throw new Error(`access.sections must be a list of at most ${MAX_SECTIONS} sections`);
  return v.map((s, i) => {
    if (!isObject(s)) throw new Error(`access.sections[${i}] must be {prefix | group, audiences}`);
    const aud = audiences(s.audiences, `access.sections[${i}].audiences`);
    if (s.prefix !== undefined && s.group === undefined) {
      const prefix = typeof s.prefix === "string" ? s.prefix.replace(/\/+$/, "") : "";
      if (!PREFIX.test(prefix) || prefix.length > 512 || prefix.split("/").some((seg) => seg === "." || seg === "..")) throw new Error(`access.sections[${i}].prefix must be a path after the portal, like /guides/partners`);
      return { prefix, audiences: aud };
    }
    if (s.group !== undefined && s.prefix === undefined && typeof s.group === "string" && s.group.trim() && s.group.length <= 200) return { group: s.group, audiences: aud };
    throw new Error(`access.sections[${i}] needs either a prefix (a path like /guides/partners) or a group (a navigation group title)`);
  });
}

/**
 * Reads an `access` block. `secrets`: whether `password` and `jwt.secret` may appear (the API: yes; portico.yaml: no).
 * Unknown fields are refused, so a typo never leaves a section public by accident.
 */
export function parseAccessBlock(v: unknown, secrets: boolean): Result {
  if (!isObject(v)) return { ok: false, message: "access must be an object" };
  const out: ParsedAccess = { settings: {} };
  const s = out.settings;
  try {
    const known = ["default", "methods", "password", "passwordAudiences", "jwt", "magicLink", "sections"];
    const unknown = Object.keys(v).filter((k) => !known.includes(k));
    if (unknown.length) throw new Error(`access: unknown field(s) ${unknown.join(", ")}; known: ${known.join(", ")}`);
    if (v.default !== undefined) {
      if (v.default !== "public" && v.default !== "private") throw new Error('access.default must be "public" or "private"');
      s.default = v.default;
    }
    if (v.methods !== undefined) {
      if (!Array.isArray(v.methods) || !v.methods.every((m) => SIGN_IN_METHODS.includes(m))) throw new Error(`access.methods must be a list of ${SIGN_IN_METHODS.join(", ")}`);
      s.methods = [...new Set(v.methods as SignInMethod[])];
    }
    if (v.password !== undefined) {
      if (!secrets) throw new Error("access.password cannot be in portico.yaml: set it with PATCH /v1/portal");
      if (v.password !== null && (typeof v.password !== "string" || v.password.length < 8 || v.password.length > 256)) throw new Error("access.password must be 8-256 characters (or null to remove it)");
      out.password = v.password as string | null;
    }
    if (v.passwordAudiences !== undefined) s.passwordAudiences = audiences(v.passwordAudiences, "access.passwordAudiences");
    if (v.jwt !== undefined) s.jwt = parseJwt(v.jwt, secrets, out);
    if (v.magicLink !== undefined) {
      const m = v.magicLink;
      if (!isObject(m) || Object.keys(m).some((k) => !["allowedDomains", "allowList", "audiences"].includes(k))) throw new Error("access.magicLink must be {allowedDomains?: [...], allowList?: [...], audiences?: [...]}");
      const list = (x: unknown, name: string, ok: (e: string) => boolean) => {
        if (x === undefined) return [];
        if (!Array.isArray(x) || x.length > 1000 || !x.every((e) => typeof e === "string" && ok(e.toLowerCase()))) throw new Error(`access.magicLink.${name} is not a list of ${name === "allowList" ? "email addresses" : "domain names"}`);
        return [...new Set(x.map((e: string) => e.toLowerCase()))];
      };
      s.magicLink = {
        allowedDomains: list(m.allowedDomains, "allowedDomains", (d) => DOMAIN.test(d)), allowList: list(m.allowList, "allowList", (e) => EMAIL.test(e)),
        ...(m.audiences !== undefined ? { audiences: audiences(m.audiences, "access.magicLink.audiences") } : {}),
      };
    }
    if (v.sections !== undefined) s.sections = parseSections(v.sections);
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
  return { ok: true, value: out };
}

/**
 * The effective policy: the API's fields over portico.yaml's, over the public default. `yamlAudiences` are
 * portico.yaml's declared audiences (part of "every audience of the portal").
 */
export function effectivePolicy(fromYaml: Partial<AccessSettings> | undefined, fromApi: Partial<AccessSettings> | undefined, secrets: { hasPassword: boolean; hasJwtSecret: boolean }, yamlAudiences: string[] = []): AccessPolicy {
  const merged: AccessSettings = { ...PUBLIC_SETTINGS, ...fromYaml, ...fromApi };
  const all = new Set([...yamlAudiences, ...merged.sections.flatMap((s) => s.audiences), ...(merged.passwordAudiences ?? []), ...(merged.magicLink?.audiences ?? [])]);
  return { ...merged, ...secrets, audiences: [...all].filter((a) => a !== "public" && a !== SIGNED_IN) };
}

/** True when `path` is `prefix` or below it (segment boundary: `/guides/partners` does not gate `/guides/partnership`). */
function under(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + "/");
}

/**
 * Access labels of a unit: its own labels (front matter `audiences`, changelog `audiences`) when it has any, else
 * those of the most specific section holding it (longest prefix, else its navigation group), else `signed-in` on
 * a private portal, else none (public). `path` is after `/p/{portal}`, without locale (`/guides/intro`,
 * `/reference/pets/`); `groups` are the navigation group titles listing it.
 */
export function unitLabels(policy: AccessSettings, path: string, own: readonly string[] = [], groups: readonly string[] = []): string[] {
  if (own.length > 0) return [...own];
  let best: AccessSection | undefined;
  for (const s of policy.sections) if (s.prefix && under(path, s.prefix) && (!best || s.prefix.length > best.prefix!.length)) best = s;
  if (!best && groups.length) best = policy.sections.find((s) => s.group !== undefined && groups.includes(s.group));
  if (best) return [...best.audiences];
  return policy.default === "private" ? [SIGNED_IN] : [];
}

/**
 * Whether a signed-out reader asking for `path` is sent to sign in (rather than shown a 404): the portal is private
 * or a section prefix holds the path. Decided from the path alone, so the answer never reveals whether a page exists.
 */
export function pathNeedsSignIn(policy: AccessSettings, path: string): boolean {
  if (policy.methods.length === 0) return false;
  return policy.default === "private" || policy.sections.some((s) => s.prefix !== undefined && under(path, s.prefix) && !s.audiences.includes("public"));
}

/** Whether anything of the portal depends on the reader (then pages are `Cache-Control: private, no-store`). */
export function isGated(policy: AccessPolicy): boolean {
  return policy.default === "private" || policy.sections.length > 0 || policy.methods.length > 0;
}
