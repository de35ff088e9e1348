/** @module The `access` block of `PATCH /v1/portal`: checked against what is stored, shown without its secrets. */
import { hashPassword } from "../access/password";
import { effectivePolicy, parseAccessBlock, type AccessPolicy, type AccessSettings, type ParsedAccess } from "../access/policy";
import { ApiError } from "../http/errors";
import { loadAccess } from "../store/readers";

/** The effective access settings as the service API shows them: secrets only as `passwordSet` / `jwt.secretSet`. */
export function accessView(policy: AccessPolicy): Omit<AccessSettings, "jwt"> & { jwt?: AccessSettings["jwt"] & { secretSet: boolean }; passwordSet: boolean } {
  const { hasPassword, hasJwtSecret, audiences: _all, jwt, ...settings } = policy;
  return { ...settings, ...(jwt ? { jwt: { ...jwt, secretSet: hasJwtSecret } } : {}), passwordSet: hasPassword };
}

/**
 * The field a parse message is about (`details.field`, for the dashboard to show it next to its input): the dotted
 * path it starts with (`access.jwt.issuer must be ...` → `access.jwt.issuer`), or none.
 */
function fieldOf(message: string): { field: string } | undefined {
  const path = /^(access(?:\.[A-Za-z]+|\[\d+\])*)/.exec(message)?.[1];
  return path && path !== "access" ? { field: path } : undefined;
}

/**
 * Parses an `access` block and checks the policy it would make: each enabled method has what it needs (a
 * password, a JWT key or secret, magic-link domains or addresses).
 * @throws ApiError 400 naming the field and the fault; nothing is written.
 */
export async function checkAccessPatch(db: D1Database, portalId: number, value: unknown): Promise<{ parsed: ParsedAccess; passwordHash: string | null | undefined }> {
  const result = parseAccessBlock(value, true);
  if (!result.ok) throw new ApiError(400, "invalid-access", result.message, fieldOf(result.message));
  const parsed = result.value;
  const current = await loadAccess(db, portalId);
  const { hasPassword: _p, hasJwtSecret: _j, audiences: _a, ...currentSettings } = current.policy;
  const next = effectivePolicy(undefined, { ...currentSettings, ...parsed.settings }, {
    hasPassword: parsed.password === undefined ? current.passwordHash !== null : parsed.password !== null,
    hasJwtSecret: parsed.jwtSecret === undefined ? current.jwtSecret !== null : parsed.jwtSecret !== null,
  });
  // Only what this patch touches is held against it: a method portico.yaml turned on before its secret was set
  // must not block saving, say, the gated sections.
  const touches = (...keys: Array<keyof ParsedAccess["settings"] | "password" | "jwtSecret">) => parsed.settings.methods !== undefined || keys.some((k) => k === "password" || k === "jwtSecret" ? parsed[k] !== undefined : parsed.settings[k] !== undefined);
  if (touches("password") && next.methods.includes("password") && !next.hasPassword) throw new ApiError(400, "invalid-access", "access.methods has password but no access.password is set", { field: "access.password" });
  if (touches("jwt", "jwtSecret") && next.methods.includes("jwt") && !next.hasJwtSecret && !next.jwt?.jwks && !next.jwt?.publicKey) {
    throw new ApiError(400, "invalid-access", "access.methods has jwt but access.jwt has no secret, jwks or publicKey", { field: "access.jwt" });
  }
  if (touches("magicLink") && next.methods.includes("magic-link") && !next.magicLink?.allowedDomains.length && !next.magicLink?.allowList.length) {
    throw new ApiError(400, "invalid-access", "access.methods has magic-link but access.magicLink has no allowedDomains or allowList", { field: "access.magicLink" });
  }
  const passwordHash = parsed.password === undefined ? undefined : parsed.password === null ? null : await hashPassword(parsed.password);
  return { parsed, passwordHash };
}
