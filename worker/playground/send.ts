/**
 * @module The playground proxy's request: the reader's headers cleaned (hop-by-hop, forwarding and platform
 * headers dropped, the portal's own cookies removed, our `User-Agent` set), sent with `redirect: "manual"`,
 * following at most {@link PLAYGROUND_LIMITS}.maxRedirects redirects with every hop checked again by `check`,
 * under one timeout, and the response read up to a size cap. Never logs headers or bodies.
 */
import { ApiError } from "../http/errors";
import { readStreamCapped } from "../lib/read-stream";

/** Limits of one playground call (documented in docs/playground.md). */
export const PLAYGROUND_LIMITS = {
  /** The request body after base64 decoding, bytes (1 MiB). */
  maxRequestBytes: 1024 * 1024,
  /** The response body kept, bytes (5 MiB); the rest is dropped and `truncated` set. */
  maxResponseBytes: 5 * 1024 * 1024,
  /** The whole call, every redirect included, milliseconds. */
  timeoutMs: 15_000,
  /** Redirects followed; one more is refused with 502 `too-many-redirects`. */
  maxRedirects: 5,
  /** Request headers the reader may send, and their total size in characters. */
  maxHeaders: 100,
  maxHeaderChars: 32 * 1024,
} as const;

/**
 * The one identifying header the proxy adds (docs/playground.md): product and version, and the portal's public URL
 * so an API's owner can see which documentation sent the call. Nothing about the reader.
 */
export function playgroundUserAgent(portalUrl: string): string {
  return `Portico-Playground/1 (+${portalUrl})`;
}

/** Cookies of the portal itself (worker/access/session.ts, worker/access/api-key.ts), never sent upstream. */
const PORTAL_COOKIES = new Set(["portico_session", "portico_api_key"]);

/** Headers the reader cannot set: the connection's own, forwarding and client-identity headers, ours. */
const DROPPED = /^(host|content-length|connection|keep-alive|transfer-encoding|te|trailer|upgrade|expect|via|forwarded|x-forwarded-.*|x-real-ip|true-client-ip|cf-.*|proxy-.*|user-agent)$/i;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What the reader asked to send, validated. */
export interface OutboundRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
}

/** The upstream's answer as the proxy reports it. */
export interface ProxiedResponse {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Uint8Array;
  /** True when the body went past the response cap and was cut. */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
  redirects: number;
  /** Time spent waiting on the upstream (every hop, body read included), milliseconds. */
  upstreamMs: number;
}

/**
 * The headers sent upstream: reader-given only (the portal's request headers are never copied), minus
 * {@link DROPPED}, minus the portal's cookies, plus our User-Agent.
 * @throws ApiError 400 `invalid-headers` for a name or value HTTP cannot carry, or too many or too large.
 */
export function outboundHeaders(given: Record<string, string>, userAgent: string): Headers {
  const entries = Object.entries(given);
  if (entries.length > PLAYGROUND_LIMITS.maxHeaders) throw new ApiError(400, "invalid-headers", `at most ${PLAYGROUND_LIMITS.maxHeaders} headers`);
  let chars = 0;
  const headers = new Headers();
  for (const [name, value] of entries) {
    chars += name.length + value.length;
    if (!TOKEN.test(name)) throw new ApiError(400, "invalid-headers", `"${name.slice(0, 100)}" is not a header name`);
    if (/[\r\n\0]/.test(value)) throw new ApiError(400, "invalid-headers", `header ${name} has a line break or NUL in its value`);
    // Checked before the platform sees it: workerd logs a non-ASCII header value in full (a credential, maybe).
    if (!/^[\t\x20-\x7e]*$/.test(value)) throw new ApiError(400, "invalid-headers", `header ${name} has characters beyond printable ASCII in its value; percent- or base64-encode them`);
    if (DROPPED.test(name)) continue;
    if (name.toLowerCase() === "cookie") {
      const kept = value.split(";").map((p) => p.trim()).filter((p) => p && !PORTAL_COOKIES.has(p.split("=")[0].trim()));
      if (kept.length) headers.set("cookie", kept.join("; "));
      continue;
    }
    headers.append(name, value);
  }
  if (chars > PLAYGROUND_LIMITS.maxHeaderChars) throw new ApiError(400, "invalid-headers", `headers take at most ${PLAYGROUND_LIMITS.maxHeaderChars} characters`);
  headers.set("user-agent", userAgent);
  return headers;
}

async function readCapped(res: Response, cap: number): Promise<{ body: Uint8Array; truncated: boolean }> {
  const { bytes, truncated } = await readStreamCapped(res.body, cap);
  return { body: bytes, truncated };
}

/**
 * Sends `request`, checking every URL (the first and each redirect's) with `check` before connecting. `options`:
 * the platform's `fetch` and {@link PLAYGROUND_LIMITS}.timeoutMs unless given (the tests shorten the timeout).
 * @throws ApiError from `check` (403 `blocked-host`…), 502 `too-many-redirects` / `upstream-unreachable`,
 *   504 `upstream-timeout`.
 */
export async function sendUpstream(
  request: OutboundRequest,
  userAgent: string,
  check: (url: string) => Promise<URL>,
  options: { fetcher?: typeof fetch; timeoutMs?: number } = {},
): Promise<ProxiedResponse> {
  const fetcher = options.fetcher ?? ((input, init) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? PLAYGROUND_LIMITS.timeoutMs;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let upstreamMs = 0;
  let method = request.method;
  let body = request.body;
  const headers = outboundHeaders(request.headers, userAgent);
  let next = request.url;
  try {
    for (let redirects = 0; ; redirects++) {
      const url = await check(next);
      const started = Date.now();
      let res: Response;
      try {
        res = await fetcher(url.toString(), { method, headers, body: body ?? null, redirect: "manual", signal: controller.signal });
      } catch (error) {
        if (controller.signal.aborted) throw new ApiError(504, "upstream-timeout", `no answer from ${url.host} within ${timeoutMs / 1000} s`);
        throw new ApiError(502, "upstream-unreachable", `could not connect to ${url.host}: ${(error as Error).message}`);
      }
      const location = res.headers.get("location");
      if (REDIRECTS.has(res.status) && location !== null) {
        await res.body?.cancel();
        upstreamMs += Date.now() - started;
        if (redirects >= PLAYGROUND_LIMITS.maxRedirects) throw new ApiError(502, "too-many-redirects", `more than ${PLAYGROUND_LIMITS.maxRedirects} redirects`);
        let target: URL;
        try {
          target = new URL(location, url);
        } catch {
          throw new ApiError(502, "upstream-unreachable", `${url.host} redirected to a URL that does not parse`);
        }
        // As the Fetch standard does: 303 (and 301/302 after a POST) becomes a GET without a body.
        if (res.status === 303 ? method !== "HEAD" : (res.status === 301 || res.status === 302) && method === "POST") {
          method = "GET";
          body = undefined;
          headers.delete("content-type");
        }
        // Credentials the reader meant for one origin never follow a redirect to another.
        if (target.origin !== url.origin) {
          headers.delete("authorization");
          headers.delete("cookie");
          headers.delete("proxy-authorization");
        }
        next = target.toString();
        continue;
      }
      let read;
      try {
        read = await readCapped(res, PLAYGROUND_LIMITS.maxResponseBytes);
      } catch (error) {
        if (controller.signal.aborted) throw new ApiError(504, "upstream-timeout", `the answer of ${url.host} took over ${timeoutMs / 1000} s`);
        throw new ApiError(502, "upstream-unreachable", `the answer of ${url.host} broke off: ${(error as Error).message}`);
      }
      upstreamMs += Date.now() - started;
      const out: Record<string, string> = {};
      res.headers.forEach((value, name) => {
        out[name] = name in out ? `${out[name]}, ${value}` : value;
      });
      return { status: res.status, statusText: res.statusText, headers: out, ...read, url: url.toString(), redirects, upstreamMs };
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a response body of this media type is shown as text (when it is also valid UTF-8). */
export function textualMediaType(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  return /^text\//.test(type) || /[/+](json|xml)$/.test(type) || /^application\/(javascript|ecmascript|x-www-form-urlencoded|yaml|x-yaml|graphql)$/.test(type);
}

/** Bytes as base64, in slices (a 5 MiB body would overflow `String.fromCharCode`'s argument list). */
export function toBase64(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(out);
}

/** @throws ApiError 400 `invalid-body` when `text` is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new ApiError(400, "invalid-body", "body is not valid base64");
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * A response body for JSON: UTF-8 text when its media type is textual and it decodes, else base64. A `truncated`
 * body may end inside a character: that last partial character is dropped rather than failing the decode.
 */
export function encodeBody(bytes: Uint8Array, contentType: string | undefined, truncated = false): { body: string; bodyEncoding: "utf8" | "base64" } {
  if (textualMediaType(contentType)) {
    try {
      return { body: new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: truncated }), bodyEncoding: "utf8" };
    } catch {
      // not UTF-8 after all: base64 below
    }
  }
  return { body: toBase64(bytes), bodyEncoding: "base64" };
}
