/**
 * @module The forms of a portal's dashboard pages (issue 32), shared by the server and the browser: each form's
 * fields become the body of one portal API call (`method path`, the same route a token uses), checked here first so
 * a mistake is named next to its field before anything is sent. Without JavaScript the form posts to
 * `/app/orgs/{org}/portals/{portal}/forms/{id}` and the server builds the same call in-process (worker/routes/dashboard.ts);
 * with it, client/entries/dashboard.ts sends the call from the browser. Either way the API validates again,
 * authorises (roles, plan) and audits, and its `error.details.field` is mapped back to an input by {@link inputFor}.
 * Platform-free: no Workers or DOM types.
 */
import { AUDIENCE, DOMAIN } from "../access/names";
import { VARIABLE_NAME } from "../access/saml/attributes";

/** A form's submitted fields (FormData in either runtime). */
export interface FieldSource {
  get(name: string): string;
  getAll(name: string): string[];
}

/** What a form's fields build: the call to send, or a message per input (`_` for the form as a whole). */
export type Built =
  | { ok: true; query?: string; json?: unknown; raw?: { text: string; contentType: string } }
  | { ok: false; errors: Record<string, string> };

/** One form of a portal page. */
export interface PortalFormSpec {
  /** The page it lives on (`/app/orgs/{org}/portals/{portal}/{section}`). */
  section: "access" | "branding" | "domain";
  method: "PATCH" | "PUT" | "DELETE";
  path: string;
  /** API field paths (`error.details.field`, a prefix of it) → the input that shows their message. */
  fields: Record<string, string>;
  /** Inputs whose values are never rendered back (secrets). */
  secret?: readonly string[];
  /** A confirmation the browser asks before sending. */
  confirm?: string;
  build?: (f: FieldSource) => Built;
}

/** Comma-, space- or newline-separated values, trimmed, empty ones dropped. */
export function listOf(value: string): string[] {
  return value.split(/[\s,]+/).map((v) => v.trim()).filter(Boolean);
}

const fail = (errors: Record<string, string>): Built => ({ ok: false, errors });

/**
 * Reads the gated-sections text: one section a line, `<path or navigation group>: <audience>, <audience>`; a line
 * starting with `/` is a path prefix, any other a group title; empty lines and `#` comments are skipped.
 * @returns the `access.sections` list, or the first faulty line's message.
 */
export function parseSectionLines(text: string): { sections: Array<{ prefix?: string; group?: string; audiences: string[] }> } | { error: string } {
  const sections: Array<{ prefix?: string; group?: string; audiences: string[] }> = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line || line.startsWith("#")) continue;
    // Audience names cannot hold a colon, group titles may: split at the last one.
    const at = line.lastIndexOf(":");
    if (at <= 0) return { error: `line ${i + 1}: write "<path or group>: <audiences>", like "/guides/partners: partners"` };
    const where = line.slice(0, at).trim();
    const audiences = listOf(line.slice(at + 1)).map((a) => a.toLowerCase());
    if (!audiences.length) return { error: `line ${i + 1}: name at least one audience after the colon` };
    const bad = audiences.find((a) => !AUDIENCE.test(a));
    if (bad) return { error: `line ${i + 1}: "${bad}" is not an audience name (lower-case letters, digits, - and _)` };
    sections.push(where.startsWith("/") ? { prefix: where, audiences } : { group: where, audiences });
  }
  return { sections };
}

/** The gated sections as {@link parseSectionLines} reads them. */
export function sectionLines(sections: ReadonlyArray<{ prefix?: string; group?: string; audiences: readonly string[] }>): string {
  return sections.map((s) => `${s.prefix ?? s.group ?? ""}: ${s.audiences.join(", ")}`).join("\n");
}

/** The forms of a portal's pages, by id (the `data-form` attribute and the last segment of the no-script action). */
export const PORTAL_FORMS = {
  access: {
    section: "access", method: "PATCH", path: "/v1/portal",
    fields: {
      "access.default": "default", "access.methods": "methods", "access.password": "password",
      "access.magicLink.allowList": "allowList", "access.magicLink.audiences": "magicAudiences", "access.magicLink": "allowedDomains",
    },
    secret: ["password"],
    build: (f) => {
      const errors: Record<string, string> = {};
      const def = f.get("default");
      if (def !== "public" && def !== "private") errors.default = "choose public or private";
      const password = f.get("password");
      if (password && (password.length < 8 || password.length > 256)) errors.password = "a shared password has 8 to 256 characters";
      const allowList = listOf(f.get("allowList"));
      const badAddress = allowList.find((a) => !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(a));
      if (badAddress) errors.allowList = `"${badAddress}" is not an e-mail address`;
      const allowedDomains = listOf(f.get("allowedDomains")).map((d) => d.replace(/^@/, ""));
      const badDomain = allowedDomains.find((d) => !DOMAIN.test(d.toLowerCase()));
      if (badDomain) errors.allowedDomains = `"${badDomain}" is not a domain name, like example.com`;
      if (Object.keys(errors).length) return fail(errors);
      const audiences = listOf(f.get("magicAudiences"));
      // The magic-link inputs are on the page only when the plan has them (`magicLink` = "shown"); without them the
      // stored domains are left as they are, not cleared.
      const magicLink = f.get("magicLink") === "shown" ? { magicLink: { allowedDomains, allowList, ...(audiences.length ? { audiences } : {}) } } : {};
      return { ok: true, json: { access: { default: def, methods: f.getAll("methods"), ...(password ? { password } : {}), ...magicLink } } };
    },
  },
  sections: {
    section: "access", method: "PATCH", path: "/v1/portal",
    fields: { "access.sections": "sections" },
    build: (f) => {
      const read = parseSectionLines(f.get("sections"));
      return "error" in read ? fail({ sections: read.error }) : { ok: true, json: { access: { sections: read.sections } } };
    },
  },
  jwt: {
    section: "access", method: "PATCH", path: "/v1/portal",
    fields: {
      "access.jwt.issuer": "issuer", "access.jwt.audiencesClaim": "audiencesClaim", "access.jwt.audience": "audience",
      "access.jwt.secret": "secret", "access.jwt": "keys", "access.methods": "keys",
    },
    secret: ["secret"],
    build: (f) => {
      const jwt: Record<string, unknown> = {};
      const errors: Record<string, string> = {};
      for (const k of ["issuer", "audience"] as const) {
        const v = f.get(k).trim();
        if (v.length > 512) errors[k] = "at most 512 characters";
        else if (v) jwt[k] = v;
      }
      const claim = f.get("audiencesClaim").trim();
      if (claim && !/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/.test(claim)) errors.audiencesClaim = "a claim name, like groups";
      else if (claim) jwt.audiencesClaim = claim;
      const keys = f.get("keys").trim();
      if (keys.startsWith("{")) {
        try {
          const parsed = JSON.parse(keys) as Record<string, unknown>;
          jwt.jwks = Array.isArray(parsed.keys) ? parsed : { keys: [parsed] };
        } catch (error) {
          errors.keys = `not valid JSON: ${(error as Error).message}`;
        }
      } else if (keys.startsWith("-----BEGIN PUBLIC KEY-----")) jwt.publicKey = keys;
      else if (keys) errors.keys = "paste a JWK Set (JSON: {\"keys\": [...]}) or a PEM public key (-----BEGIN PUBLIC KEY-----)";
      const secret = f.get("secret");
      if (secret && (secret.length < 32 || secret.length > 512)) errors.secret = "an HS256 secret has 32 to 512 characters";
      else if (secret) jwt.secret = secret;
      if (Object.keys(errors).length) return fail(errors);
      return { ok: true, json: { access: { jwt } } };
    },
  },
  "reader-saml": {
    section: "access", method: "PUT", path: "/v1/portal/sso",
    fields: { metadata: "metadata", groups: "groups", email: "email", variables: "variables" },
    build: (f) => {
      const text = f.get("metadata").trim();
      const errors: Record<string, string> = {};
      if (!text) errors.metadata = "paste the identity provider's metadata XML";
      else if (!text.startsWith("<")) errors.metadata = "this is not XML: paste the metadata document the identity provider gives (it starts with <)";
      const query = new URLSearchParams();
      const attribute = /^[\x21-\x7e]{1,256}$/;
      for (const k of ["groups", "email"] as const) {
        const v = f.get(k).trim();
        if (v && !attribute.test(v)) errors[k] = "an attribute name: 1-256 visible ASCII characters, no spaces";
        else if (v) query.set(k, v);
      }
      // Reader variables filled from attributes, one `variable: attribute` per line (the PUT's `var.<name>`): the
      // PUT replaces the whole mapping, so the form shows and sends every one set before.
      const lines = f.get("variables").split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
      for (const [n, line] of lines.entries()) {
        const m = /^([^:\s]+)\s*:\s*(\S+)$/.exec(line);
        if (!m || !VARIABLE_NAME.test(m[1]) || !attribute.test(m[2])) {
          errors.variables = `line ${n + 1}: write "variable: attribute" (a variable name of letters, digits, _ and -; an attribute name without spaces)`;
          break;
        }
        query.set(`var.${m[1]}`, m[2]);
      }
      if (Object.keys(errors).length) return fail(errors);
      return { ok: true, ...(query.toString() ? { query: `?${query}` } : {}), raw: { text, contentType: "application/samlmetadata+xml" } };
    },
  },
  "reader-saml-delete": { section: "access", method: "DELETE", path: "/v1/portal/sso", fields: {}, confirm: "Turn readers' SAML sign-in off? Readers it signed in are signed out." },
  "sign-out": { section: "access", method: "DELETE", path: "/v1/portal/sessions", fields: {}, confirm: "Sign every reader out?" },
  brand: {
    section: "branding", method: "PATCH", path: "/v1/portal",
    fields: { "brand.name": "name", "brand.colors": "primary", "brand.themeDefault": "themeDefault" },
    build: (f) => {
      const name = f.get("name").trim();
      if (name.length > 100) return fail({ name: "at most 100 characters" });
      const themeDefault = f.get("themeDefault");
      if (!["system", "light", "dark"].includes(themeDefault)) return fail({ themeDefault: "choose system, light or dark" });
      const primary = f.get("primary").trim();
      return { ok: true, json: { brand: { name: name || null, themeDefault, colors: primary ? { primary } : null } } };
    },
  },
  logo: {
    section: "branding", method: "PATCH", path: "/v1/portal",
    fields: { "brand.logo.dark": "logoDark", "brand.logo": "logoLight", "brand.favicon": "favicon" },
    build: (f) => {
      const [light, dark, favicon] = [f.get("logoLight").trim(), f.get("logoDark").trim(), f.get("favicon").trim()];
      const errors: Record<string, string> = {};
      if (light && !/\.(svg|png)$/i.test(light)) errors.logoLight = "a logo is an SVG or PNG file of the content bundle";
      if (dark && !/\.(svg|png)$/i.test(dark)) errors.logoDark = "a logo is an SVG or PNG file of the content bundle";
      if (dark && !light) errors.logoLight = "give the light logo too (the dark one only replaces it in the dark theme)";
      if (favicon && !/\.(svg|png|ico)$/i.test(favicon)) errors.favicon = "a favicon is an SVG, PNG or ICO file of the content bundle";
      if (Object.keys(errors).length) return fail(errors);
      return { ok: true, json: { brand: { logo: light ? { light, ...(dark ? { dark } : {}) } : null, favicon: favicon || null } } };
    },
  },
  domain: {
    section: "domain", method: "PUT", path: "/v1/portal/domain",
    fields: { hostname: "hostname" },
    build: (f) => {
      const hostname = f.get("hostname").trim().toLowerCase();
      if (!/^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(hostname)) return fail({ hostname: "a hostname such as docs.example.com" });
      return { ok: true, json: { hostname } };
    },
  },
  "domain-delete": { section: "domain", method: "DELETE", path: "/v1/portal/domain", fields: {}, confirm: "Remove the custom domain?" },
} satisfies Record<string, PortalFormSpec>;

/** One form's id. */
export type PortalFormId = keyof typeof PORTAL_FORMS;

/** The call form `id`'s fields make (a form without fields, such as a removal, makes its call as is). */
export function buildForm(id: PortalFormId, fields: FieldSource): Built {
  const spec: PortalFormSpec = PORTAL_FORMS[id];
  return spec.build ? spec.build(fields) : { ok: true };
}

/** Whether `id` names a portal form. */
export function isPortalForm(id: string): id is PortalFormId {
  return Object.prototype.hasOwnProperty.call(PORTAL_FORMS, id);
}

/**
 * The input of form `id` that shows an API error about `field` (`error.details.field`): the input of the longest
 * listed path that is `field` or a prefix of it (`access.sections[2].prefix` → the sections text), else `_`.
 */
export function inputFor(id: PortalFormId, field: unknown): string {
  if (typeof field !== "string") return "_";
  const fields: Record<string, string> = PORTAL_FORMS[id].fields;
  let best: string | undefined;
  for (const path of Object.keys(fields)) {
    const under = field === path || field.startsWith(`${path}.`) || field.startsWith(`${path}[`);
    if (under && (!best || path.length > best.length)) best = path;
  }
  return best ? fields[best]! : "_";
}

/** The element id of input `name` of form `id` (unique on the page: several forms share a page). */
export function inputId(id: PortalFormId, name: string): string {
  return `f-${id}-${name}`;
}
