/**
 * @module From a validated SAML assertion to the `ReaderIdentity` the session holds: NameID → reader id,
 * attributes → email, audiences (default attribute `groups`) and per-reader variables (every `vars.<name>`
 * attribute, plus named attributes the portal maps to variables). Values are bounded: an IdP that sends
 * thousands of groups or megabyte attributes does not grow the session cookie past what a browser keeps.
 */
import type { ReaderIdentity } from "../identity";
import type { ValidatedAssertion } from "./response";
import { AUDIENCE } from "../names";

/** Which attributes mean what, per portal (`PUT /v1/portal/sso` query). */
export interface AttributeMapping {
  /** Attribute whose values are audience names. Default `groups`. */
  groupsAttribute: string;
  /** Attribute holding the email; default: `email`, `mail`, or the NameID when it is an email address. */
  emailAttribute?: string;
  /** Variable name → attribute name, besides the implicit `vars.<name>` attributes. */
  variables: Record<string, string>;
}

export const DEFAULT_ATTRIBUTE_MAPPING: AttributeMapping = { groupsAttribute: "groups", variables: {} };

const EMAIL_ATTRIBUTES = ["email", "mail", "urn:oid:0.9.2342.19200300.100.1.3", "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"];
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
/** A variable name as `{{name}}` placeholders spell it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const MAX_AUDIENCES = 50;
const MAX_VARIABLES = 30;
const MAX_VALUE_CHARS = 512;
/**
 * Audience names as access config spells them (access/policy.ts: lower-case letters, digits, `-`, `_`); group
 * values are lower-cased like JWT claims, and anything else cannot match a label, so it is dropped.
 */

/** The first value of `name`, when there is one within bounds. */
function first(attributes: Record<string, string[]>, name: string): string | undefined {
  const value = attributes[name]?.[0];
  return value && value.length <= MAX_VALUE_CHARS ? value : undefined;
}

/** The reader a validated assertion describes, under `mapping`. */
export function identityFromAssertion(assertion: ValidatedAssertion, mapping: AttributeMapping = DEFAULT_ATTRIBUTE_MAPPING): ReaderIdentity {
  const { attributes, nameId } = assertion;
  const emailCandidates = mapping.emailAttribute ? [mapping.emailAttribute] : EMAIL_ATTRIBUTES;
  let email = emailCandidates.map((n) => first(attributes, n)).find((v) => v !== undefined && EMAIL.test(v));
  if (!email && !mapping.emailAttribute && EMAIL.test(nameId)) email = nameId;

  const groups = (attributes[mapping.groupsAttribute] ?? []).map((g) => g.toLowerCase()).filter((g) => AUDIENCE.test(g));
  const audiences = [...new Set(groups)].slice(0, MAX_AUDIENCES);

  const variables: Record<string, string> = {};
  const put = (name: string, value: string | undefined): void => {
    if (value === undefined || !VARIABLE_NAME.test(name) || Object.keys(variables).length >= MAX_VARIABLES) return;
    variables[name] = value;
  };
  for (const name of Object.keys(attributes)) if (name.startsWith("vars.")) put(name.slice(5), first(attributes, name));
  // Explicit mappings win over `vars.*` of the same name: the portal chose them.
  for (const [name, attribute] of Object.entries(mapping.variables)) {
    const value = first(attributes, attribute);
    if (value !== undefined && VARIABLE_NAME.test(name)) {
      delete variables[name];
      put(name, value);
    }
  }
  return { readerId: nameId, ...(email ? { email: email.toLowerCase() } : {}), audiences, variables, method: "saml" };
}
