/**
 * @module The production `CustomHostnames` adapter: Cloudflare for SaaS custom hostnames on the service's zone.
 * The Worker is the zone's fallback origin, so an active custom hostname's requests reach it with their own Host.
 * @see https://developers.cloudflare.com/api/resources/custom_hostnames/ (create, get, delete)
 * @see https://developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/domain-support/hostname-validation/
 */
import { CustomHostnameError, type CustomHostnames, type DnsRecord, type HostnameState, type ValidationMethod } from "./custom-hostnames";

/** Cloudflare's API root. */
export const CLOUDFLARE_API = "https://api.cloudflare.com/client/v4";
/** One API call's time limit: a stuck call answers 502 rather than holding the request. */
const CALL_TIMEOUT_MS = 10_000;
/** Largest API answer read (a custom hostname object is a few KB). */
const MAX_ANSWER_BYTES = 256 * 1024;

/** The parts of Cloudflare's custom hostname object Portico reads. */
interface CloudflareHostname {
  id: string;
  hostname: string;
  status?: string;
  ssl?: { status?: string; validation_records?: { txt_name?: string; txt_value?: string }[]; validation_errors?: { message?: string }[] };
  ownership_verification?: { type?: string; name?: string; value?: string };
  verification_errors?: string[];
}

interface Envelope<T> {
  success: boolean;
  errors?: { code?: number; message?: string }[];
  result?: T;
}

export interface CloudflareConfig {
  zoneId: string;
  apiToken: string;
  /** The host customers CNAME their hostname to (the SaaS zone's fallback origin or a CNAME target). */
  cnameTarget: string;
  /** Defaults to {@link CLOUDFLARE_API}; tests point it at a local fake. */
  apiBase?: string;
  /** Defaults to the global fetch; tests may pass a stub. */
  fetch?: typeof fetch;
}

/** Cloudflare for SaaS behind the `CustomHostnames` port. */
export class CloudflareCustomHostnames implements CustomHostnames {
  readonly cnameTarget: string;
  private readonly base: string;
  private readonly doFetch: typeof fetch;

  constructor(private readonly config: CloudflareConfig) {
    this.cnameTarget = config.cnameTarget;
    this.base = `${(config.apiBase ?? CLOUDFLARE_API).replace(/\/$/, "")}/zones/${encodeURIComponent(config.zoneId)}/custom_hostnames`;
    this.doFetch = config.fetch ?? ((input, init) => fetch(input, init));
  }

  async create(hostname: string, validation: ValidationMethod): Promise<HostnameState> {
    const body = { hostname, ssl: { method: validation, type: "dv", settings: { min_tls_version: "1.2" } } };
    return stateOf(await this.call<CloudflareHostname>("POST", "", body));
  }

  async get(id: string): Promise<HostnameState> {
    return stateOf(await this.call<CloudflareHostname>("GET", `/${encodeURIComponent(id)}`));
  }

  async delete(id: string): Promise<void> {
    try {
      await this.call<unknown>("DELETE", `/${encodeURIComponent(id)}`);
    } catch (error) {
      if (error instanceof CustomHostnameError && error.code === "provider-not-found") return;
      throw error;
    }
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await this.doFetch(`${this.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.config.apiToken}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
    } catch (error) {
      throw new CustomHostnameError(`Cloudflare's API could not be reached: ${error instanceof Error ? error.message : String(error)}`, 502, "provider-unreachable");
    }
    const text = await res.text();
    if (text.length > MAX_ANSWER_BYTES) throw new CustomHostnameError("Cloudflare's API answered with an oversized body", 502, "provider-error");
    let envelope: Envelope<T> | undefined;
    try {
      envelope = JSON.parse(text) as Envelope<T>;
    } catch {
      envelope = undefined;
    }
    if (res.ok && envelope?.success && envelope.result !== undefined) return envelope.result;
    const messages = (envelope?.errors ?? []).map((e) => `${e.message ?? "error"}${e.code !== undefined ? ` (${e.code})` : ""}`).join("; ");
    const detail = messages || `HTTP ${res.status}`;
    if (res.status === 404) throw new CustomHostnameError(`Cloudflare does not know this hostname: ${detail}`, 502, "provider-not-found");
    // 409 / code 1406: "Duplicate custom hostname found" (registered by another Cloudflare customer or zone).
    if (res.status === 409 || envelope?.errors?.some((e) => e.code === 1406)) throw new CustomHostnameError(`Cloudflare refused the hostname: ${detail}`, 409, "hostname-taken");
    if (res.status === 400 || res.status === 422) throw new CustomHostnameError(`Cloudflare refused the hostname: ${detail}`, 422, "provider-refused");
    throw new CustomHostnameError(`Cloudflare's API failed: ${detail}`, 502, "provider-error");
  }
}

/** Our view of Cloudflare's object: active only when both the hostname and its certificate are. */
function stateOf(h: CloudflareHostname): HostnameState {
  const records: DnsRecord[] = [];
  const own = h.ownership_verification;
  if (own?.type === "txt" && own.name && own.value) records.push({ type: "TXT", name: own.name, value: own.value, purpose: "ownership" });
  for (const r of h.ssl?.validation_records ?? []) {
    if (r.txt_name && r.txt_value) records.push({ type: "TXT", name: r.txt_name, value: r.txt_value, purpose: "certificate" });
  }
  const hostnameStatus = h.status ?? "pending";
  const certificateStatus = h.ssl?.status ?? "initializing";
  const errors = [...(h.verification_errors ?? []), ...(h.ssl?.validation_errors ?? []).map((e) => e.message ?? "certificate validation error")];
  return { id: h.id, active: hostnameStatus === "active" && certificateStatus === "active", hostnameStatus, certificateStatus, records, errors };
}
