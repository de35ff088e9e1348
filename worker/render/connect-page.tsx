/**
 * @module "Connect your AI tool" (`GET /p/{portal}/connect`, issue 31): the portal's MCP endpoint with copy-paste
 * configuration for common clients, what its tools do, the embed snippet and the Docs API, in the reader shell.
 */
import { renderToString } from "preact-render-to-string";
import CopyButton from "../../client/islands/copy";
import { Code } from "./components/code";
import { Island } from "./components/island";
import { minimalChrome } from "./shell/chrome";
import { shellDocument } from "./shell/document";
import { ReaderShell } from "./shell/reader-shell";
import type { ShellChrome } from "./shell/types";

/** What the page shows. */
export interface ConnectPageProps {
  basePath: string;
  portalName: string;
  /** The MCP endpoint (absolute). */
  mcpUrl: string;
  /** The embed script (absolute). */
  embedUrl: string;
  /** The Docs API base (absolute). */
  docsApiUrl: string;
  /** A private portal: clients must send a reader token. */
  tokenRequired: boolean;
  /**
   * The MCP URL whose client signs the reader in through the portal's OAuth authorization server (the endpoint itself
   * on a private portal, its `/signed-in` twin on a public one); absent when the portal has no reader sign-in.
   */
  signInUrl?: string;
  tools: { name: string; description: string }[];
  chrome?: ShellChrome;
}

let blocks = 0;

function Snippet({ text }: { text: string }) {
  const id = `connect-${++blocks}`;
  return <div class="connect-snippet"><pre tabIndex={0}><Code id={id} text={text} /></pre><Island name="copy" component={CopyButton} props={{ target: id }} /></div>;
}

/** The short name clients list the server under (letters, digits and dashes). */
export function serverName(portalName: string): string {
  return portalName.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "docs";
}

/** The whole page. */
export function renderConnectPage(p: ConnectPageProps): string {
  blocks = 0;
  const chrome = p.chrome ?? minimalChrome(p.portalName, p.basePath);
  const name = serverName(p.portalName);
  // With sign-in through OAuth the client needs no header; without it a private portal needs a minted reader JWT.
  const header = p.tokenRequired && !p.signInUrl ? { Authorization: "Bearer <reader JWT>" } : undefined;
  const cursor = JSON.stringify({ mcpServers: { [name]: { url: p.mcpUrl, ...(header ? { headers: header } : {}) } } }, null, 2);
  const vscode = JSON.stringify({ servers: { [name]: { type: "http", url: p.mcpUrl, ...(header ? { headers: header } : {}) } } }, null, 2);
  const claude = `claude mcp add --transport http ${name} ${p.mcpUrl}${header ? ` --header "Authorization: Bearer <reader JWT>"` : ""}`;
  const embed = `<script src="${p.embedUrl}" data-key="pk_…" defer></script>\n<portico-search></portico-search>\n<portico-ask></portico-ask>`;
  const body = renderToString(
    <ReaderShell chrome={chrome} crumbs={[{ title: "Home", href: `${p.basePath}/` }, { title: "Connect your AI tool" }]}>
      <h1>Connect your AI tool</h1>
      <p>These docs are an MCP server (Model Context Protocol, Streamable HTTP): AI assistants and editors can search them, read pages and API operations, and ask the docs assistant.</p>
      <h2 id="url">Server URL</h2>
      <Snippet text={p.mcpUrl} />
      {p.signInUrl && (
        <>
          <h2 id="sign-in">{p.tokenRequired ? "Sign in from your AI tool" : "Read the signed-in sections"}</h2>
          <p>
            {p.tokenRequired ? "These docs are private. " : "Some sections need a sign-in. "}
            Add this URL{p.tokenRequired ? "" : " instead"}: your AI tool opens a browser where you sign in to these docs and allow it (OAuth). It then reads what you may read, until your sign-in ends.
          </p>
          <Snippet text={p.signInUrl} />
        </>
      )}
      {p.tokenRequired && <p>For automation, a server can send a reader token instead, as <code>{"Authorization: Bearer <JWT>"}</code>, signed with the portal's JWT settings (the same claims as its JWT sign-in). Ask the team that runs these docs for one.</p>}
      <h2 id="claude-code">Claude Code</h2>
      <Snippet text={claude} />
      <h2 id="claude">Claude and ChatGPT (custom connectors)</h2>
      <p>In the app's settings, add a custom connector (Claude: Settings → Connectors; ChatGPT: Settings → Connectors, developer mode) with the server URL above.</p>
      <h2 id="cursor">Cursor</h2>
      <p>In <code>~/.cursor/mcp.json</code> (or the project's <code>.cursor/mcp.json</code>):</p>
      <Snippet text={cursor} />
      <h2 id="vscode">VS Code</h2>
      <p>In the workspace's <code>.vscode/mcp.json</code>:</p>
      <Snippet text={vscode} />
      <h2 id="tools">Tools</h2>
      <dl>{p.tools.map((t) => <><dt><code>{t.name}</code></dt><dd>{t.description}</dd></>)}</dl>
      <h2 id="embed">Search and Ask AI on your own site</h2>
      <p>Create a public key for your site's origin (<code>POST /v1/portal/keys</code>), then add:</p>
      <Snippet text={embed} />
      <p>The Docs API behind it is at <code>{p.docsApiUrl}</code> (<code>/search</code>, <code>/pages</code>, <code>/apis</code>, <code>/ask</code>).</p>
    </ReaderShell>,
  );
  return shellDocument(chrome, { title: `Connect your AI tool · ${chrome.name}` }, body);
}
