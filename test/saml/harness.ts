/** @module SAML test harness: a portal with the test IdP configured, the SP-initiated start, and reading the session back. */
import { env, SELF } from "cloudflare:test";
import { Hono } from "hono";
import { expect } from "vitest";
import { readSession } from "../../worker/access/session";
import type { AppEnv } from "../../worker/env";
import { getDb } from "../../worker/store/db";
import { findPortalBySlug } from "../../worker/store/portals";
import { idpMetadataXml, inflateSamlRequest } from "../../worker/access/saml/testing/idp";
import { createPortal, ORIGIN } from "../harness/client";
import { makeSigningKeys } from "../../worker/access/saml/testing/keys";

export const IDP_ENTITY = "https://idp.test/saml/metadata";
export const IDP_SSO = "https://idp.test/sso";

/** The test IdP's signing keys, made when the test file loads (every run has its own). */
export const IDP = await makeSigningKeys("Portico test IdP");
/** Another IdP's keys: a signature by them must never be believed. */
export const OTHER_IDP = await makeSigningKeys("Some other IdP");

/** The browser's cookie jar for each portal's SAML path: the binding cookie `startLogin` was given. */
const requestCookies = new Map<string, string>();

export const fetchPath = (path: string, init: RequestInit = {}) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

/** The SP URLs of `slug` (built on the test PORTICO_BASE_URL). */
export function spOf(slug: string) {
  return { entityId: `${ORIGIN}/p/${slug}/auth/saml/metadata`, acsUrl: `${ORIGIN}/p/${slug}/auth/saml/acs` };
}

/** Creates portal `slug` and PUTs the test IdP's metadata (query: attribute names). Returns the portal token. */
export async function samlPortal(slug: string, query = ""): Promise<string> {
  const token = await createPortal(slug);
  const res = await fetchPath(`/v1/portal/sso${query}`, {
    method: "PUT", headers: { authorization: `Bearer ${token}`, "content-type": "application/samlmetadata+xml" }, body: idpMetadataXml(IDP_ENTITY, IDP_SSO, [IDP.cert]),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const access = await fetchPath("/v1/portal", {
    method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ access: { default: "public", methods: ["saml"] } }),
  });
  expect(access.status, await access.clone().text()).toBe(200);
  return token;
}

/**
 * GET …/saml/login?return=…; checks the redirect to the IdP and returns the AuthnRequest's ID. The binding cookie
 * it sets is kept, as a browser would, and sent by {@link postAcs}.
 */
export async function startLogin(slug: string, returnTo: string): Promise<string> {
  const res = await fetchPath(`/p/${slug}/auth/saml/login?return=${encodeURIComponent(returnTo)}`);
  expect(res.status).toBe(302);
  const cookie = /^(portico_saml_request=[^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  expect(cookie, "the login binds the request to this browser").toBeDefined();
  requestCookies.set(slug, cookie!);
  const location = new URL(res.headers.get("location")!);
  expect(`${location.origin}${location.pathname}`).toBe(IDP_SSO);
  const xml = await inflateSamlRequest(location.searchParams.get("SAMLRequest")!);
  const id = /\sID="([^"]+)"/.exec(xml)![1]!;
  expect(location.searchParams.get("RelayState")).toBe(id);
  return id;
}

/**
 * POSTs a SAMLResponse (already base64) to the portal's ACS, as the browser's auto-submitted form does, with the
 * binding cookie of the last `startLogin` (`cookie: null`: a browser that never started this sign-in).
 */
export function postAcs(slug: string, samlResponse: string, options: { cookie?: string | null } = {}): Promise<Response> {
  const cookie = options.cookie === undefined ? requestCookies.get(slug) : options.cookie;
  return fetchPath(`/p/${slug}/auth/saml/acs`, {
    method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: "x" }).toString(),
  });
}

/** The `portico_session=…` pair a response sets (undefined when it sets none). */
export function sessionCookie(res: Response): string | undefined {
  return res.headers.getSetCookie().map((c) => /^(portico_session=[^;]+)/.exec(c)?.[1]).find((c) => c !== undefined);
}

/** The identity the session cookie set by `res` holds, read back through access/session.ts's readSession. */
export async function sessionOf(slug: string, res: Response) {
  const cookie = sessionCookie(res);
  if (!cookie) return null;
  const portal = (await findPortalBySlug(getDb(env.DB), slug))!;
  const app = new Hono<AppEnv>().get("/me", async (c) => c.json(await readSession(c, portal, portal)));
  return (await app.request(`${ORIGIN}/me`, { headers: { cookie } }, env)).json();
}
