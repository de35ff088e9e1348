/** @module SAML rows: a portal's identity provider and its outstanding AuthnRequests (single use, 10 minutes). */
import { and, eq, gt, lte } from "drizzle-orm";
import { samlIdps, samlRequests } from "../../schema";
import type { AttributeMapping } from "../access/saml/attributes";
import type { IdpMetadata } from "../access/saml/metadata";
import type { Db } from "./db";

/** How long an AuthnRequest may wait for its answer (the reader signs in at the IdP meanwhile). */
export const SAML_REQUEST_TTL_MS = 10 * 60_000;

/** A portal's configured IdP. */
export interface SamlIdpConfig extends IdpMetadata {
  mapping: AttributeMapping;
  updatedAt: string;
}

/** The IdP of `portalId`, or undefined when SAML is not set up (a malformed row reads as not set up). */
export async function getSamlIdp(db: Db, portalId: number): Promise<SamlIdpConfig | undefined> {
  const row = await db.select().from(samlIdps).where(eq(samlIdps.portalId, portalId)).get();
  if (!row) return undefined;
  try {
    return { entityId: row.entityId, ssoUrl: row.ssoUrl, certificates: JSON.parse(row.certificates), mapping: JSON.parse(row.attributeMapping), updatedAt: row.updatedAt };
  } catch {
    return undefined;
  }
}

/** Sets (or replaces) the IdP of `portalId`. */
export async function putSamlIdp(db: Db, portalId: number, meta: IdpMetadata, mapping: AttributeMapping, now = new Date()): Promise<SamlIdpConfig> {
  const values = { entityId: meta.entityId, ssoUrl: meta.ssoUrl, certificates: JSON.stringify(meta.certificates), attributeMapping: JSON.stringify(mapping), updatedAt: now.toISOString() };
  await db.insert(samlIdps).values({ portalId, ...values }).onConflictDoUpdate({ target: samlIdps.portalId, set: values }).run();
  return { ...meta, mapping, updatedAt: values.updatedAt };
}

/** Removes the IdP of `portalId` and its outstanding requests; true when there was one. */
export async function deleteSamlIdp(db: Db, portalId: number): Promise<boolean> {
  await db.delete(samlRequests).where(eq(samlRequests.portalId, portalId)).run();
  const gone = await db.delete(samlIdps).where(eq(samlIdps.portalId, portalId)).returning({ id: samlIdps.portalId }).all();
  return gone.length > 0;
}

/** Records an AuthnRequest we are about to send, and sweeps expired ones (of every portal: the index makes it cheap). */
export async function recordSamlRequest(db: Db, portalId: number, id: string, returnTo: string, now = new Date()): Promise<void> {
  await db.delete(samlRequests).where(lte(samlRequests.expiresAt, now.toISOString())).run();
  await db.insert(samlRequests).values({
    id, portalId, returnTo, createdAt: now.toISOString(), expiresAt: new Date(now.getTime() + SAML_REQUEST_TTL_MS).toISOString(),
  }).run();
}

/**
 * Consumes the outstanding request `id` of `portalId` in one statement (DELETE … RETURNING): the first answer
 * gets its return path, any replay (or a request of another portal, or an expired one) gets undefined.
 */
export async function consumeSamlRequest(db: Db, portalId: number, id: string, now = new Date()): Promise<{ returnTo: string } | undefined> {
  const rows = await db.delete(samlRequests)
    .where(and(eq(samlRequests.id, id), eq(samlRequests.portalId, portalId), gt(samlRequests.expiresAt, now.toISOString())))
    .returning({ returnTo: samlRequests.returnTo }).all();
  return rows[0];
}
