/** @module Credentials in samples: the operation's first satisfiable security requirement, as visible placeholders. */
import { isObject } from "../schema-view/refs";
import type { AuthPlaceholder } from "./types";

/** Placeholder for bearer tokens (HTTP bearer, OAuth 2.0, OpenID Connect). */
export const TOKEN_PLACEHOLDER = "YOUR_TOKEN";
/** Placeholder for API keys. */
export const API_KEY_PLACEHOLDER = "YOUR_API_KEY";
/** Placeholder for HTTP basic credentials (base64 of `user:password`). */
export const BASIC_PLACEHOLDER = "YOUR_BASE64_CREDENTIALS";

function placeholdersFor(name: string, scheme: Record<string, unknown>): AuthPlaceholder[] | undefined {
  const type = typeof scheme.type === "string" ? scheme.type : "";
  if (type === "apiKey" && typeof scheme.name === "string" && (scheme.in === "header" || scheme.in === "query" || scheme.in === "cookie")) {
    return [{ scheme: name, placement: scheme.in, name: scheme.name, value: API_KEY_PLACEHOLDER, placeholder: API_KEY_PLACEHOLDER }];
  }
  if (type === "http") {
    const s = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "bearer";
    if (s === "basic") return [{ scheme: name, placement: "header", name: "Authorization", value: `Basic ${BASIC_PLACEHOLDER}`, placeholder: BASIC_PLACEHOLDER }];
    if (s === "bearer") return [{ scheme: name, placement: "header", name: "Authorization", value: `Bearer ${TOKEN_PLACEHOLDER}`, placeholder: TOKEN_PLACEHOLDER }];
    const label = s.charAt(0).toUpperCase() + s.slice(1);
    return [{ scheme: name, placement: "header", name: "Authorization", value: `${label} ${TOKEN_PLACEHOLDER}`, placeholder: TOKEN_PLACEHOLDER }];
  }
  if (type === "oauth2" || type === "openIdConnect") {
    return [{ scheme: name, placement: "header", name: "Authorization", value: `Bearer ${TOKEN_PLACEHOLDER}`, placeholder: TOKEN_PLACEHOLDER }];
  }
  if (type === "mutualTLS") return [];
  return undefined;
}

/**
 * Placeholders for the first security requirement whose schemes are all known (schemes within one
 * requirement apply together; requirements are alternatives). An empty requirement (`{}`, auth optional)
 * is skipped if another requirement can be shown. @see OpenAPI 3.1 §4.8.30 Security Requirement Object
 */
export function authPlaceholders(security: Record<string, string[]>[], schemes: Record<string, Record<string, unknown>>): AuthPlaceholder[] {
  for (const requirement of security) {
    if (!isObject(requirement) || Object.keys(requirement).length === 0) continue;
    const out: AuthPlaceholder[] = [];
    let ok = true;
    for (const name of Object.keys(requirement)) {
      const scheme = schemes[name];
      const p = isObject(scheme) ? placeholdersFor(name, scheme) : undefined;
      if (!p) { ok = false; break; }
      out.push(...p);
    }
    if (ok) return out;
  }
  return [];
}

/**
 * `input` with the reader's own `credential` in place of the bearer-token and API-key placeholders (bearer,
 * OAuth 2.0 and OpenID Connect send `Authorization: Bearer <credential>`; apiKey schemes their own header, query
 * parameter or cookie). Basic credentials and other HTTP schemes keep their placeholders: one key cannot be a
 * user and password. The credential becomes the entry's `placeholder` too, so the island's later renders keep it.
 */
export function withCredential<T extends { auth: AuthPlaceholder[] }>(input: T, credential: string | undefined): T {
  if (!credential) return input;
  const auth = input.auth.map((a) => {
    const bearer = a.placeholder === TOKEN_PLACEHOLDER && a.value === `Bearer ${TOKEN_PLACEHOLDER}`;
    if (!bearer && a.placeholder !== API_KEY_PLACEHOLDER) return a;
    return { ...a, value: a.value.replace(a.placeholder, credential), placeholder: credential };
  });
  return { ...input, auth };
}
