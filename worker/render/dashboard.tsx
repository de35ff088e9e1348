/**
 * @module The dashboard's pages (`/app`, issue 32): server-rendered Preact in the portal's design system
 * (portico.css's tokens, plus app.css for the dashboard's layout). No script: every form posts to `/app/...`, which
 * calls the service API and renders the page again with what is wrong next to the field. Controls a member's role
 * or the plan does not allow are not shown (worker/workspace/roles.ts, `can(org, feature)`).
 */
import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";
import { AdminHead } from "./components/admin-document";

/** Dashboard stylesheet (client/static/app.css), on top of portico.css. */
export const APP_CSS = "/app.css";

/** A form's state: the values sent back and a message per field (or `_` for the form as a whole). */
export interface FormState {
  values?: Record<string, string>;
  errors?: Record<string, string>;
}

/** A dashboard page: the top bar (crumbs, the writer, sign-out) and `main`; `script` adds one module script. */
export function Page(props: { title: string; email?: string; children: ComponentChildren; crumbs?: Array<{ href: string; label: string }>; script?: string; mainData?: Record<string, string> }) {
  return (
    <html lang="en">
      <AdminHead title={`${props.title} · Portico`} stylesheets={[APP_CSS]} />
      <body class="app">
        <header class="top">
          <a class="brand" href="/app">Portico</a>
          {props.crumbs?.map((c) => <span class="crumb">/ <a href={c.href}>{c.label}</a></span>)}
          {props.email ? (
            <form class="account" method="post" action="/app/signout">
              <span class="who">{props.email}</span> <button type="submit">Sign out</button>
            </form>
          ) : null}
        </header>
        <main id="main" class="app-main" {...(props.mainData ? Object.fromEntries(Object.entries(props.mainData).map(([k, v]) => [`data-${k}`, v])) : {})}>{props.children}</main>
        {props.script ? <script type="module" src={props.script} /> : null}
      </body>
    </html>
  );
}

/** The HTML document of a page. */
export function doc(node: preact.VNode): string {
  return "<!doctype html>\n" + renderToString(node);
}

/** A labelled input with its hint and the message of what is wrong with it (`form.errors[name]`). */
export function Field(props: { name: string; label: string; form?: FormState; type?: "text" | "email" | "date" | "password" | "color"; required?: boolean; placeholder?: string; hint?: string }) {
  const error = props.form?.errors?.[props.name];
  const id = `f-${props.name}`;
  return (
    <p class={error ? "field invalid" : "field"}>
      <label for={id}>{props.label}</label>
      <input {...({ id, name: props.name, type: props.type ?? "text", value: props.form?.values?.[props.name] ?? "", required: props.required, placeholder: props.placeholder, "aria-invalid": error ? "true" : undefined, "aria-describedby": error ? `${id}-error` : undefined } as Record<string, unknown>)} />
      {props.hint ? <small class="hint">{props.hint}</small> : null}
      {error ? <small id={`${id}-error`} class="notice-error" role="alert">{error}</small> : null}
    </p>
  );
}

/** The message of a form as a whole (`form.errors._`). */
export function FormError({ form }: { form?: FormState }) {
  const e = form?.errors?._;
  return e ? <p class="notice-error" role="alert">{e}</p> : null;
}

/** The sign-in page: e-mail → magic link. `sent` shows the "check your mail" notice (and the dev outbox locally). */
export function renderSignIn(props: { form?: FormState; sent?: string; outbox?: string; ssoForm?: FormState }): string {
  return doc(
    <Page title="Sign in">
      <section class="panel narrow">
        <h1>Sign in to Portico</h1>
        {props.sent ? (
          <div class="notice" role="status">
            <p>We sent a sign-in link to <strong>{props.sent}</strong>. It works once, for 15 minutes.</p>
            {props.outbox ? <p>Running locally: read it in the <a href={props.outbox}>dev outbox</a>.</p> : null}
          </div>
        ) : null}
        <form method="post" action="/app/signin" novalidate>
          <FormError form={props.form} />
          <Field name="email" label="Work e-mail" type="email" required form={props.form} placeholder="you@company.com" />
          <button type="submit">Send me a sign-in link</button>
        </form>
        <p class="muted">New here? The same link creates your account; your first organisation starts a 14-day trial of everything in Pro, no card needed.</p>
        <form method="post" action="/app/signin/sso" novalidate class="inline-form" id="sso">
          <h2>Single sign-on</h2>
          <FormError form={props.ssoForm} />
          <Field name="org" label="Organisation ID" required form={props.ssoForm} placeholder="acme" hint="Your organisation signs you in through its identity provider (Enterprise)." />
          <button type="submit" class="secondary">Continue with SSO</button>
        </form>
      </section>
    </Page>,
  );
}

/** One organisation in the list. */
export interface OrgItem {
  id: string;
  name: string;
  plan: string;
  status: string;
  role: string;
  trialDaysLeft?: number;
}

/** `/app`: the writer's organisations and a form for a new one. */
export function renderHome(props: { email: string; orgs: OrgItem[]; form?: FormState }): string {
  return doc(
    <Page title="Organisations" email={props.email}>
      <h1>Your organisations</h1>
      {props.orgs.length ? (
        <ul class="cards">
          {props.orgs.map((o) => (
            <li class="card">
              <a href={`/app/orgs/${o.id}`}><strong>{o.name}</strong></a>
              <span class="muted"> · {o.role}</span>
              <PlanBadge plan={o.plan} status={o.status} {...(o.trialDaysLeft !== undefined ? { daysLeft: o.trialDaysLeft } : {})} />
            </li>
          ))}
        </ul>
      ) : <p>You are not in any organisation yet. Make one, or ask a colleague to invite you.</p>}
      <section class="panel">
        <h2>New organisation</h2>
        <form method="post" action="/app/orgs" novalidate>
          <FormError form={props.form} />
          <Field name="name" label="Name" required form={props.form} placeholder="Acme Inc." />
          <button type="submit">Create organisation</button>
        </form>
      </section>
    </Page>,
  );
}

function PlanBadge(props: { plan: string; status: string; daysLeft?: number }) {
  const text =
    props.status === "trialing" ? `Trial · ${props.daysLeft} day${props.daysLeft === 1 ? "" : "s"} left`
    : props.status === "trial-ended" ? "Trial ended"
    : props.status === "paused" ? "Paused"
    : props.plan[0]!.toUpperCase() + props.plan.slice(1);
  return <span class={`badge plan-${props.status}`}>{text}</span>;
}

/** Everything the organisation page shows. */
export interface OrgPageProps {
  email: string;
  org: { id: string; name: string; plan: string; status: string; trialEndsAt: string | null; trialDaysLeft?: number; readersUntil?: string };
  role: string;
  may: { createPortal: boolean; manageMembers: boolean; audit: boolean; billing: boolean };
  portals: Array<{ slug: string; name: string; createdAt: string }>;
  members: Array<{ id: number; email: string; role: string }>;
  invitations: Array<{ id: number; email: string; role: string }>;
  /** The outcome of a member action (role change, removal, revoked invitation): a refusal such as the last owner's 409. */
  memberNotice?: { ok: boolean; message: string };
  /** Writers' SAML SSO (Enterprise): shown to owners and admins. */
  sso?: SsoPanelProps;
  credits: { remaining: number; used: number; grant: number; period: string; daily: Array<{ day: string; used: number }> };
  audit?: Array<{ at: string; actor: string; actorType: string; action: string; target: string | null; portal: string | null }>;
  features: Array<{ feature: string; plan: string; included: boolean }>;
  portalForm?: FormState;
  memberForm?: FormState;
  billing?: { url?: string; message?: string; enabled: boolean };
}

/** `/app/orgs/{org}`: plan and usage, portals, members, audit. */
export function renderOrgPage(p: OrgPageProps): string {
  const maxDay = Math.max(1, ...p.credits.daily.map((d) => d.used));
  return doc(
    <Page title={p.org.name} email={p.email} crumbs={[{ href: `/app/orgs/${p.org.id}`, label: p.org.name }]}>
      <h1>{p.org.name} <PlanBadge plan={p.org.plan} status={p.org.status} {...(p.org.trialDaysLeft !== undefined ? { daysLeft: p.org.trialDaysLeft } : {})} /></h1>
      {p.org.status === "trial-ended" ? (
        <p class="notice notice-warn" role="alert">
          The trial ended on {p.org.trialEndsAt?.slice(0, 10)}. Publishing is stopped (uploads answer 402 <code>trial-ended</code>); reader pages stay up until {p.org.readersUntil?.slice(0, 10)}. Nothing is lost: choosing a plan restores everything at once.
        </p>
      ) : null}
      {p.org.status === "paused" ? <p class="notice notice-warn" role="alert">The trial ended more than 30 days ago: reader pages are paused. Choose a plan to bring them back, with everything as it was.</p> : null}

      <section class="panel" id="portals">
        <h2>Portals</h2>
        {p.portals.length ? (
          <ul class="cards">
            {p.portals.map((x) => <li class="card"><a href={`/app/orgs/${p.org.id}/portals/${x.slug}`}><strong>{x.name}</strong></a> <code>{x.slug}</code> · <a href={`/p/${x.slug}/`}>reader site</a></li>)}
          </ul>
        ) : <p>No portal yet.</p>}
        {p.may.createPortal ? (
          <form method="post" action={`/app/orgs/${p.org.id}/portals`} novalidate class="inline-form">
            <h3>New portal</h3>
            <FormError form={p.portalForm} />
            <Field name="name" label="Name" required form={p.portalForm} placeholder="Acme API docs" />
            <Field name="slug" label="Address" required form={p.portalForm} placeholder="acme" hint="Lower-case letters, digits and dashes: /p/acme/ until you add a custom domain." />
            <p class="field"><label><input type="checkbox" name="sample" value="1" checked={p.portalForm?.values?.sample !== "0"} /> Start from a sample (the demo API and guides)</label></p>
            <button type="submit">Create portal</button>
          </form>
        ) : null}
      </section>

      <section class="panel" id="plan">
        <h2>Plan and usage</h2>
        <p>AI credits this month ({p.credits.period}): <strong>{p.credits.used}</strong> used, <strong>{p.credits.remaining}</strong> left of {p.credits.grant}. They renew on the 1st (UTC). An answer of the assistant costs 1 credit, an AI draft 5.</p>
        <meter min={0} max={Math.max(1, p.credits.grant)} value={p.credits.used} high={p.credits.grant * 0.8} aria-label="Credits used" />
        {p.credits.daily.length ? (
          <table class="usage" tabIndex={0}>
            <caption>Credits used per day</caption>
            <thead><tr><th scope="col">Day</th><th scope="col">Credits</th><th scope="col"><span class="sr">Bar</span></th></tr></thead>
            <tbody>{p.credits.daily.map((d) => <tr><td>{d.day}</td><td class="ta-right">{d.used}</td><td><span class={`bar w${Math.round((d.used / maxDay) * 10)}`} /></td></tr>)}</tbody>
          </table>
        ) : <p class="muted">No credits used this month.</p>}
        <details>
          <summary>What the {p.org.plan} plan includes</summary>
          <ul class="features">{p.features.map((f) => <li class={f.included ? "yes" : "no"}>{f.included ? "✓" : "✗"} {f.feature} <small class="muted">({f.plan})</small></li>)}</ul>
        </details>
        {p.may.billing ? (
          p.billing?.enabled ? (
            <div class="billing">
              {p.billing.url ? <p><a class="button" href={p.billing.url}>Continue to Stripe</a></p> : null}
              {p.billing.message ? <p class="notice-error" role="alert">{p.billing.message}</p> : null}
              <form method="post" action={`/app/orgs/${p.org.id}/billing/checkout`} class="inline-form">
                <label>Plan <select name="plan"><option value="starter">Starter</option><option value="pro" selected>Pro</option><option value="enterprise">Enterprise</option></select></label>
                <button type="submit">Subscribe</button>
              </form>
              <form method="post" action={`/app/orgs/${p.org.id}/billing/portal`} class="inline-form"><button type="submit">Change or cancel (Stripe)</button></form>
            </div>
          ) : <p class="muted">Billing is off on this server (no Stripe key): the service admin sets plans with <code>PATCH /v1/admin/orgs/{p.org.id}</code>.</p>
        ) : null}
      </section>

      <section class="panel" id="members">
        <h2>Members</h2>
        {p.memberNotice ? <p class={p.memberNotice.ok ? "notice" : "notice-error"} role={p.memberNotice.ok ? "status" : "alert"} id="member-notice">{p.memberNotice.message}</p> : null}
        <table class="members" tabIndex={0}>
          <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th>{p.may.manageMembers ? <th scope="col"><span class="sr">Actions</span></th> : null}</tr></thead>
          <tbody>{p.members.map((m) => {
            // Only an owner changes or removes an owner (the API says so too); the controls follow.
            const mayTouch = p.may.manageMembers && (m.role !== "owner" || p.role === "owner");
            const roles = ["viewer", "editor", "admin", ...(p.role === "owner" ? ["owner"] : [])];
            return (
              <tr>
                <td>{m.email}</td>
                <td>{m.role}</td>
                {p.may.manageMembers ? (
                  <td class="member-actions">
                    {mayTouch ? (
                      <>
                        <form method="post" action={`/app/orgs/${p.org.id}/members/${m.id}/role`} class="row-form">
                          <select name="role" aria-label={`Role of ${m.email}`}>{roles.map((r) => <option value={r} selected={r === m.role}>{r}</option>)}</select>
                          <button type="submit" class="secondary">Change role</button>
                        </form>
                        <form method="post" action={`/app/orgs/${p.org.id}/members/${m.id}/remove`} class="row-form">
                          <button type="submit" aria-label={`Remove ${m.email}`}>Remove</button>
                        </form>
                      </>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}</tbody>
        </table>
        {p.invitations.length ? (
          <table class="invitations" tabIndex={0}>
            <caption>Pending invitations</caption>
            <thead><tr><th scope="col">E-mail</th><th scope="col">Role</th>{p.may.manageMembers ? <th scope="col"><span class="sr">Revoke</span></th> : null}</tr></thead>
            <tbody>{p.invitations.map((i) => (
              <tr>
                <td>{i.email}</td><td>{i.role}</td>
                {p.may.manageMembers ? <td><form method="post" action={`/app/orgs/${p.org.id}/invitations/${i.id}/revoke`}><button type="submit" aria-label={`Revoke the invitation of ${i.email}`}>Revoke</button></form></td> : null}
              </tr>
            ))}</tbody>
          </table>
        ) : null}
        {p.may.manageMembers ? (
          <form method="post" action={`/app/orgs/${p.org.id}/members`} novalidate class="inline-form">
            <h3>Invite</h3>
            <FormError form={p.memberForm} />
            <Field name="email" label="E-mail" type="email" required form={p.memberForm} />
            <p class="field"><label for="f-role">Role</label>
              <select id="f-role" name="role">{["viewer", "editor", "admin", ...(p.role === "owner" ? ["owner"] : [])].map((r) => <option value={r} selected={p.memberForm?.values?.role === r}>{r}</option>)}</select>
              {p.memberForm?.errors?.role ? <small class="notice-error" role="alert">{p.memberForm.errors.role}</small> : null}
            </p>
            <button type="submit">Send invitation</button>
          </form>
        ) : null}
      </section>

      {p.sso ? <SsoPanel {...p.sso} org={p.org.id} /> : null}

      {p.audit ? (
        <section class="panel" id="audit">
          <h2>Audit log</h2>
          <p class="muted">Every change by a person or token, kept one year. <a href={`/v1/audit?org=${p.org.id}`}>JSON</a>{p.features.find((f) => f.feature === "audit-export")?.included ? <> · <a href={`/v1/audit?org=${p.org.id}&format=csv`}>CSV export</a></> : null}</p>
          <table tabIndex={0}>
            <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Target</th></tr></thead>
            <tbody>{p.audit.map((e) => <tr><td>{e.at.slice(0, 19).replace("T", " ")}</td><td>{e.actorType === "token" ? `token ${e.actor}` : e.actor}</td><td><code>{e.action}</code></td><td>{[e.portal, e.target].filter(Boolean).join(" · ")}</td></tr>)}</tbody>
          </table>
        </section>
      ) : null}
    </Page>,
  );
}

/** The organisation page's single sign-on panel. */
export interface SsoPanelProps {
  /** Whether the plan includes `saml` (Enterprise). */
  included: boolean;
  /** The IdP set, when there is one. */
  idp?: { entityId: string; ssoUrl: string; certificateFingerprints: string[]; updatedAt: string; defaultRole: string; roleAttribute: string; emailAttribute?: string };
  /** What to give the IdP. */
  sp: { entityId: string; acsUrl: string; loginUrl: string };
  form?: FormState;
  saved?: boolean;
  /** Whether writers must sign in through the IdP (owners keep the e-mail link), and the refusal of a change to it. */
  required: boolean;
  requiredForm?: FormState;
}

function SsoPanel(p: SsoPanelProps & { org: string }) {
  const values = p.form?.values ?? (p.idp ? { defaultRole: p.idp.defaultRole, roleAttribute: p.idp.roleAttribute, emailAttribute: p.idp.emailAttribute ?? "" } : {});
  const form: FormState = { values, ...(p.form?.errors ? { errors: p.form.errors } : {}) };
  const metadataError = p.form?.errors?.metadata;
  return (
    <section class="panel" id="sso">
      <h2>Single sign-on (SAML)</h2>
      {!p.included ? (
        <p class="muted">Writers' single sign-on through your identity provider is part of the Enterprise plan (<a href={`/app/orgs/${p.org}#plan`}>plan</a>).</p>
      ) : (
        <>
          <p>Give your identity provider this service provider: entity ID (and metadata) <code>{p.sp.entityId}</code>, assertion consumer service (HTTP-POST) <code>{p.sp.acsUrl}</code>. Writers then sign in at <a href={p.sp.loginUrl}>{p.sp.loginUrl}</a>; a session opened there reaches this organisation only.</p>
          {p.saved ? <p class="notice" role="status">Saved. Sessions opened by the previous identity provider were ended.</p> : null}
          {p.idp ? (
            <dl class="facts">
              <dt>Identity provider</dt><dd><code>{p.idp.entityId}</code></dd>
              <dt>Sign-in URL</dt><dd><code>{p.idp.ssoUrl}</code></dd>
              <dt>Certificate (SHA-256)</dt><dd>{p.idp.certificateFingerprints.map((f) => <code class="fingerprint">{f}</code>)}</dd>
              <dt>Updated</dt><dd>{p.idp.updatedAt.slice(0, 16).replace("T", " ")}</dd>
            </dl>
          ) : <p class="muted">Not set up yet.</p>}
          <form method="post" action={`/app/orgs/${p.org}/sso`} novalidate class="inline-form">
            <h3>{p.idp ? "Replace the identity provider" : "Set the identity provider"}</h3>
            <FormError form={p.form} />
            <p class={metadataError ? "field invalid" : "field"}>
              <label for="f-metadata">IdP metadata (XML)</label>
              <textarea {...({ id: "f-metadata", name: "metadata", rows: 6, required: true, "aria-invalid": metadataError ? "true" : undefined, "aria-describedby": metadataError ? "f-metadata-error" : undefined } as Record<string, unknown>)}>{p.form?.values?.metadata ?? ""}</textarea>
              {metadataError ? <small id="f-metadata-error" class="notice-error" role="alert">{metadataError}</small> : null}
            </p>
            <p class="field"><label for="f-defaultRole">Role of a new writer</label>
              <select id="f-defaultRole" name="defaultRole">{["viewer", "editor", "admin"].map((r) => <option value={r} selected={values.defaultRole === r}>{r}</option>)}</select>
              <small class="hint">Unless the role attribute names admin, editor or viewer. Owners are made here, never by the identity provider.</small>
            </p>
            <Field name="roleAttribute" label="Role attribute" form={form} placeholder="role" />
            <Field name="emailAttribute" label="E-mail attribute (optional)" form={form} placeholder="email" hint="Default: email, mail, the standard claim, or an e-mail NameID." />
            <button type="submit">Save single sign-on</button>
          </form>
          {p.idp ? (
            <form method="post" action={`/app/orgs/${p.org}/sso/required`} novalidate class="inline-form" id="sso-required">
              <h3>Require single sign-on</h3>
              <p class={p.requiredForm?.errors?.required ? "field invalid" : "field"}>
                <label class="check"><input type="checkbox" id="f-required" name="required" value="1" checked={p.required} aria-describedby="f-required-hint" /> Writers sign in only through the identity provider</label>
                <small id="f-required-hint" class="hint">E-mail links then stop opening this organisation for admins, editors and viewers (they are sent to {p.sp.loginUrl}). Owners keep the e-mail link as a break-glass path, should the identity provider fail; each such sign-in is in the audit log.</small>
                {p.requiredForm?.errors?.required ? <small id="f-required-error" class="notice-error" role="alert">{p.requiredForm.errors.required}</small> : null}
              </p>
              <button type="submit">Save requirement</button>
            </form>
          ) : null}
          {p.idp ? <form method="post" action={`/app/orgs/${p.org}/sso/delete`} class="inline-form"><button type="submit" class="secondary">Turn single sign-on off</button></form> : null}
        </>
      )}
    </section>
  );
}

/** The sections of a portal in the dashboard, in the order of its navigation. */
export const PORTAL_SECTIONS = [
  ["", "Overview"],
  ["versions", "Versions and lint"],
  ["content", "Content releases"],
  ["access", "Access"],
  ["branding", "Branding"],
  ["domain", "Domain"],
  ["git", "Git"],
  ["analytics", "Analytics"],
] as const;
/** One section of a portal's pages (`""` is the overview). */
export type PortalSection = (typeof PORTAL_SECTIONS)[number][0];

/** The navigation between a portal's pages, the current one marked. */
export function PortalNav({ org, portal, current }: { org: string; portal: string; current: PortalSection }) {
  const base = `/app/orgs/${org}/portals/${portal}`;
  return (
    <nav class="portal-nav" aria-label="Portal">
      <ul>{PORTAL_SECTIONS.map(([slug, label]) => <li><a href={slug ? `${base}/${slug}` : base} {...(slug === current ? { "aria-current": "page" } : {})}>{label}</a></li>)}</ul>
    </nav>
  );
}

/** Everything the portal page shows. */
export interface PortalPageProps {
  email: string;
  org: { id: string; name: string; status: string };
  portal: { slug: string; name: string };
  readerUrl: string;
  apiOrigin: string;
  apis: Array<{ slug: string; title: string; versions: number; live: string | null }>;
  tokens: Array<{ id: number; name: string; scopes: string[]; createdAt: string; lastUsedAt: string | null; expiresAt: string | null }>;
  mayTokens: boolean;
  grantable: readonly string[];
  created?: { token: string; name: string; scopes: string[] };
  sample?: { published: boolean; message?: string };
  tokenForm?: FormState;
}

/** `/app/orgs/{org}/portals/{portal}`: APIs, tokens (a fresh one shown once with the curl and CI snippets). */
export function renderPortalPage(p: PortalPageProps): string {
  const token = p.created?.token ?? "$PORTICO_TOKEN";
  const curl = `curl -X POST '${p.apiOrigin}/v1/apis/upload?api=my-api' \\\n  -H 'Authorization: Bearer ${token}' \\\n  -H 'Content-Type: application/yaml' \\\n  --data-binary @openapi.yaml`;
  const ci = `# .github/workflows/docs.yml\non: { push: { branches: [main] } }\njobs:\n  publish:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: >\n          curl --fail-with-body -X POST '${p.apiOrigin}/v1/apis/upload?api=my-api'\n          -H "Authorization: Bearer \${{ secrets.PORTICO_TOKEN }}"\n          -H 'Content-Type: application/yaml' --data-binary @openapi.yaml`;
  return doc(
    <Page title={p.portal.name} email={p.email} crumbs={[{ href: `/app/orgs/${p.org.id}`, label: p.org.name }, { href: `/app/orgs/${p.org.id}/portals/${p.portal.slug}`, label: p.portal.name }]}>
      <h1>{p.portal.name} <code>{p.portal.slug}</code></h1>
      <PortalNav org={p.org.id} portal={p.portal.slug} current="" />
      <p><a href={p.readerUrl}>Open the reader site</a> · <a href={`/p/${p.portal.slug}/admin/changelog`}>Changelog drafts</a> · <a href={`/p/${p.portal.slug}/editor`}>API editor</a></p>
      {p.org.status === "trial-ended" || p.org.status === "paused" ? <p class="notice notice-warn" role="alert">The organisation's trial ended: publishing answers 402 <code>trial-ended</code> until a plan is chosen (<a href={`/app/orgs/${p.org.id}#plan`}>plan</a>).</p> : null}
      {p.sample ? (p.sample.published ? <p class="notice" role="status">The sample is published: the demo API and its guides. Replace them with your own whenever you like.</p> : <p class="notice-error" role="alert">The sample could not be published: {p.sample.message}</p>) : null}
      {p.created ? (
        <section class="panel fresh-token" aria-labelledby="fresh">
          <h2 id="fresh">Your new token “{p.created.name}”</h2>
          <p>Copy it now: it is shown only once and stored only as a hash. Scopes: {p.created.scopes.join(", ")}.</p>
          <pre><code>{p.created.token}</code></pre>
          <h3>Publish with curl</h3>
          <pre><code>{curl}</code></pre>
          <h3>Publish from CI (GitHub Actions; store the token as the secret PORTICO_TOKEN)</h3>
          <pre><code>{ci}</code></pre>
        </section>
      ) : null}
      <section class="panel" id="apis">
        <h2>APIs</h2>
        {p.apis.length ? (
          <table tabIndex={0}>
            <thead><tr><th scope="col">API</th><th scope="col">Live version</th><th scope="col">Versions</th></tr></thead>
            <tbody>{p.apis.map((a) => <tr><td><a href={`/p/${p.portal.slug}/reference/${a.slug}/`}>{a.title}</a> <code>{a.slug}</code></td><td>{a.live ?? "—"}</td><td class="ta-right">{a.versions}</td></tr>)}</tbody>
          </table>
        ) : (
          <>
            <p>Nothing published yet. Publish your OpenAPI definition with a token:</p>
            <pre><code>{curl}</code></pre>
          </>
        )}
      </section>
      {p.mayTokens ? (
        <section class="panel" id="tokens">
          <h2>Tokens</h2>
          <table tabIndex={0}>
            <thead><tr><th scope="col">Name</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col"><span class="sr">Revoke</span></th></tr></thead>
            <tbody>{p.tokens.map((t) => (
              <tr>
                <td>{t.name}</td><td>{t.scopes.join(", ")}</td><td>{t.createdAt.slice(0, 10)}</td><td>{t.lastUsedAt ? t.lastUsedAt.slice(0, 16).replace("T", " ") : "never"}</td><td>{t.expiresAt ? t.expiresAt.slice(0, 10) : "never"}</td>
                <td><form method="post" action={`/app/orgs/${p.org.id}/portals/${p.portal.slug}/tokens/${t.id}/revoke`}><button type="submit">Revoke</button></form></td>
              </tr>
            ))}</tbody>
          </table>
          <form method="post" action={`/app/orgs/${p.org.id}/portals/${p.portal.slug}/tokens`} novalidate class="inline-form">
            <h3>New token</h3>
            <FormError form={p.tokenForm} />
            <Field name="name" label="Name" required form={p.tokenForm} placeholder="GitHub Actions" />
            <fieldset class={p.tokenForm?.errors?.scopes ? "field invalid" : "field"}>
              <legend>Scopes</legend>
              {p.grantable.map((s) => <label class="check"><input type="checkbox" name="scopes" value={s} checked={p.tokenForm?.values ? (p.tokenForm.values.scopes ?? "").split(",").includes(s) : s === "publish:apis"} /> {s}</label>)}
              {p.tokenForm?.errors?.scopes ? <small class="notice-error" role="alert">{p.tokenForm.errors.scopes}</small> : null}
            </fieldset>
            <Field name="expiresAt" label="Expires (optional)" type="date" form={p.tokenForm} />
            <button type="submit">Create token</button>
          </form>
        </section>
      ) : null}
    </Page>,
  );
}
