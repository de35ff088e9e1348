/**
 * @module Docs API keys: created (`pk_`/`sk_` + 32 random bytes, base64url; shown once), listed without the key,
 * revoked, and found by the SHA-256 of a presented key. Origins of public keys are checked as exact
 * scheme://host[:port] strings (RFC 6454 serialisation), the form a browser's `Origin` header takes.
 */
import { and, eq, isNull } from "drizzle-orm";
import { docsApiKeys } from "../../schema";
import { sha256 } from "../content/hash";
import { ApiError } from "../http/errors";
import type { Db } from "../store/db";

/** `public` keys are for browsers (embeds), `secret` keys for servers. */
export type KeyKind = "public" | "secret";

/** A key as `GET /v1/portal/keys` lists it (never the key itself). */
export interface DocsApiKey {
  id: string;
  kind: KeyKind;
  name: string;
  /** The key's first characters, to tell keys apart. */
  start: string;
  origins: string[];
  createdAt: string;
}

/** Keys one portal may hold (revoked ones do not count). */
export const MAX_KEYS_PER_PORTAL = 50;
/** Origins one public key may list. */
export const MAX_ORIGINS = 20;

function random(bytes: number): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(bytes)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The serialised origin of `value` when it is exactly an http(s) origin (no path, query or credentials), else undefined. */
export function normalizeOrigin(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 300) return undefined;
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return undefined;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return undefined;
  if (u.username || u.password || (u.pathname !== "/" && u.pathname !== "") || u.search || u.hash) return undefined;
  if (value.replace(/\/$/, "") !== u.origin) return undefined;
  return u.origin;
}

/** Checks `{kind, name, origins?}`; throws ApiError 400 naming the field. */
export function parseNewKey(body: Record<string, unknown>): { kind: KeyKind; name: string; origins: string[] } {
  if (body.kind !== "public" && body.kind !== "secret") throw new ApiError(400, "invalid-kind", 'kind must be "public" or "secret"');
  if (typeof body.name !== "string" || !body.name.trim() || body.name.length > 100) throw new ApiError(400, "invalid-name", "name must be 1-100 characters");
  let origins: string[] = [];
  if (body.kind === "public") {
    if (!Array.isArray(body.origins) || body.origins.length === 0 || body.origins.length > MAX_ORIGINS) {
      throw new ApiError(400, "invalid-origins", `a public key needs origins: 1-${MAX_ORIGINS} origins such as "https://help.example.com"`);
    }
    origins = body.origins.map((o) => {
      const n = normalizeOrigin(o);
      if (!n) throw new ApiError(400, "invalid-origins", `${JSON.stringify(o).slice(0, 80)} is not an origin (scheme://host[:port], nothing after)`);
      return n;
    });
  } else if (body.origins !== undefined && !(Array.isArray(body.origins) && body.origins.length === 0)) {
    throw new ApiError(400, "invalid-origins", "secret keys are for servers and take no origins");
  }
  return { kind: body.kind, name: body.name.trim(), origins: [...new Set(origins)] };
}

function listed(row: typeof docsApiKeys.$inferSelect): DocsApiKey {
  return { id: row.id, kind: row.kind as KeyKind, name: row.name, start: row.keyStart, origins: JSON.parse(row.origins) as string[], createdAt: row.createdAt };
}

/** Creates a key; returns it listed plus the key itself (the only time it is seen). 409 `too-many-keys` past the cap. */
export async function createKey(db: Db, portalId: number, input: { kind: KeyKind; name: string; origins: string[] }, now = new Date()): Promise<DocsApiKey & { key: string }> {
  const live = await db.select({ id: docsApiKeys.id }).from(docsApiKeys).where(and(eq(docsApiKeys.portalId, portalId), isNull(docsApiKeys.revokedAt)));
  if (live.length >= MAX_KEYS_PER_PORTAL) throw new ApiError(409, "too-many-keys", `a portal holds at most ${MAX_KEYS_PER_PORTAL} keys: revoke one first`);
  const key = `${input.kind === "public" ? "pk_" : "sk_"}${random(32)}`;
  const row = {
    id: `key_${random(16)}`, portalId, kind: input.kind, name: input.name, keyHash: await sha256(key), keyStart: key.slice(0, 8),
    origins: JSON.stringify(input.origins), createdAt: now.toISOString(),
  };
  await db.insert(docsApiKeys).values(row);
  return { ...listed({ ...row, revokedAt: null }), key };
}

/** The portal's live keys, oldest first. */
export async function listKeys(db: Db, portalId: number): Promise<DocsApiKey[]> {
  const rows = await db.select().from(docsApiKeys).where(and(eq(docsApiKeys.portalId, portalId), isNull(docsApiKeys.revokedAt))).orderBy(docsApiKeys.createdAt);
  return rows.map(listed);
}

/** Revokes a key of the portal; false when it has no such live key. */
export async function revokeKey(db: Db, portalId: number, id: string, now = new Date()): Promise<boolean> {
  const done = await db.update(docsApiKeys).set({ revokedAt: now.toISOString() })
    .where(and(eq(docsApiKeys.id, id), eq(docsApiKeys.portalId, portalId), isNull(docsApiKeys.revokedAt))).returning({ id: docsApiKeys.id });
  return done.length > 0;
}

/** The live key of `portalId` a presented key is, else undefined (unknown, revoked, or another portal's). */
export async function findKey(db: Db, portalId: number, presented: string): Promise<DocsApiKey | undefined> {
  if (presented.length > 100) return undefined;
  const [row] = await db.select().from(docsApiKeys)
    .where(and(eq(docsApiKeys.keyHash, await sha256(presented)), eq(docsApiKeys.portalId, portalId), isNull(docsApiKeys.revokedAt))).limit(1);
  return row ? listed(row) : undefined;
}

/** Every origin some live public key of the portal lists (what a CORS preflight may be answered for). */
export async function publicKeyOrigins(db: Db, portalId: number): Promise<Set<string>> {
  const rows = await db.select({ origins: docsApiKeys.origins }).from(docsApiKeys)
    .where(and(eq(docsApiKeys.portalId, portalId), eq(docsApiKeys.kind, "public"), isNull(docsApiKeys.revokedAt)));
  return new Set(rows.flatMap((r) => JSON.parse(r.origins) as string[]));
}
