/** @module The upload's `?api=` and `?version=`: decoded strictly and checked before the body is read. */
import { isValidApiSlug, normalizeLabel } from "../publish/names";
import { ApiError } from "./errors";

/**
 * A query parameter decoded strictly: percent-escapes that are not UTF-8 (`%FF`, `%ED%A0%80`, a lone surrogate's
 * bytes) are refused rather than kept raw or turned into U+FFFD, either of which would publish another label.
 * @throws ApiError 400 naming the parameter.
 */
export function strictQuery(url: string, name: string): string | undefined {
  const query = url.includes("?") ? url.slice(url.indexOf("?") + 1).split("#")[0] : "";
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    const key = eq === -1 ? pair : pair.slice(0, eq);
    if (key !== name) continue;
    try {
      return decodeURIComponent((eq === -1 ? "" : pair.slice(eq + 1)).replace(/\+/g, " "));
    } catch {
      throw new ApiError(400, `invalid-${name}`, `?${name}= is not valid UTF-8 once percent-decoded`);
    }
  }
  return undefined;
}

/**
 * `?api=` and `?version=`, checked before the body is read or anything written.
 * @throws ApiError 400 naming the parameter and what is wrong with it.
 */
export function uploadNames(api: string | undefined, version: string | undefined): { apiSlug?: string; versionLabel?: string } {
  const apiSlug = api === undefined || api === "" ? undefined : api;
  if (apiSlug !== undefined && !isValidApiSlug(apiSlug)) {
    throw new ApiError(400, "invalid-api", `?api= ${JSON.stringify(apiSlug.slice(0, 80))} must be 1-64 lower-case letters, digits and inner dashes`);
  }
  if (version === undefined || version === "") return { apiSlug };
  const checked = normalizeLabel(version);
  if (!checked.ok) throw new ApiError(400, "invalid-version", `?version= ${checked.reason}`);
  return { apiSlug, versionLabel: checked.label };
}

/** `?from=` / `?to=` of a changes URL: strictly decoded, NFC (as labels are stored), 1–64 characters; absent = default. */
export function changesLabel(url: string, name: "from" | "to"): string | undefined {
  const value = strictQuery(url, name);
  if (value === undefined || value === "") return undefined;
  if (value.length > 64) throw new ApiError(400, "invalid-query", `${name} is longer than 64 characters`);
  return value.normalize("NFC");
}
