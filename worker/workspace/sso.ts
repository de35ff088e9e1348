/**
 * @module SAML single sign-on for writers (issue 32, Enterprise): what an organisation's IdP settings hold and how a
 * validated assertion (worker/access/saml/response.ts, the readers' verifier, reused as is) becomes a writer and a
 * role. The IdP may name a role in an attribute (`role` by default); `owner` is never granted by an IdP (owners are
 * made in Portico), so values are admin, editor or viewer; without one a new member gets the default role and an
 * existing member keeps theirs.
 */
import type { ValidatedAssertion } from "../access/saml/response";
import { ApiError } from "../http/errors";
import { can, type PlanHolder } from "./plans";
import type { Role } from "./roles";

/** Roles an IdP may grant, most powerful first. */
export const SSO_ROLES = ["admin", "editor", "viewer"] as const;
/** One role an IdP may grant. */
export type SsoRole = (typeof SSO_ROLES)[number];

/** An organisation's writer-SSO settings (`PUT /v1/orgs/{org}/sso` query). */
export interface WriterSsoSettings {
  /** Attribute holding the e-mail; default: `email`, `mail`, the standard claim URIs, or an e-mail NameID. */
  emailAttribute?: string;
  /** Attribute whose values name a role (admin, editor, viewer). Default `role`. */
  roleAttribute: string;
  /** Role of a writer the IdP signs in for the first time without a role attribute. Default `viewer`. */
  defaultRole: SsoRole;
}

export const DEFAULT_SSO_SETTINGS: WriterSsoSettings = { roleAttribute: "role", defaultRole: "viewer" };

const ATTRIBUTE_NAME = /^[\x21-\x7e]{1,256}$/;
const EMAIL_ATTRIBUTES = ["email", "mail", "urn:oid:0.9.2342.19200300.100.1.3", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"];
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** Whether `value` is a role an IdP may grant. */
export function isSsoRole(value: unknown): value is SsoRole {
  return typeof value === "string" && (SSO_ROLES as readonly string[]).includes(value);
}

/**
 * Settings from the PUT query (`email`, `role` = attribute names, `defaultRole`).
 * @throws ApiError 400 `invalid-attribute-name`, `invalid-role`, `invalid-query` naming the field.
 */
export function settingsFromQuery(params: URLSearchParams): WriterSsoSettings {
  const settings: WriterSsoSettings = { ...DEFAULT_SSO_SETTINGS };
  for (const [key, value] of params) {
    if (key === "defaultRole") {
      if (!isSsoRole(value)) throw new ApiError(400, "invalid-role", "defaultRole must be admin, editor or viewer (owners are made in Portico)", { field: "defaultRole" });
      settings.defaultRole = value;
      continue;
    }
    if (key !== "email" && key !== "role") throw new ApiError(400, "invalid-query", `unknown query parameter "${key}"; known: email, role, defaultRole`);
    if (!ATTRIBUTE_NAME.test(value)) throw new ApiError(400, "invalid-attribute-name", `${key} must name an attribute (1-256 visible ASCII characters)`, { field: key === "email" ? "emailAttribute" : "roleAttribute" });
    if (key === "email") settings.emailAttribute = value;
    else settings.roleAttribute = value;
  }
  return settings;
}

/** The writer an assertion names: a lower-cased e-mail, or undefined when the IdP sent none usable. */
export function emailOf(assertion: ValidatedAssertion, settings: WriterSsoSettings): string | undefined {
  const candidates = settings.emailAttribute ? [settings.emailAttribute] : EMAIL_ATTRIBUTES;
  const found = candidates.map((n) => assertion.attributes[n]?.[0]).find((v) => v !== undefined && v.length <= 320 && EMAIL.test(v));
  if (found) return found.toLowerCase();
  return !settings.emailAttribute && EMAIL.test(assertion.nameId) ? assertion.nameId.toLowerCase() : undefined;
}

/** The most powerful grantable role among the role attribute's values (case-insensitive), or undefined. */
export function roleOf(assertion: ValidatedAssertion, settings: WriterSsoSettings): SsoRole | undefined {
  const values = new Set((assertion.attributes[settings.roleAttribute] ?? []).map((v) => v.trim().toLowerCase()));
  return SSO_ROLES.find((r) => values.has(r));
}

/** What a sign-in does to the membership: join with a role, change it, or leave it. */
export type MembershipChange = { kind: "join"; role: Role } | { kind: "role"; from: Role; to: Role } | { kind: "none"; role: Role };

/**
 * The membership after a sign-in, given the current role (undefined: not a member) and the role the IdP named.
 * Owners keep their role whatever the IdP says (an IdP cannot demote the people who configured it).
 */
export function membershipAfter(current: Role | undefined, named: SsoRole | undefined, settings: WriterSsoSettings): MembershipChange {
  if (!current) return { kind: "join", role: named ?? settings.defaultRole };
  if (!named || current === "owner" || named === current) return { kind: "none", role: current };
  return { kind: "role", from: current, to: named };
}

/** Where an organisation's writers sign in through its IdP. */
export function ssoLoginPath(orgSlug: string): string {
  return `/v1/auth/saml/${orgSlug}/login`;
}

/**
 * Whether the organisation refuses this writer's session: it requires single sign-on (`writerSsoRequired`, on a
 * plan with `saml`), the session was not opened by its IdP, and the writer is not an owner. Owners keep the e-mail
 * link as the break-glass path (an IdP that is down or misconfigured must not lock the organisation out); their
 * e-mail sign-ins are audited `sso.break-glass`.
 */
export function ssoRefuses(writer: { ssoOrganisationId?: number | null }, org: PlanHolder & { id: number; writerSsoRequired: number | boolean }, role: Role): boolean {
  return !!org.writerSsoRequired && role !== "owner" && writer.ssoOrganisationId !== org.id && can(org, "saml");
}

/**
 * Throws when {@link ssoRefuses}: 403 `sso-required`, the message and `details.login` naming the SSO route.
 * @throws ApiError 403 `sso-required`.
 */
export function requireSsoSession(writer: { ssoOrganisationId?: number | null }, org: PlanHolder & { id: number; slug: string; name: string; writerSsoRequired: number | boolean }, role: Role): void {
  if (!ssoRefuses(writer, org, role)) return;
  const login = ssoLoginPath(org.slug);
  throw new ApiError(403, "sso-required", `${org.name} requires single sign-on for its writers: sign in through your identity provider at ${login} (or "Continue with SSO" on /app/signin with the organisation ID ${org.slug})`, { org: org.slug, login });
}
