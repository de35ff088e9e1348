/** @module Servers for samples: every declared server with its variables, made absolute, and URL building. */
import { isObject } from "../schema-view/refs";
import type { SampleServer } from "./types";

/** Origin used when a definition only gives relative server URLs (or none: OpenAPI's default is `/`). */
export const DEFAULT_ORIGIN = "https://api.example.com";

/**
 * Reads server objects (3.x; a 2.0 host + basePath + schemes arrive already upgraded to this shape) into
 * {@link SampleServer}s. Relative URLs are resolved against `origin`. @see OpenAPI 3.1 §4.8.5 Server Object
 */
export function sampleServers(servers: unknown[], origin = DEFAULT_ORIGIN): SampleServer[] {
  const out: SampleServer[] = [];
  for (const s of servers) {
    if (!isObject(s) || typeof s.url !== "string") continue;
    const variables: SampleServer["variables"] = {};
    if (isObject(s.variables)) {
      for (const [name, v] of Object.entries(s.variables)) {
        if (!isObject(v)) continue;
        const variable: SampleServer["variables"][string] = { default: v.default === undefined ? "" : String(v.default) };
        if (Array.isArray(v.enum)) variable.enum = v.enum.map(String);
        if (typeof v.description === "string") variable.description = v.description;
        variables[name] = variable;
      }
    }
    const server: SampleServer = { url: absolute(s.url, origin), variables };
    if (typeof s.description === "string") server.description = s.description;
    out.push(server);
  }
  if (out.length === 0) out.push({ url: origin, variables: {} });
  return out;
}

function absolute(url: string, origin: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^\{[^}]+\}/.test(url)) return url;
  if (url.startsWith("//")) return `https:${url}`;
  return origin.replace(/\/+$/, "") + (url.startsWith("/") ? url : `/${url}`);
}

/** The server URL with variables substituted (reader's values, else defaults), without a trailing slash. */
export function serverUrl(server: SampleServer, values: Record<string, string> = {}): string {
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const v = values[name] ?? server.variables[name]?.default;
    return v === undefined || v === "" ? whole : v;
  });
  return url.replace(/\/+$/, "");
}
