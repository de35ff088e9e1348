/**
 * @module The team side's service API (issue 32): writers' sign-in (`/v1/auth/*`), the dev outbox
 * (`/dev/outbox`), organisations, their portals and members (`/v1/orgs/*`), invitations, scoped tokens
 * (`/v1/tokens`), the audit log (`/v1/audit`) and the service admin's plan override (`/v1/admin/orgs/*`).
 * Callers are the admin token, a portal token or a writer's cookie (worker/workspace/accounts.ts); roles decide
 * the rest (worker/workspace/roles.ts). Every change is audited.
 */
import { Hono, type Context } from "hono";
import { mailerFor } from "../access/mailer";
import { EMAIL } from "../access/policy";
import { sha256 } from "../content/hash";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { publicOrigin } from "../http/public-origin";
import { readBodyLimited } from "../http/read-body";
import { readJsonObject } from "../http/read-json";
import { escapeHtml as htmlEscape } from "../lib/html-escape";
import { getDb } from "../store/db";
import { createPortal, findPortalBySlug, portalView, type PortalRow } from "../store/portals";
import { listOutboxTo } from "../store/readers";
import { generateToken } from "../store/tokens";
import {
  acceptInvitation, adoptPortal, consumeWriterMagicLink, createInvitation, createOrganisation, createWriterMagicLink, deleteToken, deleteWriterSessions,
  findOrCreateWriter, findOrganisation, findOrganisationByCustomer, findTokenById, recordStripeEvent, stripeEventSeen, insertScopedToken, listAudit, membersOf, organisationsOf, pendingInvitations,
  pendingWriterLinks, portalsOfOrganisation, removeMember, revokeInvitation, roleAndOrgIn, roleIn, setMemberRole, tokensOfPortal, updateOrganisationPlan, type OrgRow,
} from "../store/workspace";
import { orgFor } from "../workspace/access";
import { actorOf, clearWriterCookie, principalOf, randomSecret, sessionReaches, sessionWriter, startWriterSession, WRITER_LINK_TTL_MS, type Principal } from "../workspace/accounts";
import { recordAudit } from "../workspace/audit";
import { billingFor, planMoveOf, type PaidPlan } from "../workspace/billing";
import { creditsOf, setCredits } from "../workspace/credits";
import { normalisePlan, PAID_PLANS, planStatus, PLANS, requireFeature, TRIAL_DAYS } from "../workspace/plans";
import { isRole, roleAllows, scopesGrantable, type Role } from "../workspace/roles";
import { isScope, SCOPES } from "../workspace/scopes";
import { requireSsoSession, ssoLoginPath, ssoRefuses } from "../workspace/sso";

const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,46}[a-z0-9])$/;
/** Portal slugs that would read as product paths on a shared host (same list as POST /v1/portals). */
const RESERVED_SLUGS = new Set(["admin", "api", "app", "assets", "docs", "static", "www", "v1", "p"]);
/** Most pending magic links one address may hold (each ask beyond is answered 202 but sends nothing). */
const MAX_PENDING_LINKS = 5;
/** Invitation lifetime (7 days). */
const INVITATION_TTL_MS = 7 * 86_400_000;
/** Most entries one audit page returns. */
const MAX_AUDIT = 500;

/** Whether this Worker runs locally (`PORTICO_ENVIRONMENT=local`): the dev outbox exists only then. */
export function isLocalRun(env: Env): boolean {
  return env.PORTICO_ENVIRONMENT === "local";
}

function requireEmail(value: unknown, field = "email"): string {
  if (typeof value !== "string" || value.length > 320 || !EMAIL.test(value.trim().toLowerCase())) {
    throw new ApiError(400, "invalid-email", `${field} must be an e-mail address`, { field });
  }
  return value.trim().toLowerCase();
}

function requireName(value: unknown, field = "name"): string {
  if (typeof value !== "string" || !value.trim() || value.length > 200) throw new ApiError(400, "invalid-name", `${field} must be a non-empty string of at most 200 characters`, { field });
  return value.trim();
}

/** A slug made from a name ("Acme Corp" → "acme-corp"), padded to the 3-character minimum. */
export function slugFrom(name: string): string {
  const base = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40).replace(/-+$/, "");
  return base.length >= 3 ? base : `${base || "org"}-${randomSecret().slice(0, 4).toLowerCase().replace(/[^a-z0-9]/g, "x")}`;
}

/** An organisation as the API shows it (`id` is its slug). */
export function orgView(org: OrgRow, now = new Date()) {
  const status = planStatus(org, now);
  return { id: org.slug, name: org.name, plan: normalisePlan(org.plan), status: status.status, trialEndsAt: org.trialEndsAt, ...(status.status === "trialing" ? { trialDaysLeft: status.daysLeft } : {}), ...(status.status === "trial-ended" ? { readersUntil: status.readersUntil } : {}), createdAt: org.createdAt };
}

function link(c: Context<AppEnv>, path: string): string {
  return `${publicOrigin(c.env)}${path}`;
}

async function sendMagicLink(c: Context<AppEnv>, email: string, returnTo: string): Promise<void> {
  const now = Date.now();
  if ((await pendingWriterLinks(c.env.DB, email, now)) >= MAX_PENDING_LINKS) return;
  const token = randomSecret();
  await createWriterMagicLink(c.env.DB, { tokenHash: await sha256(token), email, returnTo, expiresAt: now + WRITER_LINK_TTL_MS });
  const url = link(c, `/v1/auth/verify?token=${encodeURIComponent(token)}`);
  await mailerFor(c.env).send(null, { to: email, subject: "Sign in to Portico", text: `Follow this link to sign in to Portico (valid 15 minutes, once):\n\n${url}\n\nIf you did not ask for it, ignore this message.` });
}

/** A same-origin path to go to after sign-in (`/app` and below only), else `/app`: never another host. */
export function safeAppPath(value: unknown): string {
  return typeof value === "string" && value.length <= 512 && /^\/app(\/[A-Za-z0-9._~\-/]*)?(\?[A-Za-z0-9._~\-=&%]*)?$/.test(value) && !value.includes("//") ? value : "/app";
}

/** Links in a message's text (the dev outbox's `links`). */
function linksIn(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
}

/** The portal a token route names (`portal` slug) with the caller's right to manage its tokens. */
async function tokenPortal(c: Context<AppEnv>, p: Principal, slug: unknown, write: boolean): Promise<{ portal: PortalRow; role: Role | "token" | "admin" }> {
  if (typeof slug !== "string" || !slug) throw new ApiError(400, "invalid-portal", "portal must name a portal slug", { field: "portal" });
  const portal = await findPortalBySlug(getDb(c.env.DB), slug);
  if (!portal) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  if (p.kind === "admin") return { portal, role: "admin" };
  if (p.kind === "token") {
    if (p.portal.id !== portal.id) throw new ApiError(404, "not-found", `no portal "${slug}"`);
    if (!p.token.scopes.includes("manage")) throw new ApiError(403, "scope-required", "managing tokens needs a token with the scope manage", { scope: "manage" });
    return { portal, role: "token" };
  }
  const member = portal.organisationId === null || !sessionReaches(p.writer, portal.organisationId) ? undefined : await roleAndOrgIn(c.env.DB, portal.organisationId, p.writer.id);
  if (!member) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  const { role } = member;
  requireSsoSession(p.writer, member.org, role);
  if (!roleAllows(role, write ? "tokens.manage" : "tokens.read")) throw new ApiError(403, "role-required", `tokens need the role owner, admin or editor; you are ${role}`, { roles: ["owner", "admin", "editor"], role });
  return { portal, role };
}

/** Creates a portal owned by `org` and audits it; the answer of `POST /v1/orgs/{org}/portals`. */
export async function createOrgPortal(c: Context<AppEnv>, principal: Principal, org: OrgRow, body: Record<string, unknown>) {
  const slug = body.slug;
  if (typeof slug !== "string" || !SLUG.test(slug) || RESERVED_SLUGS.has(slug)) {
    throw new ApiError(400, "invalid-slug", "slug must be 3-48 lower-case letters, digits and inner dashes, and not reserved", { field: "slug" });
  }
  const name = requireName(body.name);
  const db = getDb(c.env.DB);
  if (await findPortalBySlug(db, slug)) throw new ApiError(409, "slug-taken", `portal slug "${slug}" is taken`, { field: "slug" });
  let created;
  try {
    created = await createPortal(db, slug, name, new Date(), { organisationId: org.id, plan: org.plan, trialEndsAt: org.trialEndsAt });
  } catch (error) {
    if (String(error).includes("UNIQUE")) throw new ApiError(409, "slug-taken", `portal slug "${slug}" is taken`, { field: "slug" }, { cause: error });
    throw error;
  }
  await c.env.DB.prepare("INSERT INTO organisation_portals (organisation_id, portal_id) VALUES (?, ?) ON CONFLICT DO NOTHING").bind(org.id, created.portal.id).run();
  await recordAudit(c.env.DB, actorOf(principal), { organisationId: org.id, portalId: created.portal.id, action: "portal.create", target: slug });
  return { portal: { ...portalView(created.portal), org: org.slug }, token: created.token };
}

export const workspaceRoutes = new Hono<AppEnv>()
  // ---- writers' sign-in
  .post("/v1/auth/magic-link", async (c) => {
    const body = await readJsonObject(c.req.raw, 4096);
    const email = requireEmail(body.email);
    const returnTo = safeAppPath(body.returnTo);
    await sendMagicLink(c, email, returnTo);
    // Always 202: whether the address has an account is not revealed.
    return c.json({ sent: true, to: email }, 202);
  })
  .get("/v1/auth/verify", async (c) => {
    const token = c.req.query("token") ?? "";
    c.header("cache-control", "private, no-store");
    const used = token && token.length < 100 ? await consumeWriterMagicLink(c.env.DB, await sha256(token), Date.now()) : undefined;
    if (!used) {
      return c.html(`<!doctype html><meta charset="utf-8"><title>Link expired · Portico</title><main><h1>This sign-in link cannot be used</h1><p>It was used already or is older than 15 minutes. <a href="/app/signin">Ask for a new one</a>.</p></main>`, 400);
    }
    const writer = await findOrCreateWriter(c.env.DB, used.email);
    // Organisations that require single sign-on refuse this session (worker/workspace/sso.ts). When every one of
    // the writer's organisations does, the link itself is refused, naming where to sign in instead.
    const orgs = await organisationsOf(c.env.DB, writer.id);
    const refusing = orgs.filter((o) => ssoRefuses({}, o, o.role));
    if (orgs.length && refusing.length === orgs.length) {
      const items = refusing.map((o) => `<li>${htmlEscape(o.name)}: <a href="${ssoLoginPath(o.slug)}">${ssoLoginPath(o.slug)}</a></li>`).join("");
      return c.html(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Single sign-on required · Portico</title><link rel="stylesheet" href="/portico.css"><link rel="stylesheet" href="/app.css"><body class="app"><main class="app-main"><h1>Sign in through single sign-on</h1><p>Your organisation requires its writers to sign in through its identity provider, not with an e-mail link:</p><ul>${items}</ul><p>Or use “Continue with SSO” on <a href="/app/signin">the sign-in page</a>.</p></main></body></html>`, 403);
    }
    await startWriterSession(c, writer);
    // An owner's e-mail sign-in to an organisation that requires SSO is its break-glass path: recorded.
    for (const o of orgs) {
      if (o.role === "owner" && o.writerSsoRequired && ssoRefuses({}, o, "admin")) {
        await recordAudit(c.env.DB, { kind: "writer", email: writer.email }, { organisationId: o.id, portalId: null, action: "sso.break-glass", target: o.slug });
      }
    }
    return c.redirect(safeAppPath(used.returnTo), 303);
  })
  .get("/v1/auth/session", async (c) => {
    const s = await sessionWriter(c);
    if (!s) throw new ApiError(401, "unauthorized", "not signed in");
    const orgs = (await organisationsOf(c.env.DB, s.writer.id)).filter((o) => sessionReaches(s.writer, o.id));
    return c.json({ writer: { email: s.writer.email }, ...(s.writer.ssoOrganisationId ? { sso: true } : {}), orgs: orgs.map((o) => ({ ...orgView(o), role: o.role })) });
  })
  .post("/v1/auth/signout", async (c) => {
    const p = await principalOf(c);
    if (p.kind !== "writer") throw new ApiError(400, "not-a-session", "sign-out ends a writer's cookie session");
    const everywhere = c.req.query("everywhere") === "1" || c.req.query("everywhere") === "true";
    await deleteWriterSessions(c.env.DB, everywhere ? { writerId: p.writer.id } : { tokenHash: p.sessionHash });
    clearWriterCookie(c);
    return c.json({ signedOut: everywhere ? "everywhere" : "this session" });
  })
  // ---- the dev outbox (local runs only)
  .get("/dev/outbox", async (c) => {
    if (!isLocalRun(c.env) || mailerFor(c.env).kind !== "outbox") return c.text("Not found", 404);
    const to = (c.req.query("to") ?? "").trim();
    if (!to || to.length > 320) return c.text("Give ?to=<email>", 400);
    const messages = await listOutboxTo(c.env.DB, to);
    c.header("cache-control", "private, no-store");
    const items = messages.map((m) => ({ to: m.to, subject: m.subject, text: m.text, links: linksIn(m.text), createdAt: m.createdAt }));
    if (c.req.query("format") === "json") return c.json(items);
    const html = items.map((m) => `<article><h2>${htmlEscape(m.subject)}</h2><p><small>To ${htmlEscape(m.to)} · ${htmlEscape(m.createdAt)}</small></p><pre>${htmlEscape(m.text)}</pre>${m.links.map((l) => `<p><a href="${htmlEscape(l)}">${htmlEscape(l)}</a></p>`).join("")}</article>`).join("<hr>");
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>Outbox · ${htmlEscape(to)}</title></head><body><main><h1>Dev outbox: ${htmlEscape(to)}</h1>${html || "<p>No messages.</p>"}</main></body></html>`);
  })
  // ---- organisations
  .post("/v1/orgs", async (c) => {
    const p = await principalOf(c);
    if (p.kind !== "writer") throw new ApiError(403, "forbidden", "organisations are made by a signed-in writer, who becomes their owner");
    if (p.writer.ssoOrganisationId) throw new ApiError(403, "sso-session", "a session opened by an organisation's single sign-on reaches that organisation only; sign in by e-mail to make another");
    const body = await readJsonObject(c.req.raw, 4096);
    const name = requireName(body.name);
    let slug = body.slug === undefined ? slugFrom(name) : String(body.slug);
    if (!SLUG.test(slug)) throw new ApiError(400, "invalid-slug", "slug must be 3-48 lower-case letters, digits and inner dashes", { field: "slug" });
    const now = new Date();
    const trialEndsAt = new Date(now.getTime() + TRIAL_DAYS * 86_400_000).toISOString();
    let org: OrgRow | undefined;
    for (let attempt = 0; !org; attempt++) {
      try {
        org = await createOrganisation(c.env.DB, { slug, name, ownerId: p.writer.id, trialEndsAt }, now);
      } catch (error) {
        if (!String(error).includes("UNIQUE")) throw error;
        if (body.slug !== undefined || attempt >= 3) throw new ApiError(409, "slug-taken", `organisation slug "${slug}" is taken`, { field: "slug" });
        slug = `${slugFrom(name).slice(0, 40)}-${randomSecret().slice(0, 5).toLowerCase().replace(/[^a-z0-9]/g, "x")}`;
      }
    }
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "org.create", target: org.slug });
    return c.json({ org: { ...orgView(org, now), role: "owner" } }, 201);
  })
  .get("/v1/orgs", async (c) => {
    const p = await principalOf(c);
    if (p.kind !== "writer") throw new ApiError(403, "forbidden", "lists the signed-in writer's organisations");
    const orgs = (await organisationsOf(c.env.DB, p.writer.id)).filter((o) => sessionReaches(p.writer, o.id));
    return c.json({ orgs: orgs.map((o) => ({ ...orgView(o), role: o.role })) });
  })
  .post("/v1/orgs/:org/portals", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "portal.create");
    const body = await readJsonObject(c.req.raw, 4096);
    return c.json(await createOrgPortal(c, p, org, body), 201);
  })
  .get("/v1/orgs/:org/portals", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "org.read");
    return c.json({ portals: (await portalsOfOrganisation(c.env.DB, org.id)).map((x) => ({ slug: x.slug, name: x.name, createdAt: x.createdAt })) });
  })
  .get("/v1/orgs/:org/members", async (c) => {
    const p = await principalOf(c);
    const { org, role } = await orgFor(c, p, c.req.param("org"), "members.read");
    const members = (await membersOf(c.env.DB, org.id)).map((m) => ({ id: m.writerId, email: m.email, role: m.role, since: m.since }));
    const invitations = roleAllows(role, "members.manage") ? (await pendingInvitations(c.env.DB, org.id, Date.now())).map((i) => ({ id: i.id, email: i.email, role: i.role, createdAt: i.createdAt, expiresAt: new Date(i.expiresAt).toISOString() })) : [];
    return c.json({ members, invitations });
  })
  .post("/v1/orgs/:org/members", async (c) => {
    const p = await principalOf(c);
    const { org, role: myRole } = await orgFor(c, p, c.req.param("org"), "members.manage");
    const body = await readJsonObject(c.req.raw, 4096);
    const email = requireEmail(body.email);
    const role = body.role ?? "viewer";
    if (!isRole(role)) throw new ApiError(400, "invalid-role", "role must be one of owner, admin, editor, viewer", { field: "role" });
    if (role === "owner" && myRole !== "owner") throw new ApiError(403, "role-required", "only an owner may invite an owner", { roles: ["owner"], role: myRole, field: "role" });
    const token = randomSecret();
    const id = await createInvitation(c.env.DB, { orgId: org.id, email, role, tokenHash: await sha256(token), invitedBy: p.kind === "writer" ? p.writer.id : null, expiresAt: Date.now() + INVITATION_TTL_MS });
    const by = p.kind === "writer" ? p.writer.email : "Portico";
    await mailerFor(c.env).send(null, { to: email, subject: `Join ${org.name} on Portico`, text: `${by} invites you to ${org.name} on Portico as ${role}.\n\nAccept (valid 7 days, once):\n\n${link(c, `/v1/invitations/accept?token=${encodeURIComponent(token)}`)}\n` });
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "member.invite", target: email, details: { role } });
    return c.json({ invitation: { id, email, role } }, 201);
  })
  .patch("/v1/orgs/:org/members/:member", async (c) => {
    const p = await principalOf(c);
    const { org, role: myRole } = await orgFor(c, p, c.req.param("org"), "members.manage");
    const body = await readJsonObject(c.req.raw, 4096);
    if (!isRole(body.role)) throw new ApiError(400, "invalid-role", "role must be one of owner, admin, editor, viewer", { field: "role" });
    const writerId = Number(c.req.param("member"));
    const current = Number.isInteger(writerId) ? await roleIn(c.env.DB, org.id, writerId) : undefined;
    if (!current) throw new ApiError(404, "not-found", "no such member");
    if ((current === "owner" || body.role === "owner") && myRole !== "owner") throw new ApiError(403, "role-required", "only an owner may make or unmake an owner", { roles: ["owner"], role: myRole });
    const outcome = await setMemberRole(c.env.DB, org.id, writerId, body.role);
    if (outcome === "last-owner") throw new ApiError(409, "last-owner", "the organisation's last owner cannot step down; make another member owner first");
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "member.role", target: String(writerId), details: { from: current, to: body.role } });
    return c.json({ member: { id: writerId, role: body.role } });
  })
  .delete("/v1/orgs/:org/members/:member", async (c) => {
    const p = await principalOf(c);
    const writerId = Number(c.req.param("member"));
    // Anyone may leave; removing someone else takes members.manage (and an owner to remove an owner).
    const self = p.kind === "writer" && p.writer.id === writerId;
    const { org, role: myRole } = await orgFor(c, p, c.req.param("org"), self ? "org.read" : "members.manage");
    const current = Number.isInteger(writerId) ? await roleIn(c.env.DB, org.id, writerId) : undefined;
    if (!current) throw new ApiError(404, "not-found", "no such member");
    if (!self && current === "owner" && myRole !== "owner") throw new ApiError(403, "role-required", "only an owner may remove an owner", { roles: ["owner"], role: myRole });
    const outcome = await removeMember(c.env.DB, org.id, writerId);
    if (outcome === "last-owner") throw new ApiError(409, "last-owner", "the organisation's last owner cannot leave; make another member owner first");
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: self ? "member.leave" : "member.remove", target: String(writerId) });
    return c.body(null, 204);
  })
  .delete("/v1/orgs/:org/invitations/:id", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "members.manage");
    const id = Number(c.req.param("id"));
    const revoked = Number.isInteger(id) ? await revokeInvitation(c.env.DB, org.id, id) : undefined;
    if (!revoked) throw new ApiError(404, "not-found", "no such pending invitation");
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "member.uninvite", target: revoked.email, details: { role: revoked.role } });
    return c.body(null, 204);
  })
  .get("/v1/invitations/accept", async (c) => {
    const token = c.req.query("token") ?? "";
    c.header("cache-control", "private, no-store");
    const accepted = token && token.length < 100 ? await acceptInvitation(c.env.DB, await sha256(token)) : undefined;
    if (!accepted) return c.html(`<!doctype html><meta charset="utf-8"><title>Invitation · Portico</title><main><h1>This invitation cannot be used</h1><p>It was accepted already or has expired; ask for a new one.</p></main>`, 400);
    await recordAudit(c.env.DB, { kind: "writer", email: accepted.writer.email }, { organisationId: accepted.org.id, portalId: null, action: "member.join", target: accepted.writer.email, details: { role: accepted.role } });
    // The link reached the invited address: it signs its owner in.
    await startWriterSession(c, accepted.writer);
    return c.redirect(`/app/orgs/${accepted.org.slug}`, 303);
  })
  // ---- tokens
  .post("/v1/tokens", async (c) => {
    const p = await principalOf(c);
    const body = await readJsonObject(c.req.raw, 4096);
    const { portal, role } = await tokenPortal(c, p, body.portal, true);
    const name = requireName(body.name);
    const scopes = body.scopes;
    if (!Array.isArray(scopes) || scopes.length === 0 || !scopes.every(isScope)) throw new ApiError(400, "invalid-scopes", `scopes must be a non-empty array of ${SCOPES.join(", ")}`, { field: "scopes" });
    if (role !== "admin" && role !== "token" && !scopes.every((s) => scopesGrantable(role).includes(s))) {
      throw new ApiError(403, "role-required", `as ${role} you may grant ${scopesGrantable(role).join(", ")}`, { role, field: "scopes" });
    }
    let expiresAt: string | null = null;
    if (body.expiresAt !== undefined && body.expiresAt !== null) {
      const ms = typeof body.expiresAt === "string" ? Date.parse(body.expiresAt) : NaN;
      if (!Number.isFinite(ms) || ms <= Date.now()) throw new ApiError(400, "invalid-expiry", "expiresAt must be an ISO 8601 instant in the future", { field: "expiresAt" });
      expiresAt = new Date(ms).toISOString();
    }
    const token = generateToken();
    const view = await insertScopedToken(c.env.DB, { portalId: portal.id, tokenHash: await sha256(token), name, scopes: [...new Set(scopes)], expiresAt, createdBy: p.kind === "writer" ? p.writer.id : null });
    await recordAudit(c.env.DB, actorOf(p), { organisationId: portal.organisationId, portalId: portal.id, action: "token.create", target: name, details: { id: view.id, scopes: view.scopes, expiresAt } });
    // The token in clear exists only in this answer.
    return c.json({ ...view, token }, 201);
  })
  .get("/v1/tokens", async (c) => {
    const p = await principalOf(c);
    const { portal } = await tokenPortal(c, p, c.req.query("portal"), false);
    return c.json({ tokens: await tokensOfPortal(c.env.DB, portal.id) });
  })
  .delete("/v1/tokens/:id", async (c) => {
    const p = await principalOf(c);
    const id = Number(c.req.param("id"));
    const found = Number.isInteger(id) ? await findTokenById(c.env.DB, id) : undefined;
    if (!found) throw new ApiError(404, "not-found", "no such token");
    const { portal } = await tokenPortal(c, p, found.portal, true);
    await deleteToken(c.env.DB, id);
    await recordAudit(c.env.DB, actorOf(p), { organisationId: portal.organisationId, portalId: portal.id, action: "token.revoke", target: found.name, details: { id } });
    return c.body(null, 204);
  })
  // ---- audit log
  .get("/v1/audit", async (c) => {
    const p = await principalOf(c);
    let slug = c.req.query("org");
    if (!slug && p.kind === "writer") {
      const mine = (await organisationsOf(c.env.DB, p.writer.id)).filter((o) => sessionReaches(p.writer, o.id));
      if (mine.length === 1) slug = mine[0]!.slug;
    }
    if (!slug) throw new ApiError(400, "invalid-org", "name the organisation: ?org=<id>", { field: "org" });
    const { org } = await orgFor(c, p, slug, "audit.read");
    const from = c.req.query("from") ?? "0000";
    const to = c.req.query("to") ?? "9999";
    for (const [k, v] of [["from", from], ["to", to]] as const) {
      if (v !== "0000" && v !== "9999" && !Number.isFinite(Date.parse(v))) throw new ApiError(400, "invalid-range", `${k} must be an ISO 8601 date or instant`, { field: k });
    }
    const entries = await listAudit(c.env.DB, org.id, { from: from.length === 4 ? from : new Date(Date.parse(from)).toISOString(), to: to.length === 4 ? to : new Date(Date.parse(to)).toISOString(), limit: MAX_AUDIT });
    if (c.req.query("format") === "csv") {
      requireFeature(org, "audit-export");
      const cell = (v: unknown) => `"${String(v ?? "").replace(/"/g, '""')}"`;
      const rows = entries.map((e) => [e.at, e.actorType, e.actor, e.tokenId, e.action, e.target, e.portal, e.details ? JSON.stringify(e.details) : ""].map(cell).join(","));
      c.header("content-disposition", `attachment; filename="audit-${org.slug}.csv"`);
      return c.body(["at,actorType,actor,tokenId,action,target,portal,details", ...rows].join("\r\n") + "\r\n", 200, { "content-type": "text/csv; charset=utf-8" });
    }
    return c.json({ org: org.slug, entries });
  })
  // ---- plan and usage
  .get("/v1/orgs/:org/usage", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "usage.read");
    return c.json({ org: orgView(org), credits: await creditsOf(c.env, org) });
  })
  // ---- the service admin: an organisation for existing portals (the demo's), and the plan override (local runs set
  // plans this way; billing moves them in production)
  .post("/v1/admin/orgs", async (c) => {
    const p = await principalOf(c);
    if (p.kind !== "admin") throw new ApiError(403, "forbidden", "this endpoint needs the admin token");
    const body = await readJsonObject(c.req.raw, 16 * 1024);
    const name = requireName(body.name);
    const slug = String(body.slug ?? "");
    if (!SLUG.test(slug)) throw new ApiError(400, "invalid-slug", "slug must be 3-48 lower-case letters, digits and inner dashes", { field: "slug" });
    const owner = await findOrCreateWriter(c.env.DB, requireEmail(body.owner, "owner"));
    const slugs = Array.isArray(body.portals) ? body.portals.filter((x): x is string => typeof x === "string").slice(0, 50) : [];
    const found: PortalRow[] = [];
    for (const s of slugs) {
      const portal = await findPortalBySlug(getDb(c.env.DB), s);
      if (!portal) throw new ApiError(400, "unknown-portals", `no portal ${s}`, { field: "portals" });
      found.push(portal);
    }
    let org = await findOrganisation(c.env.DB, slug);
    const created = !org;
    if (!org) org = await createOrganisation(c.env.DB, { slug, name, ownerId: owner.id, trialEndsAt: new Date(Date.now() + TRIAL_DAYS * 86_400_000).toISOString() });
    else await c.env.DB.prepare("INSERT INTO memberships (organisation_id, writer_id, role, created_at) VALUES (?, ?, 'owner', ?) ON CONFLICT DO NOTHING").bind(org.id, owner.id, new Date().toISOString()).run();
    for (const portal of found) await adoptPortal(c.env.DB, org.id, portal.id);
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: created ? "org.create" : "org.adopt", target: slug, details: { owner: owner.email, portals: slugs } });
    return c.json({ org: orgView(org) }, created ? 201 : 200);
  })
  .patch("/v1/admin/orgs/:org", async (c) => {
    const p = await principalOf(c);
    if (p.kind !== "admin") throw new ApiError(403, "forbidden", "this endpoint needs the admin token");
    const { org } = await orgFor(c, p, c.req.param("org"), "billing.manage");
    const body = await readJsonObject(c.req.raw, 4096);
    const unknown = Object.keys(body).filter((k) => !["plan", "trialEndsAt", "creditsRemaining"].includes(k));
    if (unknown.length) throw new ApiError(400, "invalid-patch", `unknown field(s): ${unknown.join(", ")}; known: plan, trialEndsAt, creditsRemaining`);
    const patch: { plan?: string; trialEndsAt?: string | null } = {};
    if (body.plan !== undefined) {
      if (typeof body.plan !== "string" || !(PLANS as readonly string[]).includes(body.plan)) throw new ApiError(400, "invalid-plan", `plan must be one of ${PLANS.join(", ")}`, { field: "plan" });
      patch.plan = body.plan;
    }
    if (body.trialEndsAt !== undefined) {
      if (body.trialEndsAt !== null && (typeof body.trialEndsAt !== "string" || !Number.isFinite(Date.parse(body.trialEndsAt)))) throw new ApiError(400, "invalid-trial-end", "trialEndsAt must be an ISO 8601 instant or null", { field: "trialEndsAt" });
      patch.trialEndsAt = body.trialEndsAt === null ? null : new Date(Date.parse(body.trialEndsAt)).toISOString();
    }
    if (body.creditsRemaining !== undefined && (typeof body.creditsRemaining !== "number" || !Number.isInteger(body.creditsRemaining) || body.creditsRemaining < 0 || body.creditsRemaining > 10_000_000)) {
      throw new ApiError(400, "invalid-credits", "creditsRemaining must be a whole number from 0", { field: "creditsRemaining" });
    }
    const updated = Object.keys(patch).length ? await updateOrganisationPlan(c.env.DB, org.id, patch) : org;
    if (typeof body.creditsRemaining === "number") await setCredits(c.env, updated, body.creditsRemaining);
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "org.plan", target: org.slug, details: body });
    return c.json({ org: orgView(updated), credits: await creditsOf(c.env, updated) });
  })
  // ---- billing (worker/workspace/billing.ts): 503 billing-off without Stripe settings
  .post("/v1/orgs/:org/billing/checkout", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "billing.manage");
    const body = await readJsonObject(c.req.raw, 4096);
    if (typeof body.plan !== "string" || !(PAID_PLANS as readonly string[]).includes(body.plan)) throw new ApiError(400, "invalid-plan", `plan must be one of ${PAID_PLANS.join(", ")}`, { field: "plan" });
    const url = await billingFor(c.env).checkout(org, body.plan as PaidPlan, link(c, `/app/orgs/${org.slug}`));
    await recordAudit(c.env.DB, actorOf(p), { organisationId: org.id, portalId: null, action: "billing.checkout", target: org.slug, details: { plan: body.plan } });
    return c.json({ url });
  })
  .post("/v1/orgs/:org/billing/portal", async (c) => {
    const p = await principalOf(c);
    const { org } = await orgFor(c, p, c.req.param("org"), "billing.manage");
    return c.json({ url: await billingFor(c.env).portal(org, link(c, `/app/orgs/${org.slug}`)) });
  })
  .post("/v1/billing/stripe/webhook", async (c) => {
    const billing = billingFor(c.env);
    const body = new TextDecoder().decode(await readBodyLimited(c.req.raw, 256 * 1024));
    const event = await billing.verify(body, c.req.header("stripe-signature"));
    if (await stripeEventSeen(c.env.DB, event.id)) return c.json({ received: true, duplicate: true });
    const move = planMoveOf(c.env, event);
    let moved: string | undefined;
    if (move.kind === "subscribe") {
      const org = await findOrganisation(c.env.DB, move.org);
      if (org) {
        await updateOrganisationPlan(c.env.DB, org.id, { plan: move.plan, trialEndsAt: null, ...(move.customer ? { stripeCustomerId: move.customer } : {}), ...(move.subscription ? { stripeSubscriptionId: move.subscription } : {}) });
        await recordAudit(c.env.DB, { kind: "billing" }, { organisationId: org.id, portalId: null, action: "org.plan", target: org.slug, details: { plan: move.plan, event: event.id } });
        moved = move.plan;
      }
    } else if (move.kind === "update") {
      const org = await findOrganisationByCustomer(c.env.DB, move.customer);
      if (org) {
        // A cancelled or unpaid subscription ends like a trial: publishing stops, readers stay 30 days, nothing is lost.
        const patch = move.active ? { plan: move.plan ?? normalisePlan(org.plan), trialEndsAt: null } : { plan: "trial", trialEndsAt: new Date().toISOString(), stripeSubscriptionId: null };
        await updateOrganisationPlan(c.env.DB, org.id, patch);
        await recordAudit(c.env.DB, { kind: "billing" }, { organisationId: org.id, portalId: null, action: "org.plan", target: org.slug, details: { plan: patch.plan, event: event.id, active: move.active } });
        moved = patch.plan;
      }
    }
    await recordStripeEvent(c.env.DB, event.id, event.type);
    return c.json({ received: true, ...(moved ? { plan: moved } : { ignored: true }) });
  })
  .onError((error, c) => {
    // The same JSON problems as the app's handler, so in-process calls (the dashboard) read them too.
    if (error instanceof ApiError) return c.json(error.toBody(), error.status);
    throw error;
  });
