/**
 * @module A portal's pages in the dashboard (`/app/orgs/{org}/portals/{portal}/{section}`, issue 32): versions and
 * lint reports, content releases, access, branding, domain, Git and analytics. Server-rendered from the portal's
 * `/v1` API (read in-process as the signed-in writer); the forms are sent by client/entries/dashboard.ts to the same
 * API with the writer's session (`Portico-Portal` names the portal), which validates, authorises and audits; without
 * script they post to `/app/.../forms/{id}`, which makes the same call (worker/workspace/dashboard-forms.ts). Controls
 * the writer's role cannot use are not shown (viewers read only), nor those the plan lacks (the plan that has them is).
 */
import type { ComponentChildren } from "preact";
import { BASE_MARKER } from "../content/markers";
import { PORTAL_FORMS, inputId, sectionLines, type PortalFormId, type PortalFormSpec } from "../workspace/dashboard-forms";
import { Page, PortalNav, doc, type FormState, type PortalSection } from "./dashboard";

/** The dashboard's script (scripts/build-client.mjs bundles client/entries/dashboard.ts). */
export const DASHBOARD_SCRIPT = "/assets/dashboard.js";

/** What every portal page knows: who, where, and what the role allows. */
export interface PortalFrame {
  email: string;
  org: { id: string; name: string };
  portal: { slug: string; name: string };
  role: string;
  /** Owners and admins: settings (access, branding, domain). */
  mayManage: boolean;
}

function Frame(p: PortalFrame & { section: PortalSection; title: string; children: ComponentChildren; forms?: boolean }) {
  const base = `/app/orgs/${p.org.id}/portals/${p.portal.slug}`;
  return (
    <Page
      title={`${p.title} · ${p.portal.name}`}
      email={p.email}
      crumbs={[{ href: `/app/orgs/${p.org.id}`, label: p.org.name }, { href: base, label: p.portal.name }, { href: `${base}/${p.section}`, label: p.title }]}
      mainData={{ portal: p.portal.slug }}
      {...(p.forms ? { script: DASHBOARD_SCRIPT } : {})}
    >
      <h1>{p.title} <code>{p.portal.slug}</code></h1>
      <PortalNav org={p.org.id} portal={p.portal.slug} current={p.section} />
      {p.children}
    </Page>
  );
}

function ReadOnly({ role, what }: { role: string; what: string }) {
  return <p class="readonly-note">As {role} you read {what}; owners and admins change it.</p>;
}

const day = (iso: string | null | undefined) => (iso ? iso.slice(0, 16).replace("T", " ") : "—");

/** One API of `GET /v1/apis`. */
export interface ApiListing {
  slug: string;
  title: string;
  liveVersion: string | null;
  url: string;
  versions: Array<{ label: string; live: boolean; publishedAt: string; operations: number; lint: { status: "pending" } | { status: "complete"; errors: number; warnings: number } }>;
}

/** `…/versions`: every API's versions (publish history) with their lint summary and report links. */
export function renderVersionsPage(p: PortalFrame & { apis: ApiListing[] }): string {
  const base = `/app/orgs/${p.org.id}/portals/${p.portal.slug}`;
  return doc(
    <Frame {...p} section="versions" title="Versions and lint">
      {p.apis.length === 0 ? <p>Nothing published yet: publish a definition with a token (see the <a href={base}>overview</a>).</p> : null}
      {p.apis.map((a) => (
        <section class="panel" id={`api-${a.slug}`}>
          <h2>{a.title} <code>{a.slug}</code></h2>
          <p>Live: <strong>{a.liveVersion ?? "none"}</strong> · <a href={a.url}>reference</a> · <a href={`/p/${p.portal.slug}/reference/${a.slug}/changes`}>changes</a></p>
          <table tabIndex={0}>
            <caption>Published versions of {a.title}, newest first</caption>
            <thead><tr><th scope="col">Version</th><th scope="col">Published</th><th scope="col">Operations</th><th scope="col">Lint</th></tr></thead>
            <tbody>{a.versions.map((v) => (
              <tr>
                <td>{v.label}{v.live ? <strong> (live)</strong> : null}</td>
                <td>{day(v.publishedAt)}</td>
                <td class="ta-right">{v.operations}</td>
                <td>{v.lint.status === "pending" ? "linting…" : (
                  <a href={`${base}/versions/${encodeURIComponent(a.slug)}/${encodeURIComponent(v.label)}/lint`}>{v.lint.errors} error{v.lint.errors === 1 ? "" : "s"}, {v.lint.warnings} warning{v.lint.warnings === 1 ? "" : "s"}</a>
                )}</td>
              </tr>
            ))}</tbody>
          </table>
        </section>
      ))}
    </Frame>,
  );
}

/** A lint report (`GET /v1/apis/{api}/versions/{version}/lint`). */
export interface LintReport {
  api: string;
  version: string;
  publishedAt: string;
  status: "pending" | "complete";
  errors?: number;
  warnings?: number;
  issues?: Array<{ severity: string; rule: string; message: string; line: number | null; path: (string | number)[]; more?: number }>;
  truncated?: boolean;
  note?: string;
}

/** `…/versions/{api}/{version}/lint`: one version's lint report. */
export function renderLintPage(p: PortalFrame & { report: LintReport }): string {
  const r = p.report;
  return doc(
    <Frame {...p} section="versions" title={`Lint: ${r.api} ${r.version}`}>
      <p><a href={`/app/orgs/${p.org.id}/portals/${p.portal.slug}/versions`}>All versions</a> · published {day(r.publishedAt)}</p>
      {r.status === "pending" ? <p class="notice" role="status">This large definition is still being linted; reload in a moment.</p> : (
        <>
          <p><strong>{r.errors}</strong> error{r.errors === 1 ? "" : "s"}, <strong>{r.warnings}</strong> warning{r.warnings === 1 ? "" : "s"}.{r.truncated ? " Only part of the issues are listed." : ""}</p>
          {r.note ? <p class="notice notice-warn">{r.note}</p> : null}
          {r.issues?.length ? (
            <table class="lint" tabIndex={0}>
              <caption>Issues</caption>
              <thead><tr><th scope="col">Severity</th><th scope="col">Rule</th><th scope="col">Message</th><th scope="col">Where</th></tr></thead>
              <tbody>{r.issues.map((i) => (
                <tr>
                  <td class={`sev-${i.severity}`}>{i.severity}</td>
                  <td><code>{i.rule}</code></td>
                  <td>{i.message}{i.more ? ` (and ${i.more} more like this)` : ""}</td>
                  <td>{i.line !== null ? `line ${i.line}` : ""}{i.path.length ? <> <code>{i.path.join(".")}</code></> : null}</td>
                </tr>
              ))}</tbody>
            </table>
          ) : <p>No issues.</p>}
        </>
      )}
    </Frame>,
  );
}

/** The live content release (`GET /v1/content`). */
export interface ContentListing {
  release: { id: number; digest: string; publishedAt: string; locales: string[]; guides: number; steps: number; changelog: number; glossary: number } | null;
  pages: Array<{ kind: string; slug: string; locale: string; title: string; audiences: string[]; url: string }>;
  checks: { brokenLinks: unknown[]; undocumentedOperations: Record<string, unknown[]>; invalidFrontMatter: unknown[]; unknownVariables: unknown[]; unknownAudiences: unknown[] } | null;
}

/** `…/content`: the live content release, its pages and its checks. */
export function renderContentPage(p: PortalFrame & { content: ContentListing }): string {
  const { release, pages, checks } = p.content;
  const undocumented = checks ? Object.values(checks.undocumentedOperations).reduce((n, ops) => n + ops.length, 0) : 0;
  return doc(
    <Frame {...p} section="content" title="Content releases">
      {!release ? <p>No content is published yet: upload a bundle (<code>POST /v1/content/upload</code>) or connect Git.</p> : (
        <>
          <section class="panel">
            <h2>Live release</h2>
            <dl class="facts">
              <dt>Published</dt><dd>{day(release.publishedAt)}</dd>
              <dt>Digest</dt><dd><code>{release.digest.slice(0, 16)}</code></dd>
              <dt>Locales</dt><dd>{release.locales.join(", ")}</dd>
              <dt>Contents</dt><dd>{release.guides} guides, {release.steps} code steps, {release.changelog} changelog entries, {release.glossary} glossary terms</dd>
            </dl>
          </section>
          {checks ? (
            <section class="panel">
              <h2>Checks</h2>
              <ul>
                <li>{checks.brokenLinks.length} broken link{checks.brokenLinks.length === 1 ? "" : "s"}</li>
                <li>{undocumented} operation{undocumented === 1 ? "" : "s"} no guide links to</li>
                <li>{checks.invalidFrontMatter.length} file{checks.invalidFrontMatter.length === 1 ? "" : "s"} with invalid front matter</li>
                <li>{checks.unknownVariables.length} unknown variable{checks.unknownVariables.length === 1 ? "" : "s"}, {checks.unknownAudiences.length} unknown audience{checks.unknownAudiences.length === 1 ? "" : "s"}</li>
              </ul>
            </section>
          ) : null}
          <section class="panel">
            <h2>Pages</h2>
            <table tabIndex={0}>
              <caption>{pages.length} pages of the live release</caption>
              <thead><tr><th scope="col">Title</th><th scope="col">Kind</th><th scope="col">Locale</th><th scope="col">Audiences</th></tr></thead>
              <tbody>{pages.map((x) => <tr><td><a href={x.url}>{x.title}</a></td><td>{x.kind}</td><td>{x.locale}</td><td>{x.audiences.join(", ")}</td></tr>)}</tbody>
            </table>
          </section>
        </>
      )}
    </Frame>,
  );
}

/** The access block of `GET /v1/portal` (no secrets). */
export interface AccessView {
  default: "public" | "private";
  methods: string[];
  passwordSet: boolean;
  passwordAudiences?: string[];
  magicLink?: { allowedDomains: string[]; allowList: string[]; audiences?: string[] };
  jwt?: { issuer?: string; audience?: string; audiencesClaim?: string; jwks?: { keys: unknown[] }; publicKey?: string; secretSet: boolean };
  sections: Array<{ prefix?: string; group?: string; audiences: string[] }>;
}

/** Readers' SAML IdP (`GET /v1/portal/sso`), when set. */
export interface ReaderSsoView {
  idp: { entityId: string; ssoUrl: string; certificateFingerprints: string[] };
  sp: { entityId: string; acsUrl: string; loginUrl: string };
  attributes: { groupsAttribute?: string; emailAttribute?: string; variables?: Record<string, string> };
  updatedAt: string;
}

/** The state of a page's forms after a post without script: what was sent back and what is wrong, per form. */
export interface FormsState {
  forms?: Partial<Record<PortalFormId, FormState>>;
  /** The form just saved (`?saved=`), whose status line says so. */
  saved?: PortalFormId;
}

/**
 * A portal page's form: posts to `/app/.../forms/{id}` without script (the server makes the API call and renders
 * what is wrong next to each field); client/entries/dashboard.ts sends the same call from the browser instead.
 */
function PortalForm(p: { id: PortalFormId; frame: PortalFrame; state: FormsState; button: string; secondary?: boolean; inline?: boolean; children?: ComponentChildren }) {
  const spec = PORTAL_FORMS[p.id] as PortalFormSpec;
  const error = p.state.forms?.[p.id]?.errors?._;
  return (
    <form method="post" action={`/app/orgs/${p.frame.org.id}/portals/${p.frame.portal.slug}/forms/${p.id}`} id={`form-${p.id}`} data-form={p.id} {...(spec.confirm ? { "data-confirm": spec.confirm } : {})} class={p.inline ? "inline-form" : undefined} novalidate>
      {p.children}
      {error ? <p class="notice-error form-error" role="alert">{error}</p> : null}
      <p class="form-status" role="status" aria-live="polite">{p.state.saved === p.id ? "Saved." : ""}</p>
      <button type="submit" class={p.secondary ? "secondary" : undefined}>{p.button}</button>
    </form>
  );
}

/** The message next to input `name` of form `id` (the id the script reuses: `{input id}-error`). */
function FieldError(p: { id: PortalFormId; name: string; state: FormsState }) {
  const error = p.state.forms?.[p.id]?.errors?.[p.name];
  return error ? <small id={`${inputId(p.id, p.name)}-error`} class="notice-error" role="alert">{error}</small> : null;
}

/** A labelled text input (or textarea) of a portal form: the value sent back after a refusal, else the current one. */
function PField(p: { id: PortalFormId; name: string; label: string; state: FormsState; value?: string; type?: "text" | "password"; hint?: string; placeholder?: string; rows?: number }) {
  const id = inputId(p.id, p.name);
  const form = p.state.forms?.[p.id];
  const error = form?.errors?.[p.name];
  const value = p.type === "password" ? "" : form?.values?.[p.name] ?? p.value ?? "";
  const describedBy = [p.hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ");
  const attrs = { id, name: p.name, placeholder: p.placeholder, "aria-invalid": error ? "true" : undefined, "aria-describedby": describedBy || undefined } as Record<string, unknown>;
  return (
    <p class={error ? "field invalid" : "field"}>
      <label for={id}>{p.label}</label>
      {p.rows ? <textarea {...attrs} rows={p.rows}>{value}</textarea> : <input {...({ ...attrs, type: p.type ?? "text", value, ...(p.type === "password" ? { autocomplete: "new-password" } : {}) } as Record<string, unknown>)} />}
      {p.hint ? <small id={`${id}-hint`} class="hint">{p.hint}</small> : null}
      <FieldError id={p.id} name={p.name} state={p.state} />
    </p>
  );
}

/** Where a plan does not include a control: the plan that does. */
function PlanNote({ org, what, plan }: { org: string; what: string; plan: string }) {
  return <p class="muted">{what} {what.endsWith("s") ? "are" : "is"} part of the {plan} plan (<a href={`/app/orgs/${org}#plan`}>plan</a>).</p>;
}

/** `…/access`: who may read (public or private, ways in, the shared password, magic-link domains, gated sections, JWT and SAML readers). */
export function renderAccessPage(p: PortalFrame & FormsState & { access: AccessView; sso: ReaderSsoView | null; features: { privatePortal: boolean; magicLink: boolean; jwt: boolean; saml: boolean } }): string {
  const a = p.access;
  const st: FormsState = { ...(p.forms ? { forms: p.forms } : {}), ...(p.saved ? { saved: p.saved } : {}) };
  const checked = (m: string) => (p.forms?.access?.values ? (p.forms.access.values.methods ?? "").split(",").includes(m) : a.methods.includes(m));
  const methodNames: Array<[string, string, boolean]> = [
    ["password", "shared password", p.features.privatePortal], ["magic-link", "magic link (Pro)", p.features.magicLink],
    ["jwt", "JWT from your sign-in (Pro)", p.features.jwt], ["saml", "SAML (Enterprise)", p.features.saml],
  ];
  const keys = a.jwt?.jwks ? JSON.stringify(a.jwt.jwks, null, 2) : a.jwt?.publicKey ?? "";
  return doc(
    <Frame {...p} section="access" title="Access" forms={p.mayManage}>
      <section class="panel">
        <h2>Readers</h2>
        <dl class="facts">
          <dt>Default</dt><dd>{a.default === "public" ? "public: anyone reads what no section gates" : "private: readers sign in first"}</dd>
          <dt>Ways in</dt><dd>{a.methods.length ? a.methods.join(", ") : "none"}</dd>
          <dt>Shared password</dt><dd>{a.passwordSet ? "set" : "not set"}</dd>
          <dt>Magic-link domains</dt><dd>{a.magicLink?.allowedDomains.length ? a.magicLink.allowedDomains.join(", ") : "—"}</dd>
          <dt>JWT</dt><dd>{a.jwt ? <>issuer {a.jwt.issuer ?? "—"}, audience {a.jwt.audience ?? "—"}, {a.jwt.jwks ? `${a.jwt.jwks.keys.length} public key${a.jwt.jwks.keys.length === 1 ? "" : "s"} (JWKS)` : a.jwt.publicKey ? "a PEM public key" : "no public key"}, secret {a.jwt.secretSet ? "set" : "not set"}</> : "not set up"}</dd>
          <dt>SAML</dt><dd>{p.sso ? <>identity provider <code>{p.sso.idp.entityId}</code></> : "not set up"}</dd>
        </dl>
      </section>
      <section class="panel" id="sections">
        <h2>Groups and gated sections</h2>
        {a.sections.length ? (
          <table tabIndex={0}>
            <caption>Sections readable only by these audiences (groups)</caption>
            <thead><tr><th scope="col">Section</th><th scope="col">Audiences</th></tr></thead>
            <tbody>{a.sections.map((s) => <tr><td><code>{s.prefix ?? s.group ?? ""}</code></td><td>{s.audiences.join(", ")}</td></tr>)}</tbody>
          </table>
        ) : <p>No section is gated: every page is readable by whoever may read the portal.</p>}
        {p.mayManage ? (p.features.privatePortal ? (
          <PortalForm id="sections" frame={p} state={st} button="Save sections">
            <PField id="sections" name="sections" label="Gated sections" state={st} rows={5} value={sectionLines(a.sections)} placeholder={"/guides/partners: partners\nInternal guides: staff, partners"}
              hint="One a line: a path (starting with /) or a navigation group's title, a colon, then the audiences (reader labels) that may read it. Empty: nothing gated. Readers get their audiences from the way they sign in." />
          </PortalForm>
        ) : <PlanNote org={p.org.id} what="Gated sections" plan="Starter" />) : <p class="muted">Sections and audiences also come from <code>portico.yaml</code> (docs/readers.md).</p>}
      </section>
      {p.mayManage ? (
        <>
          <section class="panel" id="ways-in">
            <h2>Change access</h2>
            {!p.features.privatePortal ? <PlanNote org={p.org.id} what="Private portals" plan="Starter" /> : null}
            <PortalForm id="access" frame={p} state={st} button="Save access">
              <p class="field"><label for={inputId("access", "default")}>Default</label>
                <select id={inputId("access", "default")} name="default">{(["public", "private"] as const).map((d) => <option value={d} selected={(p.forms?.access?.values?.default ?? a.default) === d}>{d}</option>)}</select>
                <FieldError id="access" name="default" state={st} />
              </p>
              <fieldset class="field" id={inputId("access", "methods")}>
                <legend>Ways in</legend>
                {methodNames.map(([m, label, included]) => (included || checked(m)) ? <label class="check"><input type="checkbox" name="methods" value={m} checked={checked(m)} /> {label}</label> : null)}
                <FieldError id="access" name="methods" state={st} />
              </fieldset>
              <PField id="access" name="password" type="password" label="New shared password" state={st} hint="Leave empty to keep the current one. Changing it signs password readers out." />
              {p.features.magicLink || a.methods.includes("magic-link") ? (
                <>
                  <input type="hidden" name="magicLink" value="shown" />
                  <PField id="access" name="allowedDomains" label="Magic-link e-mail domains" state={st} value={a.magicLink?.allowedDomains.join(", ") ?? ""} placeholder="example.com, partner.example" />
                  <PField id="access" name="allowList" label="Magic-link addresses" state={st} value={a.magicLink?.allowList.join(", ") ?? ""} placeholder="ana@partner.example" hint="Single addresses let in besides whole domains." />
                  <PField id="access" name="magicAudiences" label="Audiences of magic-link readers" state={st} value={a.magicLink?.audiences?.join(", ") ?? ""} placeholder="partners" hint="Empty: every audience of the portal." />
                </>
              ) : <PlanNote org={p.org.id} what="Magic-link readers" plan="Pro" />}
            </PortalForm>
            <PortalForm id="sign-out" frame={p} state={st} button="Sign every reader out" secondary inline />
          </section>
          <section class="panel" id="jwt">
            <h2>Readers signed in by your product (JWT)</h2>
            {p.features.jwt ? (
              <>
                <p class="muted">Your sign-in sends readers to <code>/p/{p.portal.slug}/auth/jwt?token=…</code> with a signed token; its audiences claim names what they may read. Turn “JWT” on under Ways in once a key is set.</p>
                <PortalForm id="jwt" frame={p} state={st} button="Save JWT settings">
                  <PField id="jwt" name="issuer" label="Issuer (iss)" state={st} value={a.jwt?.issuer ?? ""} placeholder="https://auth.example.com/" />
                  <PField id="jwt" name="audience" label="Audience (aud)" state={st} value={a.jwt?.audience ?? ""} placeholder="docs" />
                  <PField id="jwt" name="keys" label="Public keys (JWKS) or PEM public key" state={st} rows={5} value={keys} placeholder={'{"keys": [{"kty": "RSA", "kid": "…", "n": "…", "e": "AQAB"}]}'} hint="RS256/ES256 tokens are checked against these. Or give an HS256 secret below instead." />
                  <PField id="jwt" name="secret" type="password" label="HS256 secret" state={st} hint={a.jwt?.secretSet ? "A secret is set; leave empty to keep it." : "32 characters or more; leave empty when you give public keys."} />
                  <PField id="jwt" name="audiencesClaim" label="Audiences claim" state={st} value={a.jwt?.audiencesClaim ?? ""} placeholder="groups" />
                </PortalForm>
              </>
            ) : <PlanNote org={p.org.id} what="JWT readers" plan="Pro" />}
          </section>
          <section class="panel" id="saml">
            <h2>Readers signed in by your identity provider (SAML)</h2>
            {p.features.saml ? (
              <>
                {p.sso ? (
                  <dl class="facts">
                    <dt>Identity provider</dt><dd><code>{p.sso.idp.entityId}</code></dd>
                    <dt>Sign-in URL</dt><dd><code>{p.sso.idp.ssoUrl}</code></dd>
                    <dt>Certificate (SHA-256)</dt><dd>{p.sso.idp.certificateFingerprints.map((f) => <code class="fingerprint">{f}</code>)}</dd>
                    <dt>Give your IdP</dt><dd>entity ID <code>{p.sso.sp.entityId}</code>, ACS <code>{p.sso.sp.acsUrl}</code></dd>
                  </dl>
                ) : <p class="muted">Not set up. Give your identity provider the metadata at <code>/p/{p.portal.slug}/auth/saml/metadata</code>, then paste its metadata here.</p>}
                <PortalForm id="reader-saml" frame={p} state={st} button="Save SAML settings">
                  <PField id="reader-saml" name="metadata" label="IdP metadata (XML)" state={st} rows={6} />
                  <PField id="reader-saml" name="groups" label="Groups attribute" state={st} value={p.sso?.attributes.groupsAttribute ?? ""} placeholder="groups" hint="The attribute whose values are the reader's audiences." />
                  <PField id="reader-saml" name="email" label="E-mail attribute" state={st} value={p.sso?.attributes.emailAttribute ?? ""} placeholder="email" />
                  <PField id="reader-saml" name="variables" label="Variables from attributes" state={st} rows={3} value={Object.entries(p.sso?.attributes.variables ?? {}).map(([v, a]) => `${v}: ${a}`).join("\n")} placeholder="api_key: apiKeyAttribute" hint="One per line: a reader variable, a colon, the attribute that fills it. Attributes named vars.<name> fill their variable without a line here." />
                </PortalForm>
                {p.sso ? <PortalForm id="reader-saml-delete" frame={p} state={st} button="Turn SAML sign-in off" secondary inline /> : null}
              </>
            ) : <PlanNote org={p.org.id} what="SAML readers" plan="Enterprise" />}
          </section>
        </>
      ) : <ReadOnly role={p.role} what="the access settings" />}
    </Frame>,
  );
}

/** The brand of `GET /v1/portal` (settings over portico.yaml's `brand:`). */
export interface BrandView {
  name?: string;
  colors?: { primary?: string; light?: string; dark?: string };
  themeDefault?: string;
  logo?: { light: string; dark?: string };
  favicon?: string;
}

/** `…/branding`: the portal's name, colour, default theme, logos and favicon (docs/branding.md). `images`: the live release's image files. */
export function renderBrandingPage(p: PortalFrame & FormsState & { brand: BrandView; readerUrl: string; images: Array<{ path: string; sha256: string }>; assetBase: string }): string {
  const b = p.brand;
  // The brand holds files by content address (`<base marker>/_content/<sha256>.<ext>`): back to their bundle paths.
  const pathOf = (stored: string | undefined) => (stored ? p.images.find((i) => stored.includes(`/_content/${i.sha256}.`))?.path ?? "" : "");
  const src = (stored: string) => stored.replace(BASE_MARKER, p.assetBase);
  const current = { logoLight: pathOf(b.logo?.light), logoDark: pathOf(b.logo?.dark), favicon: pathOf(b.favicon) };
  const st: FormsState = { ...(p.forms ? { forms: p.forms } : {}), ...(p.saved ? { saved: p.saved } : {}) };
  const themeDefault = p.forms?.brand?.values?.themeDefault ?? b.themeDefault ?? "system";
  return doc(
    <Frame {...p} section="branding" title="Branding" forms={p.mayManage}>
      <section class="panel">
        <h2>Current brand</h2>
        <dl class="facts">
          <dt>Name</dt><dd>{b.name ?? "— (portico.yaml's, or the portal's name)"}</dd>
          <dt>Primary colour</dt><dd>{b.colors?.primary ? <code>{b.colors.primary}</code> : "— (portico.yaml's, or the default)"}</dd>
          <dt>Default theme</dt><dd>{b.themeDefault ?? "system"}</dd>
          <dt>Logo</dt><dd>{b.logo ? <><img class="brand-logo" src={src(b.logo.light)} alt="" height={32} /> <code>{current.logoLight || "a file of an earlier release"}</code></> : "— (portico.yaml's, or none)"}</dd>
          <dt>Favicon</dt><dd>{b.favicon ? <code>{current.favicon || "a file of an earlier release"}</code> : "—"}</dd>
        </dl>
        <p><a href={p.readerUrl}>See it on the reader site</a></p>
      </section>
      {p.mayManage ? (
        <>
          <section class="panel" id="brand">
            <h2>Change the brand</h2>
            <PortalForm id="brand" frame={p} state={st} button="Save brand">
              <PField id="brand" name="name" label="Name" state={st} value={b.name ?? ""} />
              <PField id="brand" name="primary" label="Primary colour" state={st} value={b.colors?.primary ?? ""} placeholder="#0b5fff" hint="A CSS colour; it must keep text readable on light and dark backgrounds (WCAG AA), or it is refused with the reason." />
              <p class="field"><label for={inputId("brand", "themeDefault")}>Default theme</label>
                <select id={inputId("brand", "themeDefault")} name="themeDefault">{["system", "light", "dark"].map((t) => <option value={t} selected={themeDefault === t}>{t}</option>)}</select>
                <FieldError id="brand" name="themeDefault" state={st} />
              </p>
            </PortalForm>
          </section>
          <section class="panel" id="logo">
            <h2>Logo and favicon</h2>
            <p class="muted">Images are files of the live content release (upload them with your guides, e.g. <code>images/logo.svg</code>); the portal keeps the file it points to even when a later release drops it.</p>
            <PortalForm id="logo" frame={p} state={st} button="Save logo">
              <datalist id="content-images">{p.images.map((i) => <option value={i.path} />)}</datalist>
              {(["logoLight", "logoDark", "favicon"] as const).map((name) => {
                const label = name === "logoLight" ? "Logo (SVG or PNG)" : name === "logoDark" ? "Logo in the dark theme (optional)" : "Favicon (SVG, PNG or ICO)";
                const id = inputId("logo", name);
                const form = p.forms?.logo;
                const error = form?.errors?.[name];
                return (
                  <p class={error ? "field invalid" : "field"}>
                    <label for={id}>{label}</label>
                    <input {...({ id, name, type: "text", list: "content-images", placeholder: "images/logo.svg", value: form?.values?.[name] ?? current[name], "aria-invalid": error ? "true" : undefined, "aria-describedby": error ? `${id}-error` : undefined } as Record<string, unknown>)} />
                    <FieldError id="logo" name={name} state={st} />
                  </p>
                );
              })}
              <p class="hint">{p.images.length ? `${p.images.length} image file${p.images.length === 1 ? "" : "s"} in the live release: ${p.images.slice(0, 8).map((i) => i.path).join(", ")}${p.images.length > 8 ? ", …" : ""}.` : "The live release has no image file yet."} Empty fields remove the logo or favicon.</p>
            </PortalForm>
          </section>
        </>
      ) : <ReadOnly role={p.role} what="the brand" />}
    </Frame>,
  );
}

/** A custom domain (`GET /v1/portal/domain`). */
export interface DomainInfo {
  hostname: string;
  status: string;
  dnsRecords: Array<{ type: string; name: string; value: string; purpose: string }>;
  hostnameStatus: string;
  certificateStatus: string;
  errors: string[];
  url: string;
  checkedAt: string;
}

/** `…/domain`: the custom domain, the DNS records to create and their status. */
export function renderDomainPage(p: PortalFrame & FormsState & { domain: DomainInfo | null; included: boolean; readerUrl: string }): string {
  const d = p.domain;
  const st: FormsState = { ...(p.forms ? { forms: p.forms } : {}), ...(p.saved ? { saved: p.saved } : {}) };
  return doc(
    <Frame {...p} section="domain" title="Domain" forms={p.mayManage}>
      {!p.mayManage ? <p class="readonly-note">As {p.role} you do not see the domain's settings: they are for owners and admins.</p> : (
        <>
          <section class="panel">
            <h2>Custom domain</h2>
            {d ? (
              <>
                <dl class="facts">
                  <dt>Hostname</dt><dd><code>{d.hostname}</code></dd>
                  <dt>Status</dt><dd>{d.status} (hostname {d.hostnameStatus}, certificate {d.certificateStatus}), checked {day(d.checkedAt)}</dd>
                  <dt>Address</dt><dd><a href={d.url}>{d.url}</a></dd>
                </dl>
                {d.errors.length ? <ul class="notice-error">{d.errors.map((e) => <li>{e}</li>)}</ul> : null}
                <table tabIndex={0}>
                  <caption>DNS records to create at your DNS provider</caption>
                  <thead><tr><th scope="col">Type</th><th scope="col">Name</th><th scope="col">Value</th><th scope="col">Why</th></tr></thead>
                  <tbody>{d.dnsRecords.map((r) => <tr><td>{r.type}</td><td><code>{r.name}</code></td><td><code>{r.value}</code></td><td>{r.purpose}</td></tr>)}</tbody>
                </table>
                <PortalForm id="domain-delete" frame={p} state={st} button="Remove the domain" secondary inline />
              </>
            ) : <p>The portal is served at <a href={p.readerUrl}>{p.readerUrl}</a>. Add your own hostname, such as <code>docs.example.com</code>.</p>}
          </section>
          {p.included ? (
            <section class="panel">
              <h2>{d ? "Move to another hostname" : "Add a domain"}</h2>
              <PortalForm id="domain" frame={p} state={st} button="Save domain">
                <PField id="domain" name="hostname" label="Hostname" state={st} placeholder="docs.example.com" />
              </PortalForm>
            </section>
          ) : <PlanNote org={p.org.id} what="Custom domains" plan="Pro" />}
        </>
      )}
    </Frame>,
  );
}

/** `…/git`: the Git connection as `GET /v1/portal/git` reports it (read-only; docs/git.md sets it up). */
export function renderGitPage(p: PortalFrame & { git: Record<string, unknown> | null; message?: string }): string {
  const facts = p.git ? Object.entries(p.git).filter(([, v]) => v === null || ["string", "number", "boolean"].includes(typeof v)) : [];
  return doc(
    <Frame {...p} section="git" title="Git">
      <section class="panel">
        <h2>Git connection</h2>
        {p.message ? <p class="muted">{p.message}</p> : null}
        {p.git ? (
          <dl class="facts">{facts.map(([k, v]) => <><dt>{k}</dt><dd>{v === null ? "—" : String(v)}</dd></>)}</dl>
        ) : !p.message ? <p>Not connected. A portal publishes from a repository's docs folder on every push: see docs/git.md (<code>PUT /v1/portal/git</code>).</p> : null}
      </section>
    </Frame>,
  );
}

/** `…/analytics`: where the portal's search analytics and backlog are (the analytics page of issue 35). */
export function renderAnalyticsLinkPage(p: PortalFrame & { included: boolean }): string {
  return doc(
    <Frame {...p} section="analytics" title="Analytics">
      <section class="panel">
        <h2>Search analytics and the backlog</h2>
        {p.included ? (
          <p>What readers search for, what they do not find, and the guides to write next: <a href={`/p/${p.portal.slug}/admin/analytics`}>open the analytics page</a> (it asks for a token with <code>read:analytics</code>).</p>
        ) : <p class="muted">Search analytics and the backlog are part of the Pro plan (<a href={`/app/orgs/${p.org.id}#plan`}>plan</a>).</p>}
      </section>
    </Frame>,
  );
}
