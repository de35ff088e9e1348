/** @module Custom-domain test helpers: the domain API and requests on a given Host. */
import { SELF } from "cloudflare:test";
import { ORIGIN } from "../harness/client";

/** `method /v1/portal/domain` with the portal token; status and JSON. */
export async function domainApi(token: string, method: "PUT" | "GET" | "DELETE", body?: unknown): Promise<{ status: number; json: any }> {
  const res = await SELF.fetch(`${ORIGIN}/v1/portal/domain`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: await res.json() };
}

/** A request as a browser on `http://{host}` sends it (the URL's host is the Host header in workerd); redirects not followed. */
export function onHost(host: string, path: string, init: RequestInit = {}): Promise<Response> {
  return SELF.fetch(`http://${host}${path}`, { redirect: "manual", ...init });
}

/** A same-origin form POST on `host`. */
export function postFormOn(host: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return onHost(host, path, {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: `http://${host}`, ...headers },
  });
}
