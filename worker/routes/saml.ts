/**
 * @module SAML 2.0 SSO routes. Readers: `GET /p/{portal}/auth/saml/metadata` (the SP metadata, a stable URL that
 * is also the SP entityID), `GET /p/{portal}/auth/saml/login?return=` (SP-initiated: records the AuthnRequest and
 * redirects to the IdP on the Redirect binding), `POST /p/{portal}/auth/saml/acs` (the HTTP-POST binding: validates
 * the Response, consumes its InResponseTo once, and opens the reader session). Writers: `PUT /v1/portal/sso`
 * (portal token; body = the IdP metadata XML; query `groups`, `email`, `var.<name>` = attribute names),
 * `GET` and `DELETE` of the same.
 *
 * Around the message checks of access/saml/response.ts: a sign-in is bound to the browser that started it (a
 * short-lived cookie holding the request ID, so a Response obtained elsewhere cannot be completed in a victim's
 * browser: login CSRF), starts are rate-limited per client and portal, and each assertion opens one session only
 * (its ID kept until it expires: saml-profiles-2.0-os §4.1.4.5).
 */
import { portalBasePath, portalCookiePath, type PortalAddress } from "../render/shell/base-path";
import { Hono, type Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { clientAddress } from "../access/rate-limit";
import { signInLimiter } from "../access/sign-in-limiter";
import { safeReturnPath } from "../access/return-to";
import { DEFAULT_ATTRIBUTE_MAPPING, identityFromAssertion, VARIABLE_NAME, type AttributeMapping } from "../access/saml/attributes";
import { authnRequestXml, newSamlId, redirectBindingUrl } from "../access/saml/authn-request";
import { parseIdpMetadata, spMetadataXml, type SpConfig } from "../access/saml/metadata";
import { acceptAcsPost } from "../access/saml/acs";
import { SamlError } from "../access/saml/xml";
import { establishSession, secure } from "../access/session";
import type { AppEnv, PortalAppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { readBodyLimited } from "../http/read-body";
import { requirePortal } from "../middleware/auth";
import { renderErrorPage } from "../render";
import { getDb } from "../store/db";
import { findPortalBySlug, type PortalRow } from "../store/portals";
import { bumpSessionVersion, loadAccess, markTokenUsed } from "../store/readers";
import { consumeSamlRequest, deleteSamlIdp, getSamlIdp, putSamlIdp, recordSamlRequest, SAML_REQUEST_TTL_MS, type SamlIdpConfig } from "../store/saml";

/** Largest ACS form post and metadata upload accepted. */
const MAX_METADATA_BYTES = 512 * 1024;
const ATTRIBUTE_NAME = /^[\x21-\x7e]{1,256}$/;

/** The portal's SP identity, built on its public origin (never the request's Host). */
export function spConfig(env: AppEnv["Bindings"], portal: PortalRow): SpConfig {
  const base = `${publicOrigin(env, portal)}${portalBasePath(portal)}/auth/saml`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs` };
}

/** The cookie binding a pending sign-in to the browser that started it (value: the AuthnRequest ID). */
const REQUEST_COOKIE = "portico_saml_request";

/** The binding cookie's attributes: the IdP posts cross-site, so SameSite=None (Secure) wherever cookies are Secure. */
function requestCookieOptions(c: Context<AppEnv>, portal: PortalAddress) {
  const isSecure = secure(c);
  return { path: portalCookiePath(portal, "auth/saml/"), httpOnly: true, secure: isSecure, sameSite: isSecure ? ("None" as const) : ("Lax" as const) };
}

/** A reader-facing refusal: an HTML error page, never cached. */
function refuse(c: Context<AppEnv>, status: 400 | 403 | 404 | 429, title: string, message: string): Response {
  c.header("cache-control", "private, no-store");
  return c.html(renderErrorPage({ status, title, message }), status);
}

async function portalOf(c: Context<AppEnv>): Promise<PortalRow | undefined> {
  return findPortalBySlug(getDb(c.env.DB), c.req.param("portal") ?? "");
}

/**
 * The portal and its IdP when SAML sign-in is on: an IdP configured (`PUT /v1/portal/sso`) and `saml` among the
 * access methods (`PATCH /v1/portal`), so taking `saml` out of the methods stops SSO without losing the IdP.
 */
async function samlPortal(c: Context<AppEnv>): Promise<{ portal: PortalRow; idp: SamlIdpConfig } | undefined> {
  const portal = await portalOf(c);
  if (!portal) return undefined;
  const [idp, access] = await Promise.all([getSamlIdp(getDb(c.env.DB), portal.id), loadAccess(c.env.DB, portal.id)]);
  return idp && access.policy.methods.includes("saml") ? { portal, idp } : undefined;
}

export const samlReaderRoutes = new Hono<AppEnv>()
  .get("/p/:portal/auth/saml/metadata", async (c) => {
    const portal = await portalOf(c);
    if (!portal) return refuse(c, 404, "Not found", "There is no such portal.");
    return c.body(spMetadataXml(spConfig(c.env, portal)), 200, { "content-type": "application/samlmetadata+xml; charset=utf-8" });
  })
  .get("/p/:portal/auth/saml/login", async (c) => {
    const found = await samlPortal(c);
    if (!found) return refuse(c, 404, "Not found", "SAML sign-in is not set up for this portal.");
    const { portal, idp } = found;
    const now = new Date();
    // Each start writes a D1 row: bounded per client and per portal like every other sign-in attempt.
    const reservation = await signInLimiter(c.env, portal.id).reserve("saml-login", clientAddress(c.env, c.req.raw), now.getTime());
    if (!reservation.ok) {
      c.header("retry-after", String(reservation.retryAfterSeconds));
      return refuse(c, 429, "Too many sign-ins", "Too many sign-ins were started from here. Wait a few minutes and try again.");
    }
    const id = newSamlId();
    await recordSamlRequest(getDb(c.env.DB), portal.id, id, safeReturnPath(portal, c.req.query("return")), now);
    setCookie(c, REQUEST_COOKIE, id, { ...requestCookieOptions(c, portal), maxAge: SAML_REQUEST_TTL_MS / 1000 });
    c.header("cache-control", "private, no-store");
    // RelayState carries the request ID only: the return path stays server-side with the request.
    return c.redirect(redirectBindingUrl(idp.ssoUrl, authnRequestXml(spConfig(c.env, portal), idp.ssoUrl, id, now), id), 302);
  })
  .post("/p/:portal/auth/saml/acs", async (c) => {
    const found = await samlPortal(c);
    if (!found) return refuse(c, 404, "Not found", "SAML sign-in is not set up for this portal.");
    const { portal, idp } = found;
    const db = getDb(c.env.DB);
    const now = new Date();
    const accepted = await acceptAcsPost(c, { idp, sp: spConfig(c.env, portal), requestCookie: REQUEST_COOKIE, logLabel: `saml ${portal.slug}`, now });
    if ("refusal" in accepted) return refuse(c, accepted.refusal.status, accepted.refusal.title, accepted.refusal.message);
    const { assertion } = accepted;
    if (!(await markTokenUsed(c.env.DB, portal.id, `saml:${assertion.assertionId}`, assertion.replayUntil.getTime(), now.getTime()))) {
      console.warn("saml refused", portal.slug, "assertion-replayed");
      return refuse(c, 403, "Sign-in refused", "This identity provider's answer was used already. Start again.");
    }
    const request = await consumeSamlRequest(db, portal.id, assertion.inResponseTo, now);
    if (!request) {
      console.warn("saml refused", portal.slug, "in-response-to-unknown");
      return refuse(c, 403, "Sign-in refused", "This sign-in answers no request pending here: it was already used, has expired, or was not started on this portal. Start again.");
    }
    deleteCookie(c, REQUEST_COOKIE, requestCookieOptions(c, portal));
    return establishSession(c, portal, identityFromAssertion(assertion, idp.mapping), request.returnTo, { notAfter: assertion.sessionNotOnOrAfter });
  });

/** The attribute mapping named by the PUT query (`groups`, `email`, `var.<name>`). @throws ApiError 400. */
function mappingFromQuery(url: string): AttributeMapping {
  const mapping: AttributeMapping = { ...DEFAULT_ATTRIBUTE_MAPPING, variables: {} };
  for (const [key, value] of new URL(url).searchParams) {
    if (!ATTRIBUTE_NAME.test(value)) throw new ApiError(400, "invalid-attribute-name", `${key} must name an attribute (1-256 visible ASCII characters)`, { field: key });
    if (key === "groups") mapping.groupsAttribute = value;
    else if (key === "email") mapping.emailAttribute = value;
    else if (key.startsWith("var.") && VARIABLE_NAME.test(key.slice(4))) mapping.variables[key.slice(4)] = value;
    else throw new ApiError(400, "invalid-query", `unknown query parameter "${key}"; known: groups, email, var.<variable name>`);
  }
  return mapping;
}

/** SHA-256 fingerprint (colon-separated hex) of a PEM certificate's DER bytes. */
export async function fingerprint(pem: string): Promise<string> {
  const der = Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s+/g, "")), (ch) => ch.charCodeAt(0));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", der));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
}

/**
 * The identity provider and service provider halves of an SSO settings answer (readers' and writers' alike): the
 * IdP's entity ID, sign-in URL and certificate fingerprints (never the certificates), and the SP's addresses.
 */
export async function idpSpView(idp: { entityId: string; ssoUrl: string; certificates: readonly string[] }, sp: SpConfig) {
  return {
    idp: { entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificateFingerprints: await Promise.all(idp.certificates.map(fingerprint)) },
    sp: { entityId: sp.entityId, metadataUrl: sp.entityId, acsUrl: sp.acsUrl, loginUrl: sp.acsUrl.replace(/acs$/, "login") },
  };
}

async function ssoView(env: AppEnv["Bindings"], portal: PortalRow, idp: SamlIdpConfig) {
  return { sso: { ...(await idpSpView(idp, spConfig(env, portal))), attributes: idp.mapping, updatedAt: idp.updatedAt } };
}

export const samlSettingsRoutes = new Hono<PortalAppEnv>()
  .use("/v1/portal/sso", requirePortal)
  .put("/v1/portal/sso", async (c) => {
    const mapping = mappingFromQuery(c.req.url);
    let xml: string;
    try {
      xml = new TextDecoder("utf-8", { fatal: true }).decode(await readBodyLimited(c.req.raw, MAX_METADATA_BYTES));
    } catch (error) {
      if (error instanceof TypeError) throw new ApiError(400, "invalid-metadata", "the metadata is not UTF-8 text", { field: "metadata" });
      throw error;
    }
    let meta;
    try {
      meta = parseIdpMetadata(xml.replace(/^\uFEFF/, ""));
    } catch (error) {
      if (error instanceof SamlError) throw new ApiError(400, "invalid-metadata", `IdP metadata refused: ${error.message}`, { reason: error.code, field: "metadata" });
      throw error;
    }
    const portal = c.get("portal");
    const saved = await putSamlIdp(getDb(c.env.DB), portal.id, meta, mapping);
    // A new IdP, key or mapping: sessions it (or the one before) vouched for end with it.
    await bumpSessionVersion(c.env.DB, portal.id);
    return c.json(await ssoView(c.env, portal, saved));
  })
  .get("/v1/portal/sso", async (c) => {
    const portal = c.get("portal");
    const idp = await getSamlIdp(getDb(c.env.DB), portal.id);
    if (!idp) throw new ApiError(404, "not-found", "SAML SSO is not set up: PUT the identity provider's metadata XML to /v1/portal/sso");
    return c.json(await ssoView(c.env, portal, idp));
  })
  .delete("/v1/portal/sso", async (c) => {
    if (!(await deleteSamlIdp(getDb(c.env.DB), c.get("portal").id))) throw new ApiError(404, "not-found", "SAML SSO is not set up");
    await bumpSessionVersion(c.env.DB, c.get("portal").id);
    return c.json({ deleted: true });
  });
