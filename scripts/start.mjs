// `npm start`: the main job. Builds the client assets, applies the D1 migrations locally, runs `wrangler dev`
// on 127.0.0.1:$PORT (default 8787) and, the first time, creates the demo portal and publishes the demo
// definition, Portico's own API (openapi/portico.yaml, slug portico-api) and the demo content bundle
// (demo/content: guides, code steps, changelog, glossary), and maps the custom domain demo.localhost to it
// (PUT /v1/portal/domain; browsers resolve *.localhost to this machine). Prints the portal URLs, the admin token and
// the demo portal's upload token.
import { request as httpRequest } from "node:http";
import { spawn, spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { parseDocument } from "yaml";
import { readFolder, uploadContent, zipFiles } from "./lib/content-bundle.mjs";
import { seedDemoAnalytics } from "./lib/demo-analytics.mjs";
import { waitForHealthy } from "./lib/dev-server.mjs";
import { DEMO_PATHS, createDemoRepository } from "./lib/demo-repository.mjs";
import { DEMO_GIT, GIT_STANDIN_PORT } from "./lib/demo-git-config.mjs";
import { LOCAL_MOCK_PORT, startLocalMock, withLocalMock } from "./lib/local-mock.mjs";

const root = new URL("..", import.meta.url).pathname;
const port = Number(process.env.PORT ?? 8787);
const origin = `http://127.0.0.1:${port}`;
/** The embed test page's port: another origin than the portal's, as a customer's help center is. */
const EMBED_PORT = Number(process.env.EMBED_PORT ?? port + 1000);
const bin = (name) => join(root, "node_modules/.bin", name);
const node = process.execPath;
// Offline, miniflare's download of the `Request.cf` sample (https://workers.cloudflare.com/cf.json) fails with a
// DNS error on every start. The placeholder it then falls back to is what we want locally: say so and skip the fetch.
const childEnv = { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" };

/** The value of `name` in .dev.vars, created with a random `make()` (and added to the file) the first time. */
function devVar(name, make) {
  const path = join(root, ".dev.vars");
  const text = existsSync(path) ? readFileSync(path, "utf8") : "";
  const found = new RegExp(`^${name}=(.+)$`, "m").exec(text);
  if (found) return found[1].trim();
  const value = make();
  writeFileSync(path, `${text}${text && !text.endsWith("\n") ? "\n" : ""}${name}=${value}\n`, { mode: 0o600 });
  console.log(`${text ? "added" : "created .dev.vars with"} a new ${name}${text ? " to .dev.vars" : ""}`);
  return value;
}

function devVarsToken() {
  devVar("SESSION_SECRET", () => randomBytes(32).toString("base64url")); // seals reader session cookies
  // Git sync (docs/git.md): a local GitHub App's id, private key (PKCS#1, as GitHub hands it out; one line in
  // .dev.vars) and webhook secret; `npm run demo:git` signs with them against a local stand-in for GitHub's API.
  devVar("GITHUB_APP_ID", () => "1");
  devVar("GITHUB_APP_PRIVATE_KEY", () => generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } }).privateKey.trim().replace(/\n/g, "\\n"));
  devVar("GITHUB_WEBHOOK_SECRET", () => randomBytes(24).toString("base64url"));
  return devVar("PORTICO_ADMIN_TOKEN", () => "adm_" + randomBytes(32).toString("base64url"));
}

function run(args) {
  const r = spawnSync(node, args, { cwd: root, stdio: "inherit", env: childEnv });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const DEMO_API = "parcel-logistics-api";
const PREVIOUS_VERSION = "2.3.0";
/** Slug of the demo portal's second API: Portico's own service API. */
const PORTICO_API = "portico-api";
/** The demo portal's custom domain: any name under .localhost reaches 127.0.0.1 in Chromium and curl. */
const DEMO_HOSTNAME = "demo.localhost";

/** The demo definition as its previous version stood: info.version 2.3.0, without the pickup operations. */
function previousDefinition(text) {
  const doc = parseDocument(text);
  doc.setIn(["info", "version"], PREVIOUS_VERSION);
  for (const path of ["/pickups", "/pickups/{pickupId}"]) doc.deleteIn(["paths", path]);
  return doc.toString();
}

async function ensureDemo(adminToken) {
  const statePath = join(root, ".wrangler/portico-demo.json");
  let demo = existsSync(statePath) ? JSON.parse(readFileSync(statePath, "utf8")) : undefined;
  if (demo) {
    const probe = await fetch(`${origin}/v1/apis`, { headers: { authorization: `Bearer ${demo.token}` } });
    if (probe.status === 401) demo = undefined; // local state was wiped: start over
  }
  if (!demo) {
    const res = await fetch(`${origin}/v1/portals`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ slug: "demo", name: "Portico Demo" }),
    });
    const body = await res.json();
    if (res.status !== 201) throw new Error(`creating the demo portal failed: ${res.status} ${JSON.stringify(body)}`);
    demo = { slug: body.portal.slug, token: body.token };
    mkdirSync(join(root, ".wrangler"), { recursive: true });
    writeFileSync(statePath, JSON.stringify(demo, null, 2), { mode: 0o600 });
  }
  // The demo's custom domain (docs/domains.md): the embedded CustomHostnames adapter activates it at once, so the
  // portal answers at http://demo.localhost:$PORT/ and /p/demo/ on 127.0.0.1 redirects there. Registered before the
  // uploads so their answers carry the custom domain's URLs; a later start's PUT is a refresh.
  const domain = await fetch(`${origin}/v1/portal/domain`, {
    method: "PUT",
    headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/json" },
    body: JSON.stringify({ hostname: DEMO_HOSTNAME }),
  });
  const domainBody = await domain.json();
  if (domain.status !== 200) throw new Error(`registering ${DEMO_HOSTNAME} failed: ${domain.status} ${JSON.stringify(domainBody)}`);
  demo.site = domainBody.domain.url.replace(/\/$/, "");
  // The demo API lists the prism mock started below as its "Local mock" server (added here, not in the file).
  const definition = withLocalMock(readFileSync(join(root, "demo/definition.yaml"), "utf8"));
  // A first start publishes the version before this one too (no pickups yet), so the demo has changes to show:
  // the diff page, and a changelog draft to review (drafted when 2.4.0 goes live after it).
  const listing = await (await fetch(`${origin}/v1/apis`, { headers: { authorization: `Bearer ${demo.token}` } })).json();
  if (!listing.apis?.some((a) => a.slug === DEMO_API)) {
    const previous = await fetch(`${origin}/v1/apis/upload?api=${DEMO_API}&version=${PREVIOUS_VERSION}`, {
      method: "POST",
      headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/yaml" },
      body: previousDefinition(definition),
    });
    if (previous.status >= 300) throw new Error(`publishing the demo's previous version failed: ${previous.status} ${await previous.text()}`);
  }
  const up = await fetch(`${origin}/v1/apis/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/yaml" },
    body: definition,
  });
  const result = await up.json();
  if (up.status >= 300) throw new Error(`publishing the demo definition failed: ${up.status} ${JSON.stringify(result)}`);
  // Portico documents Portico: its own service API (openapi/portico.yaml) is the demo portal's second API.
  const own = await fetch(`${origin}/v1/apis/upload?api=${PORTICO_API}`, {
    method: "POST",
    headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/yaml" },
    body: readFileSync(join(root, "openapi/portico.yaml"), "utf8"),
  });
  const portico = await own.json();
  if (own.status >= 300) throw new Error(`publishing openapi/portico.yaml failed: ${own.status} ${JSON.stringify(portico)}`);
  // The reference's other layout, so both can be tried: Portico's own API reads as one page (PATCH /v1/apis/{api}).
  const layout = await fetch(`${origin}/v1/apis/${PORTICO_API}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/json" },
    body: JSON.stringify({ layout: "single-page" }),
  });
  if (!layout.ok) throw new Error(`setting ${PORTICO_API}'s single-page layout failed: ${layout.status} ${await layout.text()}`);
  // The guides link to the definition's operations, so they are published after it.
  const content = await uploadContent(origin, demo.token, zipFiles(readFolder(join(root, "demo/content"))));
  if (content.status >= 300) throw new Error(`publishing the demo content failed: ${content.status} ${JSON.stringify(content.json)}`);
  // The partners section (demo/content/portico.yaml `access`) opens with a shared password, set through the API.
  if (!demo.password) {
    demo.password = `partners-${randomBytes(6).toString("hex")}`;
    writeFileSync(statePath, JSON.stringify(demo, null, 2), { mode: 0o600 });
  }
  const access = await fetch(`${origin}/v1/portal`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/json" },
    body: JSON.stringify({ access: { password: demo.password, passwordAudiences: ["partners"] } }),
  });
  if (access.status !== 200) throw new Error(`setting the demo password failed: ${access.status} ${await access.text()}`);
  // Git sync: the demo's definition and guides as a local git repository, connected through a local GitHub App
  // whose API stand-in `npm run demo:git` starts (docs/git.md).
  createDemoRepository(join(root, DEMO_GIT.dir));
  const git = await fetch(`${origin}/v1/portal/git`, {
    method: "PUT",
    headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/json" },
    body: JSON.stringify({ provider: "github", apiUrl: `http://127.0.0.1:${GIT_STANDIN_PORT}`, repository: DEMO_GIT.repository, installationId: DEMO_GIT.installationId, productionBranch: "main", paths: DEMO_PATHS, previews: "pull-requests", releases: true }),
  });
  if (git.status !== 200) throw new Error(`connecting the demo repository failed: ${git.status} ${await git.text()}`);
  // A month of search analytics and page feedback (docs/analytics.md), seeded once from the demo's own answers.
  if (!demo.analyticsSeeded) {
    await seedDemoAnalytics({ origin, site: demo.site, token: demo.token });
    demo.analyticsSeeded = true;
    writeFileSync(statePath, JSON.stringify(demo, null, 2), { mode: 0o600 });
  }
  // The embed demo (docs/mcp.md): a public key for the embed test page's origin, made again when that origin changed.
  const embedOrigin = `http://127.0.0.1:${EMBED_PORT}`;
  if (!demo.embedKey || demo.embedOrigin !== embedOrigin) {
    const key = await fetch(`${origin}/v1/portal/keys`, {
      method: "POST", headers: { authorization: `Bearer ${demo.token}`, "content-type": "application/json" },
      body: JSON.stringify({ kind: "public", name: "Embed test page (npm start)", origins: [embedOrigin] }),
    });
    if (key.status !== 201) throw new Error(`creating the demo's public key failed: ${key.status} ${await key.text()}`);
    Object.assign(demo, { embedKey: (await key.json()).key, embedOrigin });
    writeFileSync(statePath, JSON.stringify(demo, null, 2), { mode: 0o600 });
  }
  return { demo, result, portico, content: content.json };
}

/** The demo owner (issue 32): the dashboard's demo organisation owns the demo portal. */
const DEMO_OWNER = "owner@demo.example";
const DEMO_ORG = "demo-team";
/** The demo organisation's other people: an editor, and a viewer invited but not yet in. */
const DEMO_EDITOR = "editor@demo.example";
const DEMO_INVITED = "invited@demo.example";

/**
 * The team side of the demo (docs/workspace.md): the demo organisation owns the demo portal, its owner is
 * DEMO_OWNER, it is on a trial with 10 days left and some AI credits used (three real questions, the rest set by the
 * service admin), and a one-time sign-in link for the owner is sent to the dev outbox. Returns that link.
 */
async function ensureWorkspaceDemo(adminToken, demo) {
  const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" };
  const org = await fetch(`${origin}/v1/admin/orgs`, { method: "POST", headers: admin, body: JSON.stringify({ slug: DEMO_ORG, name: "Demo Team", owner: DEMO_OWNER, portals: [demo.slug] }) });
  if (org.status >= 300) throw new Error(`creating the demo organisation failed: ${org.status} ${await org.text()}`);
  // Asked on the portal's custom domain (its Host header on 127.0.0.1: Node does not resolve *.localhost).
  const site = new URL(demo.site);
  for (const question of ["how do I cancel a shipment?", "how do labels work?", "what is a pickup?"]) {
    try {
      await new Promise((resolve, reject) => {
        const req = httpRequest(`${origin}/assistant/ask`, { method: "POST", headers: { host: site.host, origin: site.origin, "content-type": "application/json", accept: "application/json" } }, (res) => res.resume().on("end", resolve));
        req.on("error", reject);
        req.end(JSON.stringify({ question }));
      });
    } catch (error) {
      console.warn(`the demo's assistant question was not asked: ${error}`);
    }
  }
  const trialEndsAt = new Date(Date.now() + 10 * 86_400_000).toISOString();
  const plan = await fetch(`${origin}/v1/admin/orgs/${DEMO_ORG}`, { method: "PATCH", headers: admin, body: JSON.stringify({ trialEndsAt, creditsRemaining: 863 }) });
  if (plan.status !== 200) throw new Error(`setting the demo trial failed: ${plan.status} ${await plan.text()}`);
  // Colleagues for the member list's buttons: an editor who accepted the invitation, and one still pending.
  const listed = await (await fetch(`${origin}/v1/orgs/${DEMO_ORG}/members`, { headers: admin })).json();
  if (!listed.members.some((m) => m.email === DEMO_EDITOR)) {
    await fetch(`${origin}/v1/orgs/${DEMO_ORG}/members`, { method: "POST", headers: admin, body: JSON.stringify({ email: DEMO_EDITOR, role: "editor" }) });
    const invitation = await (await fetch(`${origin}/dev/outbox?to=${encodeURIComponent(DEMO_EDITOR)}&format=json`)).json();
    const accepted = await fetch(invitation[0].links[0], { redirect: "manual" });
    if (accepted.status !== 303) console.warn(`the demo editor's invitation was not accepted: ${accepted.status}`);
  }
  if (!listed.invitations.some((i) => i.email === DEMO_INVITED)) {
    await fetch(`${origin}/v1/orgs/${DEMO_ORG}/members`, { method: "POST", headers: admin, body: JSON.stringify({ email: DEMO_INVITED, role: "viewer" }) });
  }
  const ask = await fetch(`${origin}/v1/auth/magic-link`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: DEMO_OWNER, returnTo: `/app/orgs/${DEMO_ORG}` }) });
  if (ask.status !== 202) throw new Error(`the demo owner's sign-in link failed: ${ask.status}`);
  const mail = await (await fetch(`${origin}/dev/outbox?to=${encodeURIComponent(DEMO_OWNER)}&format=json`)).json();
  return mail[0].links[0];
}

const adminToken = devVarsToken();
run([join(root, "scripts/build-client.mjs")]);
run([bin("wrangler"), "d1", "migrations", "apply", "portico", "--local"]);
const child = spawn(node, [bin("wrangler"), "dev", "--ip", "127.0.0.1", "--port", String(port), "--var", `PORTICO_BASE_URL:${origin}`, "--show-interactive-dev-session=false"], {
  cwd: root,
  stdio: ["ignore", "inherit", "inherit"],
  env: childEnv,
});
// The demo's OAuth 2.0 authorization server (demo/content/portico.yaml `playground.oauth`, docs/playground.md):
// oauth2-mock-server on 127.0.0.1:4011, approving every sign-in at once; stopped when npm start stops.
const OAUTH_PORT = 4011;
const oauthServer = spawn(node, [bin("oauth2-mock-server"), "-a", "127.0.0.1", "-p", String(OAUTH_PORT)], { cwd: root, stdio: ["ignore", "ignore", "inherit"], env: childEnv });
oauthServer.on("exit", (code) => code && console.error(`oauth2-mock-server exited (${code}): is 127.0.0.1:${OAUTH_PORT} in use? The demo's OAuth sign-in will not work.`));
process.on("exit", () => oauthServer.kill());
// The demo API's Local mock (prism, request validation on); stopped with the portal.
let mock;
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => { child.kill(signal); void mock?.stop(); });
child.on("exit", async (code) => { await mock?.stop(); process.exit(code ?? 0); });
try {
  mock = await startLocalMock({ port: LOCAL_MOCK_PORT });
  await waitForHealthy(child, origin, 120_000);
  const { demo, result, portico, content } = await ensureDemo(adminToken);
  const dashboardLink = await ensureWorkspaceDemo(adminToken, demo);
  const embedPage = await startEmbedPage(demo);
  console.log(`
Portico is running.
  Dashboard:         ${dashboardLink}
                     (signs you in once as the demo owner ${DEMO_OWNER}: organisation "Demo Team", trial with 10 days left, some AI credits used, an editor and a pending invitation; the demo portal's versions and lint, content, access, branding, domain, Git and analytics pages under ${origin}/app/orgs/${DEMO_ORG}/portals/${demo.slug}; docs/workspace.md. Later links: ${origin}/app/signin, then ${origin}/dev/outbox?to=${DEMO_OWNER})
  Settings to edit:  ${origin}/app/orgs/${DEMO_ORG}/portals/${demo.slug}/access  gated sections (e.g. "/guides/partners: partners"), ways in, JWT readers (paste ${join(root, "demo/settings/jwks.json")}, issuer https://auth.demo.example/); .../branding  brand, logo and favicon (logo.svg, logo-dark.svg of the live release); every form also works without JavaScript (docs/workspace.md)
  Enterprise forms:  curl -X PATCH -H "Authorization: Bearer ${adminToken}" -H 'content-type: application/json' -d '{"plan":"enterprise"}' ${origin}/v1/admin/orgs/${DEMO_ORG}  then readers' SAML on the access page and the writers' SSO (with "Require single sign-on") at ${origin}/app/orgs/${DEMO_ORG}#sso: paste ${join(root, "demo/settings/idp-metadata.xml")}
  Portal:            ${demo.site}/  (the custom domain ${DEMO_HOSTNAME}, docs/domains.md; open it in Chromium)
  Service host:      ${origin}/p/${demo.slug}/  (redirects to the custom domain; the API stays at ${origin}/v1/)
  Demo reference:    ${result.url}
  Portico's own API: ${portico.url}  (openapi/portico.yaml: the /v1 service API and the reader JSON endpoints; the single-page layout, the demo's API the page-per-operation one)
  Demo guides:       ${demo.site}/guides/introduction  (${content.pages} guides, ${content.steps} code steps, ${content.changelog} changelog entries)
  Partners (gated):  ${demo.site}/guides/partners/volume-pricing  password: ${demo.password}  (or a magic link for any @example.com address)
  Sign readers out:  "Sign out" ends that reader's sessions everywhere; every reader: curl -X DELETE -H "Authorization: Bearer ${demo.token}" ${origin}/v1/portal/sessions  (docs/readers.md)
  Outbox (dev only): ${demo.site}/auth/outbox  (the magic-link emails)
  Search:            the box in every page's top bar, Ctrl/Cmd-K, or ${demo.site}/search?q=cancel+shipment
  Ask AI:            the "Ask AI" button in every page's top bar (or Ctrl/Cmd-I): try "how do I cancel a shipment that already has a label?"; partners questions ("what are the partner volume rates?") answer after signing in; no script: ${demo.site}/assistant?q=cancel+a+shipment+with+a+label  (docs/assistant.md)
  Analytics:         ${origin}/p/${demo.slug}/admin/analytics  (a month of seeded searches, clicks and page ratings; the no-hit backlog with drafts: ${origin}/p/${demo.slug}/admin/backlog; sign in with the upload token; docs/analytics.md)
  MCP server:        ${demo.site}/mcp  or ${origin}/p/${demo.slug}/mcp  (add it to Claude Code, Cursor, VS Code…: ${demo.site}/connect; discovery: ${demo.site}/.well-known/mcp; docs/mcp.md)
  MCP, signed in:    ${origin}/p/${demo.slug}/mcp/signed-in  (OAuth 2.1: the client registers, opens a browser where you sign in with the partners password above and Allow; then the partners section answers. e.g. npx mcp-inspector: transport "Streamable HTTP", that URL, "Connect"; docs/mcp.md)
  Embeds:            ${embedPage}  (another origin: <portico-search> and <portico-ask> with the public key ${demo.embedKey}; Docs API: ${demo.site}/api/v1/search?q=label)
  Branding:          demo/content/portico.yaml \`brand:\` (logo per theme, colours, links, brand.css), or PATCH /v1/portal {"brand": …} (docs/branding.md)
  Changes:           ${demo.site}/reference/${DEMO_API}/changes  (${PREVIOUS_VERSION} → 2.4.0; the changelog draft to review: ${origin}/p/${demo.slug}/admin/changelog, sign in with the upload token)
  OAuth (Try it):    http://127.0.0.1:${OAUTH_PORT}  (oauth2-mock-server: the demo's oauth2 scheme signs in there at once, client "portico-demo")
  Try it:            any operation's "Try it" panel; the "Local mock" server is prism on ${mock.url} (validating requests)
  Admin token:       ${adminToken}   (POST /v1/portals, PATCH /v1/admin/orgs/${DEMO_ORG} {"plan", "trialEndsAt", "creditsRemaining"})
  Demo upload token: ${demo.token}   (POST /v1/apis/upload)
  (Request.cf is miniflare's fixed local placeholder: no network lookup of Cloudflare's sample object.)
Upload a definition:
  curl -X POST --data-binary @openapi.yaml -H "Authorization: Bearer ${demo.token}" "${origin}/v1/apis/upload"
Git sync (docs/git.md): ${join(root, DEMO_GIT.dir)} is the demo's repository, connected as ${DEMO_GIT.repository}:
  ${port === 8787 ? "" : `PORT=${port} `}npm run demo:git   (commits a change on a branch, replays GitHub's push and pull_request webhooks: prints the preview URL and the check run; then opens a backlog draft as a pull request against the local GitHub stand-in and prints its URL)
Upload guides (docs/content.md):
  tar czf docs.tar.gz -C my-docs . && curl -X POST --data-binary @docs.tar.gz -H "Authorization: Bearer ${demo.token}" "${origin}/v1/content/upload"
`);
} catch (error) {
  console.error(String(error));
  child.kill("SIGTERM");
  process.exit(1);
}

/** Serves the embed test page on 127.0.0.1:EMBED_PORT (a "customer's site"); resolves with its URL. */
function startEmbedPage(demo) {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Acme help center (embed test)</title>
<style>body{font:16px system-ui;margin:40px auto;max-width:720px} portico-search{--portico-accent:#7c3aed}</style>
<script src="${demo.site}/embed.js" data-key="${demo.embedKey}" defer></script></head>
<body><main><h1>Acme help center</h1><p>This page is on another origin than the portal; the widgets below call its Docs API with a public key that lists this origin.</p>
<h2>Search</h2><portico-search placeholder="Search the Parcel docs"></portico-search>
<h2>Iframe mode</h2><portico-search mode="iframe"></portico-search>
<portico-ask></portico-ask></main></body></html>`;
  const server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html));
  return new Promise((resolve, reject) => {
    server.once("error", (e) => { console.error(`the embed test page could not listen on 127.0.0.1:${EMBED_PORT} (${e.code}); set EMBED_PORT`); resolve("(not started)"); });
    server.listen(EMBED_PORT, "127.0.0.1", () => resolve(`http://127.0.0.1:${EMBED_PORT}/`));
    void reject;
  });
}
