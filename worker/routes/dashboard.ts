/**
 * @module The dashboard (`/app`, issue 32): server-rendered pages (worker/render/dashboard.tsx) whose forms post
 * back here. Each change goes through the service API itself (the workspace routes, answered in-process with the
 * writer's cookie and the request's `Origin`), so the dashboard validates, authorises and audits exactly as the API
 * does; a refusal is rendered next to the field it names (`error.details.field`).
 */
import { Hono, type Context } from "hono";
import { zipSync, strToU8 } from "fflate";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { renderHome, renderOrgPage, renderPortalPage, renderSignIn, type FormState, type SsoPanelProps } from "../render/dashboard";
import { portalBasePath } from "../render/shell/base-path";
import { listApiSummaries } from "../store/api-listing";
import { getDb } from "../store/db";
import { findPortalBySlug, type PortalRow } from "../store/portals";
import { listAudit, membersOf, organisationsOf, pendingInvitations, portalsOfOrganisation, tokensOfPortal, type OrgRow } from "../store/workspace";
import { getOrgIdp } from "../store/workspace-sso";
import { orgFor } from "../workspace/access";
import { sessionReaches, sessionWriter } from "../workspace/accounts";
import { billingFor } from "../workspace/billing";
import { creditsOf } from "../workspace/credits";
import { can, FEATURES, type Feature } from "../workspace/plans";
import { roleAllows, scopesGrantable } from "../workspace/roles";
import { SAMPLE_CONTENT, SAMPLE_DEFINITION } from "../workspace/sample-files.generated";
import { renderAccessPage, renderAnalyticsLinkPage, renderBrandingPage, renderContentPage, renderDomainPage, renderGitPage, renderLintPage, renderVersionsPage, type FormsState, type PortalFrame } from "../render/dashboard-portal";
import { buildForm, inputFor, isPortalForm, PORTAL_FORMS, type PortalFormSpec } from "../workspace/dashboard-forms";
import { liveImages } from "../store/content";
import { PORTAL_HEADER } from "../workspace/writer-portal";
import { apisRoutes } from "./apis";
import { contentRoutes } from "./content";
import { domainRoutes } from "./domain";
import { gitRoutes } from "./git";
import { portalSettingsRoutes } from "./portals";
import { fingerprint, samlSettingsRoutes } from "./saml";
import { isLocalRun, orgView, workspaceRoutes } from "./workspace";
import { writerSamlRoutes, writerSpConfig } from "./writer-saml";

type Writer = { id: number; email: string; ssoOrganisationId?: number | null };

/** The signed-in writer, or a redirect to the sign-in page (thrown as a Response). */
async function writerOf(c: Context<AppEnv>): Promise<Writer> {
  const s = await sessionWriter(c);
  if (!s) throw new RedirectTo(`/app/signin`);
  return s.writer;
}

class RedirectTo extends Error {
  constructor(readonly location: string) {
    super(location);
  }
}

/** A raw (non-JSON) request body for {@link api}. */
class RawBody {
  constructor(readonly text: string, readonly contentType: string) {}
}

/** The API apps the dashboard calls in-process. */
type ApiApp = { request: (typeof workspaceRoutes)["request"] };

/** Calls the service API in-process as the writer (cookie and Origin passed on). */
async function api(c: Context<AppEnv>, method: string, path: string, body?: unknown, app: ApiApp = workspaceRoutes): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { cookie: c.req.header("cookie") ?? "", origin: c.req.header("origin") ?? "" };
  let payload: string | undefined;
  if (body instanceof RawBody) {
    headers["content-type"] = body.contentType;
    payload = body.text;
  } else if (body !== undefined) {
    headers["content-type"] = "application/json";
    payload = JSON.stringify(body);
  }
  const res = await app.request(path, { method, headers, ...(payload === undefined ? {} : { body: payload }) }, c.env, c.executionCtx);
  for (const cookie of res.headers.getSetCookie()) c.header("set-cookie", cookie, { append: true });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text };
  }
  // Who may not ask at all (no session, another origin, a role without the right, SSO required) is refused as a
  // page: the form that would carry the message is not shown to them. A role refusal about one field stays the form's.
  const code = json?.error?.code;
  if (res.status === 401 || (res.status === 403 && (code === "cross-origin" || code === "sso-required" || (code === "role-required" && !json.error.details?.field)))) {
    throw new ApiError(res.status as 403, code ?? "refused", json?.error?.message ?? `the API answered ${res.status}`, json?.error?.details);
  }
  return { status: res.status, json };
}

/** A refused API answer as form errors: next to `details.field`, else for the form. */
function formErrors(answer: { json: any }, values: Record<string, string>): FormState {
  const e = answer.json?.error ?? { message: "something went wrong" };
  const field = typeof e.details?.field === "string" ? e.details.field : "_";
  return { values, errors: { [field]: e.message } };
}

async function form(c: Context<AppEnv>): Promise<Record<string, string>> {
  const data = await c.req.parseBody({ all: true });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) out[k] = Array.isArray(v) ? v.filter((x) => typeof x === "string").join(",") : typeof v === "string" ? v : "";
  return out;
}

/** The statuses a dashboard page answers with (a refused form keeps the API's). */
type PageStatus = 200 | 400 | 402 | 403 | 404 | 409 | 422;

function page(c: Context<AppEnv>, html: string, status: PageStatus = 200) {
  c.header("cache-control", "private, no-store");
  return c.html(html, status);
}

/** The SSO panel of the organisation page (owners and admins), from the organisation's IdP row. */
async function ssoPanel(c: Context<AppEnv>, org: OrgRow, extra: { form?: FormState; saved?: boolean; requiredForm?: FormState }): Promise<SsoPanelProps> {
  const sp = writerSpConfig(c.env, org.slug);
  const idp = await getOrgIdp(c.env.DB, org.id);
  return {
    included: can(org, "saml"),
    required: !!org.writerSsoRequired,
    sp: { entityId: sp.entityId, acsUrl: sp.acsUrl, loginUrl: sp.acsUrl.replace(/acs$/, "login") },
    ...(idp ? {
      idp: {
        entityId: idp.entityId, ssoUrl: idp.ssoUrl, certificateFingerprints: await Promise.all(idp.certificates.map(fingerprint)), updatedAt: idp.updatedAt,
        defaultRole: idp.settings.defaultRole, roleAttribute: idp.settings.roleAttribute, ...(idp.settings.emailAttribute ? { emailAttribute: idp.settings.emailAttribute } : {}),
      },
    } : {}),
    ...extra,
  };
}

type OrgPageExtra = { portalForm?: FormState; memberForm?: FormState; memberNotice?: { ok: boolean; message: string }; billing?: { url?: string; message?: string }; ssoForm?: FormState; ssoSaved?: boolean; ssoRequiredForm?: FormState };

async function orgPage(c: Context<AppEnv>, writer: Writer, slug: string, extra: OrgPageExtra = {}, status: 200 | 400 | 403 | 404 | 409 = 200) {
  const { org, role } = await orgFor(c, { kind: "writer", writer, sessionHash: "" }, slug, "org.read");
  const db = c.env.DB;
  const [portals, members, invitations, credits, audit] = await Promise.all([
    portalsOfOrganisation(db, org.id),
    membersOf(db, org.id),
    roleAllows(role, "members.manage") ? pendingInvitations(db, org.id, Date.now()) : Promise.resolve([]),
    creditsOf(c.env, org),
    roleAllows(role, "audit.read") ? listAudit(db, org.id, { from: "0000", to: "9999", limit: 50 }) : Promise.resolve(undefined),
  ]);
  const sso = roleAllows(role, "sso.manage") ? await ssoPanel(c, org, { ...(extra.ssoForm ? { form: extra.ssoForm } : {}), ...(extra.ssoSaved ? { saved: true } : {}), ...(extra.ssoRequiredForm ? { requiredForm: extra.ssoRequiredForm } : {}) }) : undefined;
  const view = orgView(org);
  return page(c, renderOrgPage({
    email: writer.email,
    org: view,
    role,
    may: { createPortal: roleAllows(role, "portal.create"), manageMembers: roleAllows(role, "members.manage"), audit: roleAllows(role, "audit.read"), billing: roleAllows(role, "billing.manage") },
    portals,
    members: members.map((m) => ({ id: m.writerId, email: m.email, role: m.role })),
    invitations,
    credits,
    ...(audit ? { audit } : {}),
    features: (Object.keys(FEATURES) as Feature[]).map((f) => ({ feature: f, plan: FEATURES[f], included: can(org, f) })),
    ...(extra.portalForm ? { portalForm: extra.portalForm } : {}),
    ...(extra.memberForm ? { memberForm: extra.memberForm } : {}),
    ...(extra.memberNotice ? { memberNotice: extra.memberNotice } : {}),
    ...(sso ? { sso } : {}),
    billing: { enabled: billingFor(c.env).enabled, ...extra.billing },
  }), status);
}

async function portalPage(c: Context<AppEnv>, writer: Writer, orgSlug: string, portalSlug: string, extra: { created?: { token: string; name: string; scopes: string[] }; sample?: { published: boolean; message?: string }; tokenForm?: FormState } = {}, status: 200 | 400 | 403 = 200) {
  const [{ org, role }, portal] = await Promise.all([orgFor(c, { kind: "writer", writer, sessionHash: "" }, orgSlug, "org.read"), findPortalBySlug(getDb(c.env.DB), portalSlug)]);
  if (!portal || portal.organisationId !== org.id) throw new ApiError(404, "not-found", `no portal "${portalSlug}" in this organisation`);
  const mayTokens = roleAllows(role, "tokens.read");
  const [listed, tokens] = await Promise.all([listApiSummaries(getDb(c.env.DB), portal.id), mayTokens ? tokensOfPortal(c.env.DB, portal.id) : Promise.resolve([])]);
  return page(c, renderPortalPage({
    email: writer.email,
    org: { id: org.slug, name: org.name, status: orgView(org).status },
    portal: { slug: portal.slug, name: portal.name },
    readerUrl: `${publicOrigin(c.env, portal)}${portalBasePath(portal)}/`,
    apiOrigin: publicOrigin(c.env),
    apis: listed.map((a) => ({ slug: a.api.slug, title: a.api.title, versions: a.versions.length, live: a.liveLabel })),
    tokens,
    mayTokens,
    grantable: scopesGrantable(role),
    ...extra,
  }), status);
}

/**
 * A portal's `/v1` routes, answered in-process for the dashboard's portal pages as the signed-in writer (cookie and
 * `Portico-Portal`): the same role checks, plan checks and audit as a browser call (worker/workspace/writer-portal.ts).
 */
const portalApi = new Hono<AppEnv>()
  .route("/", apisRoutes)
  .route("/", contentRoutes)
  .route("/", portalSettingsRoutes)
  .route("/", domainRoutes)
  .route("/", gitRoutes)
  .route("/", samlSettingsRoutes)
  .onError((error, c) => {
    if (error instanceof ApiError) return c.json(error.toBody(), error.status);
    throw error;
  });

/** A GET of a portal route as the writer: the JSON answer and its status. */
async function portalGet(c: Context<AppEnv>, portal: string, path: string): Promise<{ status: number; json: any }> {
  const res = await portalApi.request(path, { headers: { cookie: c.req.header("cookie") ?? "", [PORTAL_HEADER]: portal } }, c.env, c.executionCtx);
  return { status: res.status, json: await res.json().catch(() => ({})) };
}

/** Who is looking at which portal: the frame of every portal page, after the role check (404 outside the org). */
async function portalFrame(c: Context<AppEnv>): Promise<{ frame: PortalFrame; org: OrgRow; portal: PortalRow }> {
  const writer = await writerOf(c);
  const { org: orgSlug, portal: portalSlug } = c.req.param() as { org: string; portal: string };
  const [{ org, role }, portal] = await Promise.all([orgFor(c, { kind: "writer", writer, sessionHash: "" }, orgSlug, "org.read"), findPortalBySlug(getDb(c.env.DB), portalSlug)]);
  if (!portal || portal.organisationId !== org.id) throw new ApiError(404, "not-found", `no portal "${portalSlug}" in this organisation`);
  return {
    frame: { email: writer.email, org: { id: org.slug, name: org.name }, portal: { slug: portal.slug, name: portal.name }, role, mayManage: role === "owner" || role === "admin" },
    org,
    portal,
  };
}

/** A refused read of the portal API as the page's error (its status and message). */
function refused(answer: { status: number; json: any }): never {
  throw new ApiError(answer.status as 403, answer.json?.error?.code ?? "refused", answer.json?.error?.message ?? `the API answered ${answer.status}`);
}

/** Publishes the demo definition and guides into a new portal with its first token (the "start from a sample" box). */
export async function publishSample(c: Context<AppEnv>, token: string): Promise<{ published: boolean; message?: string }> {
  const headers = { authorization: `Bearer ${token}` };
  const def = await apisRoutes.request("/v1/apis/upload", { method: "POST", headers: { ...headers, "content-type": "application/yaml" }, body: SAMPLE_DEFINITION }, c.env, c.executionCtx);
  if (def.status >= 300) return { published: false, message: `the definition answered ${def.status}` };
  await def.body?.cancel();
  const zip = zipSync(Object.fromEntries(Object.entries(SAMPLE_CONTENT).map(([k, v]) => [k, strToU8(v)])));
  const content = await contentRoutes.request("/v1/content/upload", { method: "POST", headers: { ...headers, "content-type": "application/zip" }, body: zip }, c.env, c.executionCtx);
  if (content.status >= 300) {
    const body = (await content.json().catch(() => ({}))) as { error?: { message?: string } };
    return { published: false, message: `the guides answered ${content.status}: ${body.error?.message ?? ""}` };
  }
  await content.body?.cancel();
  return { published: true };
}

/** A settings page (access, branding, domain) of a portal, with its forms' state after a post. */
async function settingsPage(c: Context<AppEnv>, ctx: { frame: PortalFrame; org: OrgRow; portal: PortalRow }, section: PortalFormSpec["section"], state: FormsState, status: PageStatus = 200) {
  const { frame, org, portal } = ctx;
  const readerUrl = `${publicOrigin(c.env, portal)}${portalBasePath(portal)}/`;
  if (section === "access") {
    const [answer, sso] = await Promise.all([
      portalGet(c, frame.portal.slug, "/v1/portal"),
      frame.mayManage && can(org, "saml") ? portalGet(c, frame.portal.slug, "/v1/portal/sso") : Promise.resolve(undefined),
    ]);
    if (answer.status !== 200) refused(answer);
    const features = { privatePortal: can(org, "private-portal"), magicLink: can(org, "reader-magic-link"), jwt: can(org, "reader-jwt"), saml: can(org, "saml") };
    return page(c, renderAccessPage({ ...frame, ...state, access: answer.json.access, sso: sso?.status === 200 ? sso.json.sso : null, features }), status);
  }
  if (section === "branding") {
    const [answer, images] = await Promise.all([portalGet(c, frame.portal.slug, "/v1/portal"), frame.mayManage ? liveImages(c.env.DB, portal.id) : Promise.resolve([])]);
    if (answer.status !== 200) refused(answer);
    return page(c, renderBrandingPage({ ...frame, ...state, brand: answer.json.brand, readerUrl, images, assetBase: portalBasePath(portal) }), status);
  }
  if (!frame.mayManage) return page(c, renderDomainPage({ ...frame, domain: null, included: can(org, "custom-domain"), readerUrl }), status);
  const answer = await portalGet(c, frame.portal.slug, "/v1/portal/domain");
  if (answer.status !== 200 && answer.status !== 404) refused(answer);
  return page(c, renderDomainPage({ ...frame, ...state, domain: answer.status === 200 ? answer.json.domain : null, included: can(org, "custom-domain"), readerUrl }), status);
}

export const dashboardRoutes = new Hono<AppEnv>()
  .get("/app/signin", async (c) => {
    if (await sessionWriter(c)) return c.redirect("/app", 303);
    return page(c, renderSignIn({}));
  })
  .post("/app/signin", async (c) => {
    const values = await form(c);
    const answer = await api(c, "POST", "/v1/auth/magic-link", { email: values.email ?? "" });
    if (answer.status !== 202) return page(c, renderSignIn({ form: formErrors(answer, values) }), 400);
    const outbox = isLocalRun(c.env) ? `/dev/outbox?to=${encodeURIComponent(answer.json.to)}` : undefined;
    return page(c, renderSignIn({ sent: answer.json.to, ...(outbox ? { outbox } : {}) }));
  })
  .post("/app/signin/sso", async (c) => {
    const values = await form(c);
    const org = (values.org ?? "").trim().toLowerCase();
    if (!/^[a-z0-9][a-z0-9-]{1,46}[a-z0-9]$/.test(org)) return page(c, renderSignIn({ ssoForm: { values, errors: { org: "give your organisation's ID (as in its dashboard address: /app/orgs/<id>)" } } }), 400);
    return c.redirect(`/v1/auth/saml/${org}/login`, 303);
  })
  .post("/app/signout", async (c) => {
    await api(c, "POST", "/v1/auth/signout");
    return c.redirect("/app/signin", 303);
  })
  .get("/app", async (c) => {
    const writer = await writerOf(c);
    const orgs = (await organisationsOf(c.env.DB, writer.id)).filter((o) => sessionReaches(writer, o.id));
    return page(c, renderHome({ email: writer.email, orgs: orgs.map((o) => ({ ...orgView(o), role: o.role })) }));
  })
  .post("/app/orgs", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const answer = await api(c, "POST", "/v1/orgs", { name: values.name ?? "" });
    if (answer.status !== 201) {
      const orgs = (await organisationsOf(c.env.DB, writer.id)).filter((o) => sessionReaches(writer, o.id));
      return page(c, renderHome({ email: writer.email, orgs: orgs.map((o) => ({ ...orgView(o), role: o.role })), form: formErrors(answer, values) }), 400);
    }
    return c.redirect(`/app/orgs/${answer.json.org.id}`, 303);
  })
  .get("/app/orgs/:org", async (c) => orgPage(c, await writerOf(c), c.req.param("org")))
  .post("/app/orgs/:org/portals", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const org = c.req.param("org");
    const answer = await api(c, "POST", `/v1/orgs/${encodeURIComponent(org)}/portals`, { slug: values.slug ?? "", name: values.name ?? "" });
    if (answer.status !== 201) return orgPage(c, writer, org, { portalForm: formErrors(answer, { ...values, sample: values.sample ? "1" : "0" }) }, 400);
    const sample = values.sample ? await publishSample(c, answer.json.token) : undefined;
    // The portal's first token is shown once, on the portal's page, with the curl and CI snippets.
    return portalPage(c, writer, org, answer.json.portal.slug, { created: { token: answer.json.token, name: "portal token", scopes: ["manage"] }, ...(sample ? { sample } : {}) });
  })
  .post("/app/orgs/:org/members", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const org = c.req.param("org");
    const answer = await api(c, "POST", `/v1/orgs/${encodeURIComponent(org)}/members`, { email: values.email ?? "", role: values.role ?? "viewer" });
    if (answer.status !== 201) return orgPage(c, writer, org, { memberForm: formErrors(answer, values) }, 400);
    return c.redirect(`/app/orgs/${org}#members`, 303);
  })
  .post("/app/orgs/:org/members/:member/role", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const { org, member } = c.req.param();
    const answer = await api(c, "PATCH", `/v1/orgs/${encodeURIComponent(org)}/members/${encodeURIComponent(member)}`, { role: values.role ?? "" });
    if (answer.status !== 200) return orgPage(c, writer, org, { memberNotice: { ok: false, message: answer.json?.error?.message ?? "the role was not changed" } }, answer.status === 409 ? 409 : 400);
    return c.redirect(`/app/orgs/${org}#members`, 303);
  })
  .post("/app/orgs/:org/members/:member/remove", async (c) => {
    const writer = await writerOf(c);
    const { org, member } = c.req.param();
    const answer = await api(c, "DELETE", `/v1/orgs/${encodeURIComponent(org)}/members/${encodeURIComponent(member)}`);
    if (answer.status !== 204) return orgPage(c, writer, org, { memberNotice: { ok: false, message: answer.json?.error?.message ?? "the member was not removed" } }, answer.status === 409 ? 409 : 400);
    // Leaving one's own organisation: nothing left to show there.
    if (String(writer.id) === member) return c.redirect("/app", 303);
    return c.redirect(`/app/orgs/${org}#members`, 303);
  })
  .post("/app/orgs/:org/invitations/:id/revoke", async (c) => {
    const writer = await writerOf(c);
    const { org, id } = c.req.param();
    const answer = await api(c, "DELETE", `/v1/orgs/${encodeURIComponent(org)}/invitations/${encodeURIComponent(id)}`);
    if (answer.status !== 204) return orgPage(c, writer, org, { memberNotice: { ok: false, message: answer.json?.error?.message ?? "the invitation was not revoked" } }, 400);
    return c.redirect(`/app/orgs/${org}#members`, 303);
  })
  .post("/app/orgs/:org/sso", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const org = c.req.param("org");
    const query = new URLSearchParams({ defaultRole: values.defaultRole || "viewer", role: values.roleAttribute?.trim() || "role" });
    if (values.emailAttribute?.trim()) query.set("email", values.emailAttribute.trim());
    const answer = await api(c, "PUT", `/v1/orgs/${encodeURIComponent(org)}/sso?${query}`, new RawBody(values.metadata ?? "", "application/samlmetadata+xml"), writerSamlRoutes);
    if (answer.status !== 200) {
      const state = formErrors(answer, values);
      // The query's names are the form's: role → roleAttribute, email → emailAttribute.
      return orgPage(c, writer, org, { ssoForm: state }, answer.status === 403 ? 403 : 400);
    }
    return orgPage(c, writer, org, { ssoSaved: true });
  })
  .post("/app/orgs/:org/sso/required", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const org = c.req.param("org");
    const answer = await api(c, "PATCH", `/v1/orgs/${encodeURIComponent(org)}/sso`, { required: values.required === "1" }, writerSamlRoutes);
    if (answer.status === 404 || answer.json?.error?.code === "role-required") refused(answer);
    if (answer.status !== 200) return orgPage(c, writer, org, { ssoRequiredForm: formErrors(answer, values) }, answer.status === 409 ? 409 : answer.status === 403 ? 403 : 400);
    return c.redirect(`/app/orgs/${org}#sso-required`, 303);
  })
  .post("/app/orgs/:org/sso/delete", async (c) => {
    await writerOf(c);
    const org = c.req.param("org");
    const answer = await api(c, "DELETE", `/v1/orgs/${encodeURIComponent(org)}/sso`, undefined, writerSamlRoutes);
    if (answer.status !== 200) throw new ApiError(answer.status as 403, answer.json?.error?.code ?? "refused", answer.json?.error?.message ?? "refused");
    return c.redirect(`/app/orgs/${org}#sso`, 303);
  })
  .post("/app/orgs/:org/billing/:action{checkout|portal}", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const org = c.req.param("org");
    const answer = await api(c, "POST", `/v1/orgs/${encodeURIComponent(org)}/billing/${c.req.param("action")}`, c.req.param("action") === "checkout" ? { plan: values.plan ?? "" } : {});
    // form-action 'self' stops a redirect to Stripe after a form post: the page offers the link instead.
    return orgPage(c, writer, org, { billing: answer.status === 200 ? { url: answer.json.url } : { message: answer.json?.error?.message ?? "billing failed" } }, answer.status === 200 ? 200 : 400);
  })
  .get("/app/orgs/:org/portals/:portal", async (c) => portalPage(c, await writerOf(c), c.req.param("org"), c.req.param("portal")))
  .post("/app/orgs/:org/portals/:portal/tokens", async (c) => {
    const writer = await writerOf(c);
    const values = await form(c);
    const { org, portal } = c.req.param();
    const scopes = (values.scopes ?? "").split(",").filter(Boolean);
    const expiresAt = values.expiresAt ? `${values.expiresAt}T23:59:59Z` : undefined;
    const answer = await api(c, "POST", "/v1/tokens", { portal, name: values.name ?? "", scopes, ...(expiresAt ? { expiresAt } : {}) });
    if (answer.status !== 201) return portalPage(c, writer, org, portal, { tokenForm: formErrors(answer, values) }, 400);
    return portalPage(c, writer, org, portal, { created: { token: answer.json.token, name: answer.json.name, scopes: answer.json.scopes } });
  })
  .post("/app/orgs/:org/portals/:portal/tokens/:id/revoke", async (c) => {
    await writerOf(c);
    const { org, portal, id } = c.req.param();
    const answer = await api(c, "DELETE", `/v1/tokens/${encodeURIComponent(id)}`);
    if (answer.status !== 204) throw new ApiError(answer.status as 403, answer.json?.error?.code ?? "refused", answer.json?.error?.message ?? "refused");
    return c.redirect(`/app/orgs/${org}/portals/${portal}#tokens`, 303);
  })
  // ---- a portal's pages (worker/render/dashboard-portal.tsx); their forms go to /v1 from the browser
  .get("/app/orgs/:org/portals/:portal/versions", async (c) => {
    const { frame } = await portalFrame(c);
    const answer = await portalGet(c, frame.portal.slug, "/v1/apis");
    if (answer.status !== 200) refused(answer);
    return page(c, renderVersionsPage({ ...frame, apis: answer.json.apis }));
  })
  .get("/app/orgs/:org/portals/:portal/versions/:api/:version/lint", async (c) => {
    const { frame } = await portalFrame(c);
    const { api, version } = c.req.param();
    const answer = await portalGet(c, frame.portal.slug, `/v1/apis/${encodeURIComponent(api)}/versions/${encodeURIComponent(version)}/lint`);
    if (answer.status !== 200 && answer.status !== 202) refused(answer);
    return page(c, renderLintPage({ ...frame, report: answer.json }));
  })
  .get("/app/orgs/:org/portals/:portal/content", async (c) => {
    const { frame } = await portalFrame(c);
    const answer = await portalGet(c, frame.portal.slug, "/v1/content");
    if (answer.status !== 200) refused(answer);
    return page(c, renderContentPage({ ...frame, content: answer.json }));
  })
  .get("/app/orgs/:org/portals/:portal/:section{access|branding|domain}", async (c) => {
    const saved = c.req.query("saved") ?? "";
    return settingsPage(c, await portalFrame(c), c.req.param("section") as PortalFormSpec["section"], isPortalForm(saved) ? { saved } : {});
  })
  // A settings form posted without script: the same portal API call the page's script makes, then back to the page
  // (303 on success; else the page again, with what is wrong next to each field and the API's status).
  .post("/app/orgs/:org/portals/:portal/forms/:form", async (c) => {
    const id = c.req.param("form");
    if (!isPortalForm(id)) throw new ApiError(404, "not-found", `no form "${id}"`);
    const ctx = await portalFrame(c);
    const spec: PortalFormSpec = PORTAL_FORMS[id];
    const data = await c.req.formData();
    const source = { get: (n: string) => { const v = data.get(n); return typeof v === "string" ? v : ""; }, getAll: (n: string) => data.getAll(n).filter((v): v is string => typeof v === "string") };
    const values: Record<string, string> = {};
    for (const key of new Set(data.keys())) if (!spec.secret?.includes(key)) values[key] = source.getAll(key).join(",");
    const built = buildForm(id, source);
    if (!built.ok) return settingsPage(c, ctx, spec.section, { forms: { [id]: { values, errors: built.errors } } }, 400);
    const headers: Record<string, string> = { cookie: c.req.header("cookie") ?? "", origin: c.req.header("origin") ?? "", [PORTAL_HEADER]: ctx.portal.slug };
    let body: string | undefined;
    if (built.raw) {
      headers["content-type"] = built.raw.contentType;
      body = built.raw.text;
    } else if (built.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(built.json);
    }
    const res = await portalApi.request(`${spec.path}${built.query ?? ""}`, { method: spec.method, headers, ...(body === undefined ? {} : { body }) }, c.env, c.executionCtx);
    const answer = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string; details?: { field?: unknown } } };
    const base = `/app/orgs/${ctx.frame.org.id}/portals/${ctx.portal.slug}`;
    if (res.ok) return c.redirect(`${base}/${spec.section}?saved=${id}#form-${id}`, 303);
    // A refusal of who asks (session, role, origin) or of the plan (whose controls the page hides) is the page's,
    // not a field's.
    if (res.status === 401 || res.status === 402 || res.status === 404 || ["role-required", "cross-origin", "plan-required", "sso-required"].includes(answer.error?.code ?? "")) refused({ status: res.status, json: answer });
    const message = answer.error?.message ?? `the API answered ${res.status}`;
    return settingsPage(c, ctx, spec.section, { forms: { [id]: { values, errors: { [inputFor(id, answer.error?.details?.field)]: message } } } }, res.status as 400);
  })
  .get("/app/orgs/:org/portals/:portal/git", async (c) => {
    const { frame } = await portalFrame(c);
    if (!frame.mayManage) return page(c, renderGitPage({ ...frame, git: null, message: "The Git connection's settings are for owners and admins." }));
    const answer = await portalGet(c, frame.portal.slug, "/v1/portal/git");
    if (answer.status !== 200 && answer.status !== 404) refused(answer);
    return page(c, renderGitPage({ ...frame, git: answer.status === 200 ? answer.json.git : null }));
  })
  .get("/app/orgs/:org/portals/:portal/analytics", async (c) => {
    const { frame, org } = await portalFrame(c);
    return page(c, renderAnalyticsLinkPage({ ...frame, included: can(org, "search-analytics") }));
  })
  .onError((error, c) => {
    if (error instanceof RedirectTo) return c.redirect(error.location, 303);
    if (error instanceof ApiError) {
      c.header("cache-control", "private, no-store");
      const esc = (text: string) => text.replace(/[<>&"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
      const login = error.code === "sso-required" ? (error.details as { login?: string } | undefined)?.login : undefined;
      return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${error.status} · Portico</title><link rel="stylesheet" href="/portico.css"><link rel="stylesheet" href="/app.css"></head><body class="app"><main class="app-main"><h1>${error.status === 404 ? "Not found" : error.code === "sso-required" ? "Sign in through single sign-on" : "Not allowed"}</h1><p>${esc(error.message)}</p>${login ? `<p><a class="button" href="${esc(login)}">Continue with single sign-on</a></p>` : ""}<p><a href="/app">Back to your organisations</a></p></main></body></html>`, error.status);
    }
    throw error;
  });
