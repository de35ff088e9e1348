/**
 * @module Reader tokens for machines: `Authorization: Bearer <JWT>` signed with the portal's JWT settings (the same
 * keys, issuer, audience and claims as the JWT sign-in, worker/access/jwt.ts), so a customer's server can mint one per
 * user for the MCP endpoint and the Docs API. Unlike the sign-in hand-off a bearer token is not single-use: it is
 * presented on every request until it expires (at most 24 h of remaining life, as the hand-off). Docs API keys
 * (`pk_…`, `sk_…`) travel in the same header and are not reader tokens: they are left to worker/docs-api/keys.ts.
 */
import type { ReaderIdentity } from "./identity";
import { verifyReaderJwt } from "./jwt";
import type { AccessPolicy } from "./policy";

/** Prefixes of Docs API keys, which share the Authorization header with reader JWTs. */
export const API_KEY_PREFIXES = ["pk_", "sk_"] as const;

/** The outcome of a request's bearer token: none, a verified reader, or a refusal (RFC 6750 `invalid_token`). */
export type BearerReader =
  | { kind: "none" }
  | { kind: "reader"; identity: ReaderIdentity }
  | { kind: "invalid"; reason: string };

/**
 * The token of an `Authorization: Bearer …` header (RFC 6750 §2.1), else undefined. `:` is let through besides the
 * b64token characters: the MCP endpoint's OAuth access tokens (access/oauth.ts, the library's format) carry it.
 */
export function bearerToken(authorization: string | undefined | null): string | undefined {
  const m = /^Bearer[ \t]+([A-Za-z0-9\-._~+/:]+=*)[ \t]*$/i.exec(authorization ?? "");
  return m?.[1];
}

/** Whether a bearer token is a Docs API key rather than a reader JWT. */
export function isApiKeyToken(token: string): boolean {
  return API_KEY_PREFIXES.some((p) => token.startsWith(p));
}

/** Whether the portal takes JWTs at all (a secret, a JWKS or a public key configured, and the `jwt` way in enabled). */
export function takesJwt(access: { policy: AccessPolicy; jwtSecret: string | null }): boolean {
  return access.policy.methods.includes("jwt") && (access.jwtSecret !== null || !!access.policy.jwt?.jwks || !!access.policy.jwt?.publicKey);
}

/**
 * The reader a request's `Authorization` header names for a portal with `access`: `none` without a header or with
 * a Docs API key; `invalid` when the JWT does not verify or the portal takes no JWTs (the reason is safe to show).
 */
export async function readerFromBearer(authorization: string | undefined | null, access: { policy: AccessPolicy; jwtSecret: string | null }, now = Date.now()): Promise<BearerReader> {
  if (!authorization) return { kind: "none" };
  const token = bearerToken(authorization);
  if (!token) return /^Bearer\b/i.test(authorization) ? { kind: "invalid", reason: "the Authorization header is not a bearer token" } : { kind: "none" };
  if (isApiKeyToken(token)) return { kind: "none" };
  if (!takesJwt(access)) return { kind: "invalid", reason: "this portal takes no reader tokens (configure its JWT settings)" };
  const result = await verifyReaderJwt(token, access.policy.jwt ?? { audiencesClaim: "groups", variablesClaim: "vars" }, access.jwtSecret, now);
  return result.ok ? { kind: "reader", identity: result.identity } : { kind: "invalid", reason: result.reason };
}
