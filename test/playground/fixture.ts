/**
 * @module Playground test helpers: portals whose APIs point at the upstream started by global-setup.ts, a `send`
 * that calls `POST /p/{portal}/playground/send` through the app with the test's environment (the DoH responder on
 * 127.0.0.1 as PLAYGROUND_DOH_URL), and the upstream's request log.
 */
import { env } from "cloudflare:test";
import { inject } from "vitest";
import { app } from "../../worker/app";
import { uploadContent } from "../content/bundles";
import { createPortal, upload } from "../harness/client";

export const upstream = () => inject("upstreamOrigin");
export const upstreamPort = () => new URL(upstream()).port;

/** An OpenAPI 3.0 definition with these servers and one GET and one POST operation per path. */
export function definition(servers: unknown[], paths = ["/echo"]): string {
  const ops = Object.fromEntries(paths.map((p) => {
    const name = p.replace(/[^a-z]/gi, "") || "root";
    return [p, { get: { operationId: `get_${name}`, responses: { 200: { description: "ok" } } }, post: { operationId: `post_${name}`, responses: { 200: { description: "ok" } } } }];
  }));
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Playground test", version: "1.0.0" }, servers, paths: ops });
}

/** Creates a portal, publishes `apis` (slug → definition text) and a content release with `portico.yaml`. */
export async function setUpPortal(slug: string, apis: Record<string, string>, porticoYaml: string): Promise<void> {
  const token = await createPortal(slug);
  for (const [api, body] of Object.entries(apis)) {
    const r = await upload(token, body, { api }, "application/json");
    if (r.status !== 201) throw new Error(`upload ${api}: ${r.status} ${JSON.stringify(r.json)}`);
  }
  const c = await uploadContent(token, { "portico.yaml": porticoYaml, "guides/intro.md": "---\ntitle: Intro\n---\nHello.\n" });
  if (c.status !== 201) throw new Error(`content: ${c.status} ${JSON.stringify(c.json)}`);
}

/** The environment of the calls: the test bindings, the DoH responder, and `overrides`. */
export function testEnv(overrides: Record<string, unknown> = {}): Env {
  return { ...env, PLAYGROUND_DOH_URL: inject("dohEndpoint"), ...overrides } as Env;
}

let calls = 0;

/**
 * Where the calls go: a loopback host, as `npm start` serves (the local environment needs one). PORTICO_BASE_URL
 * stays http://portico.test (vitest.config.ts), so the portal's public origin is still that.
 */
export const LOCAL_ORIGIN = "http://127.0.0.1:8787";

/** One playground call; `init.headers` are the outer request's (cookie, origin, ip…). */
export async function send(portal: string, body: Record<string, unknown>, init: { headers?: Record<string, string>; env?: Record<string, unknown>; raw?: string; origin?: string } = {}): Promise<{ status: number; json: any; headers: Headers }> {
  const res = await app.request(`${init.origin ?? LOCAL_ORIGIN}/p/${portal}/playground/send`, {
    method: "POST",
    // Each call from its own client IP unless told: the per-reader rate limit is tested on its own.
    headers: { "content-type": "application/json", "cf-connecting-ip": `198.51.100.${++calls % 250}`, ...(init.headers ?? {}) },
    body: init.raw ?? JSON.stringify({ api: "demo", version: "1.0.0", method: "GET", headers: {}, ...body }),
  }, testEnv(init.env));
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text };
  }
  return { status: res.status, json, headers: res.headers };
}

/** What the upstream received since the last {@link clearLog}. */
export async function upstreamLog(): Promise<{ method: string; url: string; headers: Record<string, string>; body: string }[]> {
  return (await fetch(`${upstream()}/__log`)).json();
}

export async function clearLog(): Promise<void> {
  await fetch(`${upstream()}/__log`, { method: "DELETE" });
}

/**
 * Waits, when less than 20 s of the current minute are left, for the next one to start: the Rate Limiting
 * binding counts over fixed 60 s windows aligned to the clock (miniflare as Cloudflare), so a test that fills a
 * limit must not straddle two windows.
 */
export async function freshWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 20_000) await new Promise((r) => setTimeout(r, left + 50));
}
