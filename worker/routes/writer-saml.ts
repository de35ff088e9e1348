/**
 * @module SAML 2.0 single sign-on for writers (issue 32, Enterprise plan). An owner or admin sets the organisation's
 * identity provider (`PUT /v1/orgs/{org}/sso`, body = the IdP metadata XML; query `email`, `role` = attribute
 * names, `defaultRole`); writers then sign in at `GET /v1/auth/saml/{org}/login` and the IdP posts back to
 * `POST /v1/auth/saml/{org}/acs`, which opens a dashboard session and lands on `/app/orgs/{org}`. The SP entityID is
 * the metadata URL `GET /v1/auth/saml/{org}/metadata`.
 *
 * The message checks are the readers' (worker/access/saml: xml-crypto for the XML signature, the profile's rules
 * around it), unchanged. Around them, as for readers: the sign-in is bound to the browser that started it (a
 * cookie holding the request ID), starts are rate-limited, the request is consumed once, and each assertion opens
 * one session only. The session reaches this organisation only: an IdP vouches for its own people, not for what
 * the same address holds in other organisations (workspace/accounts.ts `sessionReaches`).
 */
import { Hono, type Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { clientAddress } from "../access/rate-limit";
import { authnRequestXml, newSamlId, redirectBindingUrl } from "../access/saml/authn-request";
import { parseIdpMetadata, spMetadataXml, type SpConfig } from "../access/saml/metadata";
import { acceptAcsPost } from "../access/saml/acs";
import { SamlError } from "../access/saml/xml";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { readBodyLimited } from "../http/read-body";
import { readJsonObject } from "../http/read-json";
import { renderErrorPage } from "../render";
import { findOrCreateWriter, findOrganisation, roleIn, setWriterSsoRequired, type OrgRow } from "../store/workspace";
import {
  consumeOrgSamlRequest, deleteOrgIdp, getOrgIdp, markOrgAssertionUsed, joinOrganisation, putOrgIdp, recordOrgSamlRequest, setRoleFromIdp,
  WRITER_SAML_REQUEST_TTL_MS, type OrgIdpConfig,
} from "../store/workspace-sso";
import { orgFor } from "../workspace/access";
import { actorOf, principalOf, startWriterSession } from "../workspace/accounts";
import { recordAudit } from "../workspace/audit";
import { can, requireFeature } from "../workspace/plans";
import { emailOf, membershipAfter, roleOf, settingsFromQuery, ssoLoginPath } from "../workspace/sso";
import { idpSpView } from "./saml";
import { safeAppPath } from "./workspace";

const MAX_METADATA_BYTES = 512 * 1024;
/** The cookie binding a pending sign-in to the browser that started it (value: the AuthnRequest ID). */
const REQUEST_COOKIE = "portico_writer_saml";

/** The organisation's SP identity, on the service's public origin (never the request's Host). */
export function writerSpConfig(env: AppEnv["Bindings"], orgSlug: string): SpConfig {
  const base = `${publicOrigin(env)}/v1/auth/saml/${encodeURIComponent(orgSlug)}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs` };
}

function cookieOptions(c: Context<AppEnv>, orgSlug: string) {
  const secure = new URL(c.req.url).protocol === "https:";
  // The IdP posts cross-site: SameSite=None where cookies are Secure, else Lax (local http).
  return { path: `/v1/auth/saml/${encodeURIComponent(orgSlug)}/`, httpOnly: true, secure, sameSite: secure ? ("None" as const) : ("Lax" as const) };
}

function refuse(c: Context<AppEnv>, status: 400 | 403 | 404 | 429, title: string, message: string): Response {
  c.header("cache-control", "private, no-store");
  return c.html(renderErrorPage({ status, title, message }), status);
}

/** The organisation with its IdP when writer SSO is usable: an IdP set and the plan includes `saml`. */
async function ssoOrg(c: Context<AppEnv>): Promise<{ org: OrgRow; idp: OrgIdpConfig } | Response> {
  const org = await findOrganisation(c.env.DB, c.req.param("org") ?? "");
  const idp = org && (await getOrgIdp(c.env.DB, org.id));
  if (!org || !idp) return refuse(c, 404, "Not found", "Single sign-on is not set up for this organisation.");
  if (!can(org, "saml")) return refuse(c, 403, "Single sign-on is off", "Single sign-on for writers is part of the Enterprise plan (plan-required): sign in with an e-mail link instead.");
  return { org, idp };
}

async function ssoView(env: AppEnv["Bindings"], org: OrgRow, idp: OrgIdpConfig) {
  return { sso: { ...(await idpSpView(idp, writerSpConfig(env, org.slug))), settings: idp.settings, updatedAt: idp.updatedAt } };
}

/** Reads and parses IdP metadata from the request body. @throws ApiError 400 `invalid-metadata`. */
async function metadataOf(c: Context<AppEnv>) {
  let xml: string;
  try {
    xml = new TextDecoder("utf-8", { fatal: true }).decode(await readBodyLimited(c.req.raw, MAX_METADATA_BYTES));
  } catch (error) {
    if (error instanceof TypeError) throw new ApiError(400, "invalid-metadata", "the metadata is not UTF-8 text", { field: "metadata" });
    throw error;
  }
  try {
    return parseIdpMetadata(xml.replace(/^\uFEFF/, ""));
  } catch (error) {
    if (error instanceof SamlError) throw new ApiError(400, "invalid-metadata", `IdP metadata refused: ${error.message}`, { field: "metadata", reason: error.code });
    throw error;
  }
}

export const writerSamlRoutes = new Hono<AppEnv>()
  .get("/v1/auth/saml/:org/metadata", async (c) => {
    const org = await findOrganisation(c.env.DB, c.req.param("org"));
    if (!org) return refuse(c, 404, "Not found", "There is no such organisation.");
    return c.body(spMetadataXml(writerSpConfig(c.env, org.slug)), 200, { "content-type": "application/samlmetadata+xml; charset=utf-8" });
  })
  .get("/v1/auth/saml/:org/login", async (c) => {
    const found = await ssoOrg(c);
    if (found instanceof Response) return found;
    const { org, idp } = found;
    const now = new Date();
    const limiter = c.env.SIGN_IN_LIMITER.get(c.env.SIGN_IN_LIMITER.idFromName(`org:${org.id}`));
    const reservation = await limiter.reserve("saml-login", clientAddress(c.env, c.req.raw), now.getTime());
    if (!reservation.ok) {
      c.header("retry-after", String(reservation.retryAfterSeconds));
      return refuse(c, 429, "Too many sign-ins", "Too many sign-ins were started from here. Wait a few minutes and try again.");
    }
    const id = newSamlId();
    await recordOrgSamlRequest(c.env.DB, org.id, id, safeAppPath(c.req.query("returnTo") ?? `/app/orgs/${org.slug}`), now);
    setCookie(c, REQUEST_COOKIE, id, { ...cookieOptions(c, org.slug), maxAge: WRITER_SAML_REQUEST_TTL_MS / 1000 });
    c.header("cache-control", "private, no-store");
    const sp = writerSpConfig(c.env, org.slug);
    return c.redirect(redirectBindingUrl(idp.ssoUrl, authnRequestXml(sp, idp.ssoUrl, id, now), id), 302);
  })
  .post("/v1/auth/saml/:org/acs", async (c) => {
    const found = await ssoOrg(c);
    if (found instanceof Response) return found;
    const { org, idp } = found;
    const now = new Date();
    const accepted = await acceptAcsPost(c, { idp, sp: writerSpConfig(c.env, org.slug), requestCookie: REQUEST_COOKIE, logLabel: `writer saml ${org.slug}`, now });
    if ("refusal" in accepted) return refuse(c, accepted.refusal.status, accepted.refusal.title, accepted.refusal.message);
    const { assertion } = accepted;
    if (!(await markOrgAssertionUsed(c.env.DB, org.id, assertion.assertionId, assertion.replayUntil.getTime(), now.getTime()))) {
      return refuse(c, 403, "Sign-in refused", "This identity provider's answer was used already. Start again.");
    }
    const request = await consumeOrgSamlRequest(c.env.DB, org.id, assertion.inResponseTo, now);
    if (!request) return refuse(c, 403, "Sign-in refused", "This sign-in answers no request pending here: it was used already, has expired, or was started for another organisation. Start again.");
    const email = emailOf(assertion, idp.settings);
    if (!email) return refuse(c, 403, "Sign-in refused", "The identity provider sent no e-mail address for this person (set the e-mail attribute in the SSO settings).");
    deleteCookie(c, REQUEST_COOKIE, cookieOptions(c, org.slug));

    const writer = await findOrCreateWriter(c.env.DB, email, now);
    const change = membershipAfter(await roleIn(c.env.DB, org.id, writer.id), roleOf(assertion, idp.settings), idp.settings);
    const actor = { kind: "writer" as const, email };
    if (change.kind === "join" && (await joinOrganisation(c.env.DB, org.id, writer.id, change.role, now))) {
      await recordAudit(c.env.DB, actor, { organisationId: org.id, portalId: null, action: "member.join", target: email, details: { role: change.role, via: "saml" } });
    } else if (change.kind === "role" && (await setRoleFromIdp(c.env.DB, org.id, writer.id, change.to))) {
      await recordAudit(c.env.DB, actor, { organisationId: org.id, portalId: null, action: "member.role", target: String(writer.id), details: { from: change.from, to: change.to, via: "saml" } });
    }
    await startWriterSession(c, writer, now, { organisationId: org.id, ...(assertion.sessionNotOnOrAfter ? { notAfter: assertion.sessionNotOnOrAfter } : {}) });
    c.header("cache-control", "private, no-store");
    return c.redirect(safeAppPath(request.returnTo), 303);
  })
  // ---- settings (owners and admins; setting an IdP needs the Enterprise plan)
  .put("/v1/orgs/:org/sso", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "sso.manage");
    requireFeature(org, "saml");
    const settings = settingsFromQuery(new URL(c.req.url).searchParams);
    const meta = await metadataOf(c);
    const saved = await putOrgIdp(c.env.DB, org.id, meta, settings);
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "sso.set", target: meta.entityId, details: { ssoUrl: meta.ssoUrl, ...settings } });
    return c.json(await ssoView(c.env, org, saved));
  })
  .get("/v1/orgs/:org/sso", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "sso.manage");
    const idp = await getOrgIdp(c.env.DB, org.id);
    if (!idp) throw new ApiError(404, "not-found", `single sign-on is not set up: PUT the identity provider's metadata XML to /v1/orgs/${org.slug}/sso`);
    return c.json({ ...(await ssoView(c.env, org, idp)), enabled: can(org, "saml"), required: !!org.writerSsoRequired });
  })
  // Requiring SSO: `{"required": true}` refuses the organisation's e-mail-link sessions, owners' excepted (their
  // break-glass path). Needs the IdP set and the Enterprise plan (to turn it on); audited `sso.require`.
  .patch("/v1/orgs/:org/sso", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "sso.manage");
    const body = await readJsonObject(c.req.raw, 1024);
    const unknown = Object.keys(body).filter((k) => k !== "required");
    if (unknown.length || typeof body.required !== "boolean") throw new ApiError(400, "invalid-sso", "the body is {\"required\": true | false}", { field: "required" });
    if (body.required) {
      requireFeature(org, "saml");
      if (!(await getOrgIdp(c.env.DB, org.id))) throw new ApiError(409, "sso-not-set-up", `set the identity provider first (PUT /v1/orgs/${org.slug}/sso): requiring single sign-on without one would lock writers out`, { field: "required" });
    }
    await setWriterSsoRequired(c.env.DB, org.id, body.required);
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "sso.require", target: org.slug, details: { required: body.required } });
    return c.json({ required: body.required, login: ssoLoginPath(org.slug) });
  })
  .delete("/v1/orgs/:org/sso", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "sso.manage");
    if (!(await deleteOrgIdp(c.env.DB, org.id))) throw new ApiError(404, "not-found", "single sign-on is not set up");
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "sso.delete", target: org.slug });
    return c.json({ deleted: true });
  })
  .onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.toBody(), error.status);
    throw error;
  });
