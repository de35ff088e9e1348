/** @module Prints a HAR request with one snippet plugin, papering over how targets treat the query string. */
import type { SnippetPlugin } from "./languages";
import type { HarRequest } from "./types";

// Some targets append `queryString` to `url`, others only read `url`. Probing each plugin once tells which.
const appendsQuery = new WeakMap<SnippetPlugin, boolean>();
const PROBE = "portico_probe";

function readsQueryString(plugin: SnippetPlugin): boolean {
  let known = appendsQuery.get(plugin);
  if (known === undefined) {
    try {
      known = plugin.generate({ method: "GET", url: "https://probe.invalid/", headers: [], queryString: [{ name: PROBE, value: "1" }], cookies: [] }).includes(PROBE);
    } catch {
      known = false;
    }
    appendsQuery.set(plugin, known);
  }
  return known;
}

function withQueryInUrl(har: HarRequest): HarRequest {
  if (har.queryString.length === 0) return har;
  const qs = har.queryString.map((q) => `${encodeURIComponent(q.name)}=${encodeURIComponent(q.value)}`).join("&");
  return { ...har, url: `${har.url}${har.url.includes("?") ? "&" : "?"}${qs}` };
}

/** The code for `har` in the plugin's language; an error comment instead of a throw if the plugin fails. */
export function printSample(plugin: SnippetPlugin, har: HarRequest): string {
  try {
    return plugin.generate(readsQueryString(plugin) ? har : withQueryInUrl(har));
  } catch (error) {
    return `# This sample could not be generated: ${error instanceof Error ? error.message : String(error)}`;
  }
}
