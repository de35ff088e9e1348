/**
 * @module The JWT way in: the customer's own login redirects the reader to `auth/jwt?token=…`. Verified with
 * `jose` against the configured JWKS or PEM public key (RS256, ES256) or the shared secret (HS256), each key only
 * with its own algorithms (no `alg: none`, no HS/RS confusion); `exp` required, `iss`/`aud` checked when
 * configured, 60 s of clock skew, at most 24 h of remaining life. Claims map to a `ReaderIdentity`.
 * Replay is the caller's check (the returned `replayKey` is stored until `expiresAt`).
 */
import { createLocalJWKSet, decodeProtectedHeader, importSPKI, jwtVerify, type JWTPayload } from "jose";
import { sha256 as sha256Hex } from "../content/hash";
import type { ReaderIdentity } from "./identity";
import type { JwtSettings } from "./policy";

/** Clock skew tolerated on `exp`/`nbf`/`iat`, in seconds. */
export const JWT_CLOCK_SKEW_SECONDS = 60;
/** Longest remaining life a hand-off token may claim, in seconds (a longer one is a session token, not a hand-off). */
export const JWT_MAX_LIFETIME_SECONDS = 24 * 3600;
const ASYMMETRIC = ["RS256", "ES256"];
const AUDIENCE = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

export type JwtResult =
  | { ok: true; identity: ReaderIdentity; replayKey: string; expiresAt: number }
  | { ok: false; reason: string };

function claimAt(payload: JWTPayload, name: string): unknown {
  // Dotted names reach nested claims (`realm_access.roles`); a claim literally named with dots wins.
  if (name in payload) return payload[name];
  return name.split(".").reduce<unknown>((v, k) => (v && typeof v === "object" ? (v as Record<string, unknown>)[k] : undefined), payload);
}

/** The identity a verified payload describes: audiences from `audiencesClaim` (array or space-separated), variables from `variablesClaim`. */
export function identityFromClaims(payload: JWTPayload, settings: Pick<JwtSettings, "audiencesClaim" | "variablesClaim">): ReaderIdentity | undefined {
  const email = typeof payload.email === "string" && payload.email.length <= 320 ? payload.email : undefined;
  const readerId = typeof payload.sub === "string" && payload.sub ? payload.sub : email;
  if (!readerId || readerId.length > 512) return undefined;
  const raw = claimAt(payload, settings.audiencesClaim);
  const names = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(/\s+/) : [];
  const audiences = [...new Set(names.filter((a): a is string => typeof a === "string").map((a) => a.toLowerCase()).filter((a) => AUDIENCE.test(a)))].slice(0, 64);
  const vars = claimAt(payload, settings.variablesClaim);
  const variables: Record<string, string> = {};
  if (vars && typeof vars === "object" && !Array.isArray(vars)) {
    for (const [k, v] of Object.entries(vars).slice(0, 100)) {
      if (VARIABLE.test(k) && (typeof v === "string" || typeof v === "number" || typeof v === "boolean") && String(v).length <= 4096) variables[k] = String(v);
    }
  }
  return { readerId, ...(email ? { email } : {}), audiences, variables, method: "jwt" };
}

/**
 * Verifies `token` against `settings` and `secret` (HS256) at `now` (epoch ms).
 * @returns the identity, or a reason fit to show the reader (never the token's contents).
 */
export async function verifyReaderJwt(token: string, settings: JwtSettings, secret: string | null, now = Date.now()): Promise<JwtResult> {
  if (token.length > 16_384) return { ok: false, reason: "the token is too long" };
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return { ok: false, reason: "the token is not a JWT" };
  }
  const options = {
    issuer: settings.issuer, audience: settings.audience, clockTolerance: JWT_CLOCK_SKEW_SECONDS,
    requiredClaims: ["exp"], currentDate: new Date(now),
  };
  try {
    let payload: JWTPayload;
    if (alg === "HS256") {
      if (!secret) return { ok: false, reason: "HS256 tokens are not accepted by this portal" };
      ({ payload } = await jwtVerify(token, new TextEncoder().encode(secret), { ...options, algorithms: ["HS256"] }));
    } else if (alg && ASYMMETRIC.includes(alg) && settings.jwks) {
      ({ payload } = await jwtVerify(token, createLocalJWKSet(settings.jwks as Parameters<typeof createLocalJWKSet>[0]), { ...options, algorithms: ASYMMETRIC }));
    } else if (alg && ASYMMETRIC.includes(alg) && settings.publicKey) {
      ({ payload } = await jwtVerify(token, await importSPKI(settings.publicKey, alg), { ...options, algorithms: [alg] }));
    } else {
      return { ok: false, reason: `tokens signed with ${alg ?? "no algorithm"} are not accepted by this portal` };
    }
    const exp = payload.exp!;
    // jose checks `iat` only against a maximum age: a token "issued" in the future would outlive its hand-off.
    if (typeof payload.iat === "number" && payload.iat * 1000 > now + JWT_CLOCK_SKEW_SECONDS * 1000) return { ok: false, reason: "the token was issued in the future (more than 60 seconds of clock skew)" };
    if (exp * 1000 - now > JWT_MAX_LIFETIME_SECONDS * 1000) return { ok: false, reason: "the token lives too long for a sign-in hand-off (at most 24 hours)" };
    const identity = identityFromClaims(payload, settings);
    if (!identity) return { ok: false, reason: "the token names no reader (sub or email)" };
    const replayKey = typeof payload.jti === "string" && payload.jti ? `jti:${payload.jti.slice(0, 256)}` : `sha256:${await sha256Hex(token)}`;
    return { ok: true, identity, replayKey, expiresAt: (exp + JWT_CLOCK_SKEW_SECONDS) * 1000 };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reasons: Record<string, string> = {
      ERR_JWT_EXPIRED: "the token has expired",
      ERR_JWT_CLAIM_VALIDATION_FAILED: "the token's claims do not match this portal (issuer, audience, or a required claim)",
      ERR_JWS_SIGNATURE_VERIFICATION_FAILED: "the token's signature does not verify",
      ERR_JOSE_ALG_NOT_ALLOWED: "the token's algorithm is not accepted by this portal",
      ERR_JWKS_NO_MATCHING_KEY: "no configured key matches the token",
    };
    return { ok: false, reason: reasons[code ?? ""] ?? "the token is not valid" };
  }
}
