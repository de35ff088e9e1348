/**
 * @module A portal's custom domain in D1 and at the provider: register, show (polling while pending), release, and
 * the scheduled poll of every pending hostname. The `CustomHostnames` adapter is chosen by {@link customHostnamesFor}.
 */
import { and, eq, ne } from "drizzle-orm";
import { customHostnames, portals } from "../../schema";
import { ApiError } from "../http/errors";
import { DEFAULT_BASE_URL } from "../http/public-origin";
import type { Db } from "../store/db";
import { CloudflareCustomHostnames } from "./cloudflare";
import { CustomHostnameError, EmbeddedCustomHostnames, type CustomHostnames, type DnsRecord, type HostnameState, type ValidationMethod } from "./custom-hostnames";
import { customHostOrigin, serviceHostname } from "./hostname";
import { hostnamesChanged } from "./route-host";

/** The settings the adapter choice reads (wrangler.toml vars and secrets). */
export interface DomainsEnv {
  PORTICO_BASE_URL?: string;
  PORTICO_ENVIRONMENT?: string;
  /** Cloudflare for SaaS: the zone the custom hostnames are created in ([env.production.vars]). */
  CLOUDFLARE_ZONE_ID?: string;
  /** Cloudflare API token with "SSL and Certificates: Edit" on that zone (a secret). */
  CLOUDFLARE_API_TOKEN?: string;
  /** The host customers CNAME to ([env.production.vars]); defaults to the service's own host. */
  PORTICO_CNAME_TARGET?: string;
}

/** Custom domains are not set up in this deployment (production without the Cloudflare settings). */
export const NOT_CONFIGURED = new CustomHostnameError(
  "custom domains are not configured on this deployment (CLOUDFLARE_ZONE_ID and CLOUDFLARE_API_TOKEN, docs/development.md)",
  503,
  "domains-not-configured",
);

/**
 * The adapter for `env`: Cloudflare for SaaS when the zone id and API token are set; the embedded one outside
 * production; in production without them, none (throws {@link NOT_CONFIGURED}: activating hostnames unchecked
 * there would route names nobody validated).
 */
export function customHostnamesFor(env: DomainsEnv): CustomHostnames {
  const base = env.PORTICO_BASE_URL || DEFAULT_BASE_URL;
  const cnameTarget = env.PORTICO_CNAME_TARGET || serviceHostname(base);
  if (env.CLOUDFLARE_ZONE_ID && env.CLOUDFLARE_API_TOKEN) {
    return new CloudflareCustomHostnames({ zoneId: env.CLOUDFLARE_ZONE_ID, apiToken: env.CLOUDFLARE_API_TOKEN, cnameTarget });
  }
  if (env.PORTICO_ENVIRONMENT === "production") throw NOT_CONFIGURED;
  return new EmbeddedCustomHostnames(cnameTarget);
}

type Row = typeof customHostnames.$inferSelect;

/** A portal's custom domain as `GET /v1/portal/domain` shows it. */
export interface DomainView {
  hostname: string;
  /** "active": requests on the hostname reach the portal and `/p/{slug}/` redirects there; "pending": not yet. */
  status: "pending" | "active";
  validation: ValidationMethod;
  /** The records to create at the DNS provider: the routing CNAME first, then any validation TXT records. */
  dnsRecords: DnsRecord[];
  hostnameStatus: string;
  certificateStatus: string;
  errors: string[];
  /** The portal's home on the hostname. */
  url: string;
  createdAt: string;
  checkedAt: string;
}

function parseJsonArray<T>(text: string): T[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as T[]) : [];
  } catch {
    return [];
  }
}

/** The API view of a registration row. */
export function domainView(row: Row, baseUrl: string): DomainView {
  return {
    hostname: row.hostname,
    status: row.status === "active" ? "active" : "pending",
    validation: row.validation === "txt" ? "txt" : "http",
    dnsRecords: parseJsonArray<DnsRecord>(row.dnsRecords),
    hostnameStatus: row.hostnameStatus,
    certificateStatus: row.certificateStatus,
    errors: parseJsonArray<string>(row.errors),
    url: `${customHostOrigin(baseUrl, row.hostname)}/`,
    createdAt: row.createdAt,
    checkedAt: row.checkedAt,
  };
}

function recordsOf(adapter: CustomHostnames, hostname: string, state: HostnameState): DnsRecord[] {
  return [{ type: "CNAME", name: hostname, value: adapter.cnameTarget, purpose: "routing" }, ...state.records];
}

/** The statements that store `state` on `row` and keep `portals.hostname` equal to the active hostname. */
function saveState(db: Db, adapter: CustomHostnames, row: Row, state: HostnameState, now: Date) {
  const fields = {
    status: state.active ? "active" : "pending",
    hostnameStatus: state.hostnameStatus,
    certificateStatus: state.certificateStatus,
    dnsRecords: JSON.stringify(recordsOf(adapter, row.hostname, state)),
    errors: JSON.stringify(state.errors.slice(0, 20).map((e) => e.slice(0, 500))),
    checkedAt: now.toISOString(),
  };
  return [
    db.update(customHostnames).set(fields).where(eq(customHostnames.id, row.id)).returning(),
    db.update(portals).set({ hostname: state.active ? row.hostname : null }).where(eq(portals.id, row.portalId)),
  ] as const;
}

/** The portal's registration row, or undefined. */
export async function findDomain(db: Db, portalId: number): Promise<Row | undefined> {
  return db.select().from(customHostnames).where(eq(customHostnames.portalId, portalId)).get();
}

function providerError(error: unknown): never {
  if (error instanceof CustomHostnameError) throw new ApiError(error.status, error.code, error.message);
  throw error;
}

/**
 * Registers `hostname` for the portal (replacing a different hostname it held, which is released) and returns its
 * view. Registering the hostname it already holds is a refresh.
 * @throws ApiError 409 `hostname-taken` when another portal holds it (here or, in production, at Cloudflare);
 *   the provider's refusals as 422/502/503.
 */
export async function registerDomain(db: Db, adapter: CustomHostnames, baseUrl: string, portalId: number, hostname: string, validation: ValidationMethod, now = new Date()): Promise<DomainView> {
  const holder = await db.select({ portalId: customHostnames.portalId }).from(customHostnames).where(eq(customHostnames.hostname, hostname)).get();
  if (holder && holder.portalId !== portalId) throw new ApiError(409, "hostname-taken", `"${hostname}" is registered by another portal`);
  const current = await findDomain(db, portalId);
  if (current && current.hostname === hostname && current.validation === validation) return refreshDomain(db, adapter, baseUrl, current, now);
  if (current) await releaseDomain(db, adapter, portalId);
  const state = await adapter.create(hostname, validation).catch(providerError);
  const stamp = now.toISOString();
  let row: Row;
  try {
    row = await db.insert(customHostnames).values({
      portalId, hostname, validation, providerId: state.id, status: "pending", hostnameStatus: state.hostnameStatus,
      certificateStatus: state.certificateStatus, createdAt: stamp, checkedAt: stamp,
    }).returning().get();
  } catch (error) {
    // Lost a race for the same hostname (UNIQUE): give the provider's registration back.
    await adapter.delete(state.id).catch(() => undefined);
    if (/UNIQUE/i.test(String(error))) throw new ApiError(409, "hostname-taken", `"${hostname}" is registered by another portal`);
    throw error;
  }
  const [saved] = await db.batch(saveState(db, adapter, row, state, now));
  hostnamesChanged();
  return domainView(saved[0]!, baseUrl);
}

/** Polls the provider for a pending registration (an active one is shown as stored) and returns the view. */
export async function refreshDomain(db: Db, adapter: CustomHostnames, baseUrl: string, row: Row, now = new Date()): Promise<DomainView> {
  if (row.status === "active") return domainView(row, baseUrl);
  const state = await adapter.get(row.providerId).catch(providerError);
  const [saved] = await db.batch(saveState(db, adapter, row, state, now));
  hostnamesChanged();
  return domainView(saved[0] ?? row, baseUrl);
}

/**
 * Releases the portal's hostname at the provider and in D1 (its reader URLs go back to `/p/{slug}/`).
 * @returns the released hostname, or undefined when it had none.
 */
export async function releaseDomain(db: Db, adapter: CustomHostnames, portalId: number): Promise<string | undefined> {
  const row = await findDomain(db, portalId);
  if (!row) return undefined;
  await adapter.delete(row.providerId).catch(providerError);
  await db.batch([
    db.update(portals).set({ hostname: null }).where(eq(portals.id, portalId)),
    db.delete(customHostnames).where(and(eq(customHostnames.id, row.id), eq(customHostnames.portalId, portalId))),
  ]);
  hostnamesChanged();
  return row.hostname;
}

/** Most pending hostnames one scheduled run polls (each is one API call). */
export const POLL_BATCH = 50;

/**
 * The scheduled poll: every pending registration, oldest check first, asked once. A provider error on one is
 * logged and the others still go.
 * @returns how many turned active.
 */
export async function pollPendingDomains(db: Db, adapter: CustomHostnames, baseUrl: string, now = new Date()): Promise<number> {
  const pending = await db.select().from(customHostnames).where(ne(customHostnames.status, "active")).orderBy(customHostnames.checkedAt).limit(POLL_BATCH).all();
  let activated = 0;
  for (const row of pending) {
    try {
      if ((await refreshDomain(db, adapter, baseUrl, row, now)).status === "active") activated++;
    } catch (error) {
      console.warn("custom hostname poll failed", row.hostname, String(error));
    }
  }
  return activated;
}
