/** @module Turns a {@link SampleInput} plus the reader's server choice into a HAR request. */
import { serverUrl } from "./servers";
import type { HarRequest, NameValue, SampleInput } from "./types";

/** Reader choices that change the request without changing the operation. */
export interface HarChoice {
  /** Index into `input.servers`. Default 0. */
  server?: number;
  /** Server variable values by name; missing ones use the declared defaults. */
  variables?: Record<string, string>;
  /** Replaces every auth placeholder (the reader's own credential, later). */
  credential?: string;
}

/**
 * The HAR request for `input`. `url` excludes the query (carried in `queryString`); cookies and apiKey
 * cookies travel as one `Cookie` header, because the snippet library's targets disagree on HAR cookies.
 */
export function toHar(input: SampleInput, choice: HarChoice = {}): HarRequest {
  const server = input.servers[Math.min(choice.server ?? 0, input.servers.length - 1)];
  const base = server ? serverUrl(server, choice.variables) : "";
  const headers: NameValue[] = [];
  const queryString: NameValue[] = [...input.query];
  const cookies: NameValue[] = [...input.cookies];
  for (const a of input.auth) {
    const value = choice.credential ? a.value.replace(a.placeholder, choice.credential) : a.value;
    if (a.placement === "header") headers.push({ name: a.name, value });
    else if (a.placement === "query") queryString.push({ name: a.name, value });
    else cookies.push({ name: a.name, value });
  }
  headers.push(...input.headers);
  if (cookies.length > 0) headers.push({ name: "Cookie", value: cookies.map((c) => `${c.name}=${c.value}`).join("; ") });
  if (input.body) headers.push({ name: "Content-Type", value: input.body.mimeType });
  const har: HarRequest = {
    method: input.method,
    url: base + input.path,
    httpVersion: "HTTP/1.1",
    headers,
    queryString,
    cookies: [],
    headersSize: -1,
    bodySize: -1,
  };
  if (input.body) har.postData = input.body;
  return har;
}
