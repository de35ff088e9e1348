/**
 * @module A portal's pages in the dashboard (`/app/orgs/{org}/portals/{portal}/{section}`, issue 32): versions and
 * lint reports, content releases, access, branding, domain, Git and analytics. Server-rendered from the portal's
 * `/v1` API (read in-process as the signed-in writer); the forms are sent by client/entries/dashboard.ts to the same
 * API with the writer's session (`Portico-Portal` names the portal), which validates, authorises and audits. A
 * form's `data-api` is its method and path, `data-build` how its fields become the JSON body. Controls the writer's
 * role cannot use are not shown (viewers read only).
 */
import type { ComponentChildren } from "preact";
import { Page, PortalNav, doc, type PortalSection } from "./dashboard";

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

/** Where a form's result is announced (the script fills it). */
function FormStatus() {
  return <p class="form-status" role="status" aria-live="polite" />;
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
  jwt?: { issuer?: string; audience?: string; secretSet: boolean };
  sections: Array<{ prefix?: string; group?: string; audiences: string[] }>;
}

/** `…/access`: who may read (public or private, ways in, the shared password, magic-link domains, gated sections). */
export function renderAccessPage(p: PortalFrame & { access: AccessView; features: { privatePortal: boolean; magicLink: boolean } }): string {
  const a = p.access;
  return doc(
    <Frame {...p} section="access" title="Access" forms={p.mayManage}>
      <section class="panel">
        <h2>Readers</h2>
        <dl class="facts">
          <dt>Default</dt><dd>{a.default === "public" ? "public: anyone reads what no section gates" : "private: readers sign in first"}</dd>
          <dt>Ways in</dt><dd>{a.methods.length ? a.methods.join(", ") : "none"}</dd>
          <dt>Shared password</dt><dd>{a.passwordSet ? "set" : "not set"}</dd>
          <dt>Magic-link domains</dt><dd>{a.magicLink?.allowedDomains.length ? a.magicLink.allowedDomains.join(", ") : "—"}</dd>
          {a.jwt ? <><dt>JWT</dt><dd>issuer {a.jwt.issuer ?? "—"}, secret {a.jwt.secretSet ? "set" : "not set"}</dd></> : null}
        </dl>
      </section>
      <section class="panel">
        <h2>Groups and gated sections</h2>
        {a.sections.length ? (
          <table tabIndex={0}>
            <caption>Sections readable only by these audiences (groups)</caption>
            <thead><tr><th scope="col">Section</th><th scope="col">Audiences</th></tr></thead>
            <tbody>{a.sections.map((s) => <tr><td><code>{s.prefix ?? s.group ?? ""}</code></td><td>{s.audiences.join(", ")}</td></tr>)}</tbody>
          </table>
        ) : <p>No section is gated: every page is readable by whoever may read the portal.</p>}
        <p class="muted">Sections and audiences come from <code>portico.yaml</code> (docs/readers.md) or <code>PATCH /v1/portal</code>'s <code>access.sections</code>.</p>
      </section>
      {p.mayManage ? (
        <section class="panel">
          <h2>Change access</h2>
          {!p.features.privatePortal ? <p class="muted">Private portals are part of the Starter plan and up (<a href={`/app/orgs/${p.org.id}#plan`}>plan</a>).</p> : null}
          <form data-api="PATCH /v1/portal" data-build="access" novalidate>
            <p class="field"><label for="f-default">Default</label>
              <select id="f-default" name="default"><option value="public" selected={a.default === "public"}>public</option><option value="private" selected={a.default === "private"}>private</option></select>
            </p>
            <fieldset class="field">
              <legend>Ways in</legend>
              <label class="check"><input type="checkbox" name="methods" value="password" checked={a.methods.includes("password")} /> shared password</label>
              <label class="check"><input type="checkbox" name="methods" value="magic-link" checked={a.methods.includes("magic-link")} disabled={!p.features.magicLink && !a.methods.includes("magic-link")} /> magic link{p.features.magicLink ? "" : " (Pro)"}</label>
              {a.methods.filter((m) => m !== "password" && m !== "magic-link").map((m) => <label class="check"><input type="checkbox" name="methods" value={m} checked /> {m} (configured through the API)</label>)}
            </fieldset>
            <p class="field"><label for="f-password">New shared password</label>
              <input id="f-password" name="password" type="password" autocomplete="new-password" aria-describedby="f-password-hint" />
              <small id="f-password-hint" class="hint">Leave empty to keep the current one. Changing it signs password readers out.</small>
            </p>
            <p class="field"><label for="f-domains">Magic-link e-mail domains</label>
              <input id="f-domains" name="allowedDomains" type="text" value={a.magicLink?.allowedDomains.join(", ") ?? ""} placeholder="example.com, partner.example" />
            </p>
            <FormStatus />
            <button type="submit">Save access</button>
          </form>
          <form data-api="DELETE /v1/portal/sessions" data-confirm="Sign every reader out?" class="inline-form">
            <FormStatus />
            <button type="submit" class="secondary">Sign every reader out</button>
          </form>
        </section>
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

/** `…/branding`: the portal's name, colour and default theme (docs/branding.md). */
export function renderBrandingPage(p: PortalFrame & { brand: BrandView; readerUrl: string }): string {
  const b = p.brand;
  return doc(
    <Frame {...p} section="branding" title="Branding" forms={p.mayManage}>
      <section class="panel">
        <h2>Current brand</h2>
        <dl class="facts">
          <dt>Name</dt><dd>{b.name ?? "— (portico.yaml's, or the portal's name)"}</dd>
          <dt>Primary colour</dt><dd>{b.colors?.primary ? <code>{b.colors.primary}</code> : "— (portico.yaml's, or the default)"}</dd>
          <dt>Default theme</dt><dd>{b.themeDefault ?? "system"}</dd>
          <dt>Logo</dt><dd>{b.logo?.light ?? "— (set in portico.yaml)"}</dd>
        </dl>
        <p><a href={p.readerUrl}>See it on the reader site</a></p>
      </section>
      {p.mayManage ? (
        <section class="panel">
          <h2>Change the brand</h2>
          <form data-api="PATCH /v1/portal" data-build="brand" novalidate>
            <p class="field"><label for="f-name">Name</label><input id="f-name" name="name" type="text" value={b.name ?? ""} /></p>
            <p class="field"><label for="f-primary">Primary colour</label>
              <input id="f-primary" name="primary" type="text" value={b.colors?.primary ?? ""} placeholder="#0b5fff" aria-describedby="f-primary-hint" />
              <small id="f-primary-hint" class="hint">A CSS colour; it must keep text readable on light and dark backgrounds (WCAG AA), or it is refused with the reason.</small>
            </p>
            <p class="field"><label for="f-themeDefault">Default theme</label>
              <select id="f-themeDefault" name="themeDefault">{["system", "light", "dark"].map((t) => <option value={t} selected={(b.themeDefault ?? "system") === t}>{t}</option>)}</select>
            </p>
            <FormStatus />
            <button type="submit">Save brand</button>
          </form>
        </section>
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
export function renderDomainPage(p: PortalFrame & { domain: DomainInfo | null; included: boolean; readerUrl: string }): string {
  const d = p.domain;
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
                <form data-api="DELETE /v1/portal/domain" data-confirm="Remove the custom domain?" class="inline-form">
                  <FormStatus />
                  <button type="submit" class="secondary">Remove the domain</button>
                </form>
              </>
            ) : <p>The portal is served at <a href={p.readerUrl}>{p.readerUrl}</a>. Add your own hostname, such as <code>docs.example.com</code>.</p>}
          </section>
          {p.included ? (
            <section class="panel">
              <h2>{d ? "Move to another hostname" : "Add a domain"}</h2>
              <form data-api="PUT /v1/portal/domain" data-build="domain" novalidate>
                <p class="field"><label for="f-hostname">Hostname</label><input id="f-hostname" name="hostname" type="text" placeholder="docs.example.com" required /></p>
                <FormStatus />
                <button type="submit">Save domain</button>
              </form>
            </section>
          ) : <p class="muted">Custom domains are part of the Pro plan (<a href={`/app/orgs/${p.org.id}#plan`}>plan</a>).</p>}
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
