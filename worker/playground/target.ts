/**
 * @module Where the playground proxy may send a request: the URL rules (http(s) only, no userinfo, WHATWG-parsed
 * so decimal, octal and hex IPv4 forms arrive as dotted quads), the allowed hosts (the operation's servers after
 * variable substitution, plus the portal's `playground.allowHosts`), never the portal's own hosts, and never a
 * blocked address (address.ts), whether written in the URL or resolved from a name (resolve.ts).
 * Every refusal is an `ApiError` 403 `blocked-host` (400 `invalid-url` for a URL that does not parse).
 */
import { ApiError } from "../http/errors";
import { blockedAddress, blockedIPv4, blockedIPv6, parseIPv4, parseIPv6 } from "./address";
import { MIN_TTL_SECONDS, ResolveError, type HostResolver } from "./resolve";

/** A host the proxy may reach: lower-case host name (IPv6 in brackets) and port ("" = the scheme's default). */
export interface AllowedHost {
  hostname: string;
  port: string;
  /** `*.example.com` in `allowHosts`: any subdomain of `hostname`. */
  subdomains?: boolean;
}

/** Everything a target is checked against. */
export interface TargetRules {
  allowed: AllowedHost[];
  /** Hosts (`URL.host`: name and port) of the portal itself: PORTICO_BASE_URL's, the portal's origin's, the request's. */
  ownHosts: string[];
  /** `playground.allowPrivateHosts`, already limited to the local environment by the caller. */
  allowPrivate: boolean;
}

/** Server variables expanded per server URL at most this many ways (enum values multiply). */
const MAX_SERVER_EXPANSIONS = 64;
/** A name under `.localhost` (RFC 6761) or these names is never resolved: it means this machine. */
const LOCAL_NAMES = /(^|\.)localhost\.?$/;

function blocked(message: string): ApiError {
  return new ApiError(403, "blocked-host", message);
}

const defaultPort = (protocol: string) => (protocol === "https:" ? "443" : "80");

/**
 * The server URLs of an operation with their variables substituted: each variable's `default` and each of its
 * `enum` values (at most {@link MAX_SERVER_EXPANSIONS} URLs per server). A variable without a value, or a relative
 * URL (it resolves against nothing), gives no host. A free variable (no enum) admits its default only: a reader
 * typing another value in a host would otherwise choose any host at all.
 */
export function serverHosts(servers: unknown[]): AllowedHost[] {
  const out: AllowedHost[] = [];
  for (const server of servers) {
    if (!server || typeof server !== "object") continue;
    const { url, variables } = server as { url?: unknown; variables?: Record<string, { default?: unknown; enum?: unknown }> };
    if (typeof url !== "string") continue;
    let urls = [url];
    for (const [name, v] of Object.entries(variables && typeof variables === "object" ? variables : {})) {
      if (!urls.some((u) => u.includes(`{${name}}`))) continue;
      const values = [v?.default, ...(Array.isArray(v?.enum) ? v.enum : [])].filter((x) => typeof x === "string" || typeof x === "number").map(String);
      urls = urls.flatMap((u) => [...new Set(values)].map((value) => u.split(`{${name}}`).join(value))).slice(0, MAX_SERVER_EXPANSIONS);
    }
    for (const u of urls) {
      if (/[{}]/.test(u)) continue;
      let parsed: URL;
      try {
        parsed = new URL(u);
      } catch {
        continue; // relative, or not a URL: no host
      }
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") continue;
      out.push({ hostname: parsed.hostname, port: parsed.port });
    }
  }
  return out;
}

/**
 * `playground.allowHosts` entries: `host`, `host:port` or `*.host` (any subdomain); anything else is skipped.
 * A host without a port allows ports 80 and 443 only.
 */
export function allowListHosts(entries: unknown): AllowedHost[] {
  if (!Array.isArray(entries)) return [];
  const out: AllowedHost[] = [];
  for (const entry of entries) {
    if (typeof entry !== "string" || entry.length > 253 + 6) continue;
    const subdomains = entry.startsWith("*.");
    try {
      const parsed = new URL(`http://${subdomains ? entry.slice(2) : entry}`);
      if (parsed.username || parsed.password || parsed.pathname !== "/" || parsed.search || parsed.hash) continue;
      out.push({ hostname: parsed.hostname, port: parsed.port, ...(subdomains ? { subdomains } : {}) });
    } catch {
      // not a host
    }
  }
  return out;
}

function hostAllowed(url: URL, allowed: AllowedHost[]): boolean {
  const port = url.port || defaultPort(url.protocol);
  return allowed.some((a) => {
    const nameMatches = a.subdomains ? url.hostname.endsWith(`.${a.hostname}`) : url.hostname === a.hostname;
    if (!nameMatches) return false;
    // A server URL's port (or the default of either scheme, so http ↔ https both work); an allow-list host
    // without a port: 80 or 443.
    return a.port ? port === a.port : port === "80" || port === "443";
  });
}

/** The host (`URL.host`: name and port) of an origin-like URL string, or undefined. */
export function hostOf(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}

function hostOnly(host: string): string {
  return new URL(`http://${host}`).hostname;
}

/**
 * Checks one URL (the reader's, or a redirect's `Location` resolved against the previous URL) against every rule,
 * resolving host names through `resolver`.
 * @returns the parsed URL to connect to.
 * @throws ApiError 400 `invalid-url`, 403 `blocked-host`, 502 `unresolvable-host`.
 */
export async function checkTarget(raw: string, rules: TargetRules, resolver: HostResolver): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError(400, "invalid-url", `"${raw.slice(0, 200)}" is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw blocked(`only http and https URLs are sent, not ${url.protocol}`);
  if (url.username || url.password) throw blocked("URLs with a user name or password in them are not sent; use a header");
  const host = url.hostname;
  if (!host) throw blocked("the URL has no host");
  const literal = host.startsWith("[") ? parseIPv6(host) : parseIPv4(host);
  if (literal) {
    const reason = literal.length === 4 ? blockedIPv4(literal) : blockedIPv6(literal);
    if (reason && !privateAllowed(reason, rules)) throw blocked(`${host} is a ${reason} address`);
  } else if (host.startsWith("[")) throw blocked(`${host} is not a valid IPv6 address`);
  // In the local environment the portal and a local mock share 127.0.0.1: only the same port is the portal there.
  // Elsewhere any port of the portal's host name is refused (the platform may route other ports to us too).
  const own = rules.allowPrivate ? rules.ownHosts.includes(url.host) : rules.ownHosts.some((h) => hostOnly(h) === host);
  if (own) throw blocked(`${url.host} is this portal's own host`);
  if (!hostAllowed(url, rules.allowed)) {
    throw blocked(`${url.host} is not one of this operation's servers nor on the portal's playground.allowHosts list`);
  }
  if (literal) return url;
  if (LOCAL_NAMES.test(host)) {
    if (rules.allowPrivate) return url;
    throw blocked(`${host} names this machine (loopback)`);
  }
  let resolution;
  try {
    resolution = await resolver.resolve(host);
  } catch (error) {
    if (error instanceof ResolveError) throw new ApiError(502, "unresolvable-host", error.message);
    throw error;
  }
  if (resolution.addresses.length === 0) throw new ApiError(502, "unresolvable-host", `${host} has no A or AAAA record`);
  for (const address of resolution.addresses) {
    const reason = blockedAddress(address);
    if (reason && !privateAllowed(reason, rules)) throw blocked(`${host} resolves to ${address}, a ${reason} address`);
  }
  if (resolution.minTtl < MIN_TTL_SECONDS) throw blocked(`${host} answers with a DNS TTL of ${resolution.minTtl} s (under ${MIN_TTL_SECONDS} s: DNS rebinding)`);
  return url;
}

/**
 * Ranges opened by `allowPrivateHosts` (local only): every blocked range but cloud metadata, which stays closed
 * everywhere, and text that is not an address at all.
 */
function privateAllowed(reason: string, rules: TargetRules): boolean {
  return rules.allowPrivate && !reason.startsWith("cloud metadata") && reason !== "not an IP address";
}
