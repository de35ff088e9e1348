/** @module Validation of the origins a portal's settings carry (its own origin, the origins that may embed it). */

const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Checks one origin setting and returns it normalised (`https://docs.acme.com`, lower-case host, default port
 * dropped), or a reason: it must be an absolute https URL with nothing after the host (no path, query, fragment or
 * credentials); http is accepted only for localhost and 127.0.0.1.
 */
export function parseOriginSetting(value: unknown): { ok: true; origin: string } | { ok: false; reason: string } {
  if (typeof value !== "string" || value.length === 0 || value.length > 200) return { ok: false, reason: "must be a string of 1-200 characters" };
  if (/[\s*;,'"]/.test(value)) return { ok: false, reason: "must be one origin (no spaces, wildcards, quotes, ';' or ',')" };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: "is not an absolute URL" };
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname))) {
    return { ok: false, reason: "must use https (http only for localhost and 127.0.0.1)" };
  }
  if (url.username || url.password) return { ok: false, reason: "must not carry credentials" };
  if ((url.pathname !== "/" && url.pathname !== "") || url.search || url.hash || /^[a-z]+:\/\/[^/]+\/./i.test(value)) {
    return { ok: false, reason: "must be an origin only (scheme and host, no path, query or fragment)" };
  }
  return { ok: true, origin: url.origin };
}
