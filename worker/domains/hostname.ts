/**
 * @module Custom hostnames as a portal may register them, and how the service's own origin maps to theirs.
 * Host names follow RFC 1123 §2.1 (letters, digits, inner hyphens; labels of 1-63, 253 in all); internationalised
 * names are taken in their IDNA (punycode) form, the one a Host header carries.
 */

/** RFC 6761: `localhost` and every name under `.localhost` mean this machine. */
export function isLocalhostName(hostname: string): boolean {
  return hostname === "localhost" || hostname.endsWith(".localhost");
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The canonical form of a request's or a registration's host name: lower-case IDNA, no port, no trailing dot; or
 * undefined when `value` is not a host name (an IP literal, `*`, a path, spaces, ...).
 */
export function canonicalHostname(value: string): string | undefined {
  if (value.length === 0 || value.length > 253 || /[\s/\\?#@*:%[\]]/.test(value)) return undefined;
  let host: string;
  try {
    host = new URL(`http://${value}/`).hostname;
  } catch {
    return undefined;
  }
  host = host.replace(/\.$/, "");
  if (host.length === 0 || host.length > 253) return undefined;
  const labels = host.split(".");
  if (!labels.every((l) => LABEL.test(l))) return undefined;
  // An all-numeric last label makes an IPv4 literal (or something URL parsers would read as one).
  if (/^[0-9]+$/.test(labels[labels.length - 1]!)) return undefined;
  return host;
}

/** What the registration refused, as a message for the 400 answer. */
export type HostnameRefusal = { ok: false; code: string; message: string };

/**
 * Checks a hostname a portal asks for. Refused: anything that is not a host name (IP literals included), a single
 * label (`intranet`), the service's own host and names under it, and `localhost` names unless `local` (npm start,
 * tests: `demo.localhost`).
 */
export function checkCustomHostname(value: unknown, serviceHost: string, local: boolean): { ok: true; hostname: string } | HostnameRefusal {
  if (typeof value !== "string") return { ok: false, code: "invalid-hostname", message: "hostname must be a string such as \"docs.example.com\"" };
  const trimmed = value.trim();
  if (/^\[.*\]$/.test(trimmed) || /^[0-9.]+$/.test(trimmed) || /^[0-9a-f:]+:[0-9a-f:]*$/i.test(trimmed)) {
    return { ok: false, code: "invalid-hostname", message: "hostname must be a domain name, not an IP address" };
  }
  const hostname = canonicalHostname(trimmed);
  if (!hostname) return { ok: false, code: "invalid-hostname", message: "hostname must be a domain name such as \"docs.example.com\" (letters, digits and hyphens, no scheme, port or path)" };
  if (!hostname.includes(".")) return { ok: false, code: "invalid-hostname", message: "hostname must have at least two labels (\"docs.example.com\")" };
  if (isLocalhostName(hostname) && !local) return { ok: false, code: "reserved-hostname", message: "localhost names are only for local development" };
  if (hostname === serviceHost || hostname.endsWith(`.${serviceHost}`)) {
    return { ok: false, code: "reserved-hostname", message: "hostname must be your own domain, not the service's" };
  }
  return { ok: true, hostname };
}

/** The host name of the service's origin (`PORTICO_BASE_URL`), lower case, no port. */
export function serviceHostname(baseUrl: string): string {
  return new URL(baseUrl).hostname.replace(/\.$/, "").toLowerCase();
}

/**
 * The origin a portal is read at on its custom hostname: the service origin's scheme and port with the portal's
 * host (`https://docs.example.com` in production; `http://demo.localhost:8787` under npm start).
 */
export function customHostOrigin(baseUrl: string, hostname: string): string {
  const base = new URL(baseUrl);
  return `${base.protocol}//${hostname}${base.port ? `:${base.port}` : ""}`;
}
