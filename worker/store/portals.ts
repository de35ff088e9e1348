/** @module Portal rows and token lookups. */
import { eq } from "drizzle-orm";
import { portals, portalTokens } from "../../schema";
import type { Brand } from "../content/brand";
import type { Db } from "./db";
import { generateToken, sha256Hex } from "./tokens";

/** A portal as the service API shows it. */
export interface PortalView {
  slug: string;
  name: string;
  plan: string;
  trialEndsAt: string | null;
  createdAt: string;
}

/** Internal portal row (id included). */
export type PortalRow = typeof portals.$inferSelect;

/** Length of a new portal's trial. */
export const TRIAL_DAYS = 14;

/** The public view of a portal row. */
export function portalView(row: PortalRow): PortalView {
  return { slug: row.slug, name: row.name, plan: row.plan, trialEndsAt: row.trialEndsAt, createdAt: row.createdAt };
}

/** A portal's reader-facing settings (PATCH /v1/portal). */
export interface PortalSettings {
  /** Scheme + host readers reach the portal at; null = the service's PORTICO_BASE_URL. */
  origin: string | null;
  /** Origins allowed to frame reader pages (CSP frame-ancestors). */
  embedOrigins: string[];
  /** Images in descriptions may come from other https origins. */
  externalImages: boolean;
}

/** The settings of a portal row (a malformed `embed_origins` reads as none: frames stay refused). */
export function portalSettings(row: Pick<PortalRow, "origin" | "embedOrigins" | "externalImages">): PortalSettings {
  let embedOrigins: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.embedOrigins);
    if (Array.isArray(parsed)) embedOrigins = parsed.filter((o): o is string => typeof o === "string");
  } catch {
    // kept empty
  }
  return { origin: row.origin ?? null, embedOrigins, externalImages: row.externalImages };
}

/** Writes the given settings (others unchanged) and returns the updated row. */
export async function updatePortalSettings(db: Db, portalId: number, patch: Partial<PortalSettings>): Promise<PortalRow> {
  const set: Partial<typeof portals.$inferInsert> = {};
  if (patch.origin !== undefined) set.origin = patch.origin;
  if (patch.embedOrigins !== undefined) set.embedOrigins = JSON.stringify(patch.embedOrigins);
  if (patch.externalImages !== undefined) set.externalImages = patch.externalImages;
  return db.update(portals).set(set).where(eq(portals.id, portalId)).returning().get();
}

/** A portal by slug, or undefined. */
export async function findPortalBySlug(db: Db, slug: string): Promise<PortalRow | undefined> {
  return db.select().from(portals).where(eq(portals.slug, slug)).get();
}

/**
 * Creates a portal on a 14-day trial and its first API token.
 * @returns the row and the token in clear (the only time it exists outside the caller).
 * @throws the D1 unique-constraint error when the slug is taken (callers check first; this is the race guard).
 */
export async function createPortal(db: Db, slug: string, name: string, now = new Date(), owner?: { organisationId: number; plan: string; trialEndsAt: string | null }): Promise<{ portal: PortalRow; token: string }> {
  const createdAt = now.toISOString();
  const trialEndsAt = owner ? owner.trialEndsAt : new Date(now.getTime() + TRIAL_DAYS * 86_400_000).toISOString();
  const portal = await db.insert(portals).values({ slug, name, plan: owner?.plan ?? "trial", trialEndsAt, createdAt, organisationId: owner?.organisationId ?? null }).returning().get();
  const token = generateToken();
  await db.insert(portalTokens).values({ portalId: portal.id, tokenHash: await sha256Hex(token), createdAt });
  return { portal, token };
}

/** The token a call was authenticated with (worker/workspace/scopes.ts reads `scopes`). */
export interface TokenAuth {
  id: number;
  name: string;
  scopes: string[];
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** The portal and token of a bearer token, or undefined for an unknown or expired token (one D1 read). */
export async function findTokenAuth(db: Db, token: string, now = new Date()): Promise<{ portal: PortalRow; token: TokenAuth } | undefined> {
  const hash = await sha256Hex(token);
  const row = await db
    .select({ portal: portals, id: portalTokens.id, name: portalTokens.name, scopes: portalTokens.scopes, expiresAt: portalTokens.expiresAt, lastUsedAt: portalTokens.lastUsedAt })
    .from(portalTokens)
    .innerJoin(portals, eq(portals.id, portalTokens.portalId))
    .where(eq(portalTokens.tokenHash, hash))
    .get();
  if (!row) return undefined;
  if (row.expiresAt && Date.parse(row.expiresAt) <= now.getTime()) return undefined;
  let scopes: string[] = [];
  try {
    scopes = JSON.parse(row.scopes) as string[];
  } catch {
    scopes = [];
  }
  return { portal: row.portal, token: { id: row.id, name: row.name, scopes, expiresAt: row.expiresAt, lastUsedAt: row.lastUsedAt } };
}

/** The portal a token belongs to, or undefined for an unknown or expired token. */
export async function findPortalByToken(db: Db, token: string): Promise<PortalRow | undefined> {
  return (await findTokenAuth(db, token))?.portal;
}

/** The brand a portal row holds from PATCH /v1/portal (`{}` when none, or when the stored JSON is unreadable). */
export function portalBrand(row: { brand?: string | null }): Brand {
  if (!row.brand) return {};
  try {
    const parsed: unknown = JSON.parse(row.brand);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Brand) : {};
  } catch {
    return {};
  }
}

/** Stores the PATCHed brand (`{}` clears it) and returns the updated row. */
export async function updatePortalBrand(db: Db, portalId: number, brand: Brand): Promise<PortalRow> {
  return db.update(portals).set({ brand: Object.keys(brand).length ? JSON.stringify(brand) : null }).where(eq(portals.id, portalId)).returning().get();
}

/** A portal by id, or undefined. */
export async function findPortalById(db: Db, id: number): Promise<PortalRow | undefined> {
  return db.select().from(portals).where(eq(portals.id, id)).get();
}
