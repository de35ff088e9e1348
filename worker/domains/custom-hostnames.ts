/**
 * @module The `CustomHostnames` port: a hostname registered with whatever terminates TLS for it and routes it to
 * the Worker. Production: Cloudflare for SaaS (./cloudflare.ts). Locally and in tests: the embedded adapter below,
 * which activates a hostname at once (nothing stands between a browser and `wrangler dev`).
 */

/** Domain control validation: an HTTP token Cloudflare serves itself once the CNAME points at it, or DNS TXT records. */
export type ValidationMethod = "http" | "txt";

/** One DNS record the customer creates at their DNS provider. */
export interface DnsRecord {
  type: "CNAME" | "TXT";
  name: string;
  value: string;
  /** Why: "routing" (points the name at the service), "ownership" or "certificate" (validation). */
  purpose: "routing" | "ownership" | "certificate";
}

/** A hostname as the provider sees it. */
export interface HostnameState {
  /** The provider's id, kept to poll and delete. */
  id: string;
  /** Routed and served with a certificate: requests on it may reach the portal. */
  active: boolean;
  /** The provider's hostname status as it words it ("pending", "active", "moved", "blocked", ...). */
  hostnameStatus: string;
  /** The certificate's status ("initializing", "pending_validation", "pending_issuance", "active", ...). */
  certificateStatus: string;
  /** Validation records still to create (the routing CNAME is added by the caller, who knows the target). */
  records: DnsRecord[];
  /** The provider's validation errors, verbatim. */
  errors: string[];
}

/** The provider refused or failed; `status` is the HTTP status the Portico API answers with. */
export class CustomHostnameError extends Error {
  constructor(
    message: string,
    readonly status: 409 | 422 | 502 | 503,
    readonly code: string,
  ) {
    super(message);
    this.name = "CustomHostnameError";
  }
}

/** Registers, reads and releases custom hostnames. All methods throw {@link CustomHostnameError}. */
export interface CustomHostnames {
  /** The host a customer's CNAME points at (Cloudflare for SaaS: the fallback origin's or a CNAME target). */
  readonly cnameTarget: string;
  create(hostname: string, validation: ValidationMethod): Promise<HostnameState>;
  /** The current state (a poll). */
  get(id: string): Promise<HostnameState>;
  /** Releases the hostname; an id the provider no longer knows counts as released. */
  delete(id: string): Promise<void>;
}

/**
 * The embedded default: every hostname is active the moment it is created, with no certificate to wait for
 * (local HTTP). Used by `npm start` and the tests; it keeps no state of its own (D1 holds the registration).
 */
export class EmbeddedCustomHostnames implements CustomHostnames {
  constructor(readonly cnameTarget: string) {}

  async create(hostname: string): Promise<HostnameState> {
    return { id: `embedded:${hostname}`, active: true, hostnameStatus: "active", certificateStatus: "active", records: [], errors: [] };
  }

  async get(id: string): Promise<HostnameState> {
    return { id, active: true, hostnameStatus: "active", certificateStatus: "active", records: [], errors: [] };
  }

  async delete(): Promise<void> {}
}
