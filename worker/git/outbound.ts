/**
 * @module Outbound HTTP for Git sync with the playground's SSRF rules (worker/playground/target.ts): http(s) only,
 * no user info, no private, loopback, link-local or metadata address (written or resolved), DNS-rebinding TTL
 * floor; loopback and private hosts only when `PORTICO_ENVIRONMENT` is "local". Redirects are followed by hand
 * (at most {@link MAX_REDIRECTS}), each hop checked again: a tarball answers 302 to another host.
 * Bodies are read within a byte limit.
 */
import { ApiError } from "../http/errors";
import { checkTarget } from "../playground/target";
import { CachingResolver, CLOUDFLARE_DOH, DohResolver, type HostResolver } from "../playground/resolve";
import { DEFAULT_BASE_URL } from "../http/public-origin";

export const MAX_REDIRECTS = 3;
/** Milliseconds one outbound call may take, body included. */
export const OUTBOUND_TIMEOUT_MS = 20_000;

let resolver: HostResolver | undefined;

/** Thrown for a refused target or a failed call: `message` is fit for a check run or a delivery's result. */
export class OutboundError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = "OutboundError";
  }
}

/** Thrown when a body is over its byte limit. */
export class TooLarge extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes`);
    this.name = "TooLarge";
  }
}

type OutEnv = Pick<Env, "PORTICO_ENVIRONMENT" | "PORTICO_BASE_URL">;

async function checked(env: OutEnv, raw: string): Promise<URL> {
  const url = new URL(raw);
  const own = new URL(env.PORTICO_BASE_URL || DEFAULT_BASE_URL).host;
  try {
    return await checkTarget(raw, { allowed: [{ hostname: url.hostname, port: url.port }], ownHosts: [own], allowPrivate: env.PORTICO_ENVIRONMENT === "local" }, (resolver ??= new CachingResolver(new DohResolver(CLOUDFLARE_DOH))));
  } catch (error) {
    if (error instanceof ApiError) throw new OutboundError(`${url.host}: ${error.message}`);
    throw error;
  }
}

/**
 * Fetches `url` after checking it (and every redirect) against the SSRF rules.
 * @throws OutboundError for a refused host, too many redirects or a network failure.
 */
export async function outboundFetch(env: OutEnv, url: string, init: RequestInit = {}): Promise<Response> {
  let target = (await checked(env, url)).href;
  let headers = new Headers(init.headers);
  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await fetch(target, { ...init, headers, redirect: "manual", signal: AbortSignal.timeout(OUTBOUND_TIMEOUT_MS) });
    } catch (error) {
      throw new OutboundError(`${new URL(target).host} could not be reached: ${error instanceof Error ? error.message : String(error)}`);
    }
    const location = response.headers.get("location");
    if (response.status < 300 || response.status > 399 || !location) return response;
    await response.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new OutboundError(`more than ${MAX_REDIRECTS} redirects from ${url}`);
    const next = (await checked(env, new URL(location, target).href)).href;
    // Credentials never follow a redirect to another origin (GitHub's archive links carry their own token).
    if (new URL(next).origin !== new URL(target).origin) {
      headers = new Headers(headers);
      headers.delete("authorization");
      headers.delete("private-token");
    }
    target = next;
  }
}

/** Reads a response body, stopping at `limit` bytes. @throws TooLarge past it. */
export async function readLimited(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > limit) {
    await response.body?.cancel();
    throw new TooLarge(limit);
  }
  if (!response.body) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new TooLarge(limit);
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.byteLength));
  return out;
}
