/**
 * MCP over HTTP against `wrangler dev`, as a newcomer's AI tool uses it on the demo: the official TypeScript client's
 * OAuth support connects to `/mcp/signed-in`, registers, and hands the authorization URL to Chromium, where the reader
 * signs in with the partners password and clicks Allow (the consent page's CSP must let that redirect reach the
 * client's loopback callback); the client then reads the partners guide. Then `mcp-inspector --cli` (the official
 * inspector's CLI mode) lists the tools and calls one, anonymously and with the client's token.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { UnauthorizedError, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baseUrl, collectErrors, demoSuite } from "./browser";

const PORTAL = "mcp-oauth-e2e";
const PASSWORD = "partners-e2e-password";
const INSPECTOR = fileURLToPath(new URL("../../node_modules/.bin/mcp-inspector", import.meta.url));
const run = promisify(execFile);

/** A CLI client's OAuth state, in memory. */
class MemoryProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(readonly redirectUrl: string) {}
  get clientMetadata(): OAuthClientMetadata {
    return { redirect_uris: [this.redirectUrl], client_name: "Portico e2e client", token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] };
  }
  state() { return "e2e-state"; }
  clientInformation() { return this.info; }
  saveClientInformation(info: OAuthClientInformationMixed) { this.info = info; }
  tokens() { return this.saved; }
  saveTokens(tokens: OAuthTokens) { this.saved = tokens; }
  redirectToAuthorization(url: URL) { this.authorizationUrl = url; }
  saveCodeVerifier(v: string) { this.verifier = v; }
  codeVerifier() { return this.verifier; }
}

const suite = demoSuite(PORTAL, async (token) => {
  const patch = await fetch(`${baseUrl()}/v1/portal`, {
    method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ access: { password: PASSWORD, passwordAudiences: ["partners"] } }),
  });
  if (patch.status !== 200) throw new Error(`access: ${patch.status} ${await patch.text()}`);
});

let callback: Server;
const returned: URLSearchParams[] = [];

beforeAll(async () => {
  // The client's loopback redirect URI (RFC 8252), as a CLI client listens for it.
  callback = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/callback") returned.push(url.searchParams); // not the browser's favicon request
    res.writeHead(200, { "content-type": "text/plain" }).end("You can close this tab.");
  });
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
});

afterAll(() => new Promise<void>((resolve) => callback.close(() => resolve())));

describe("MCP OAuth over HTTP", () => {
  it("signs the reader in from the official client through Chromium, then reads the partners guide; the inspector CLI lists and calls tools", async () => {
    const redirect = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    const provider = new MemoryProvider(redirect);
    const url = new URL(`${baseUrl()}/p/${PORTAL}/mcp/signed-in`);
    await expect(new Client({ name: "e2e", version: "1.0.0" }).connect(new StreamableHTTPClientTransport(url, { authProvider: provider }))).rejects.toThrow(UnauthorizedError);
    expect(provider.authorizationUrl).toBeDefined();

    const page = await suite.browser.newPage();
    const errors = collectErrors(page);
    await page.goto(String(provider.authorizationUrl));
    await expect.poll(() => page.url()).toContain("/auth/signin");
    await page.fill("#signin-password", PASSWORD);
    await page.locator('form[action$="/auth/password"] button[type=submit]').click();
    await page.waitForURL(/\/oauth\/authorize\?/);
    expect(await page.locator("h1").textContent()).toBe("Allow Portico e2e client to read these docs?");
    await Promise.all([page.waitForURL((u) => u.href.startsWith(redirect)), page.locator("button[value=allow]").click()]);
    expect(returned.at(-1)?.get("state")).toBe("e2e-state");
    const code = returned.at(-1)?.get("code");
    expect(code).toBeTruthy();
    expect(errors).toEqual([]);
    await page.close();

    await new StreamableHTTPClientTransport(url, { authProvider: provider }).finishAuth(code!);
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const guide = await client.callTool({ name: "get_page", arguments: { url: `/p/${PORTAL}/guides/partners/volume-pricing#your-rate-card` } });
    expect(guide.isError).toBeFalsy();
    expect(guide.structuredContent).toMatchObject({ title: "Partner volume pricing", section: "Your rate card" });
    await client.close();

    // The inspector's CLI mode: the tools anonymously at /mcp, a gated page with the client's token at /mcp/signed-in.
    const listed = await run(INSPECTOR, ["--cli", `${baseUrl()}/p/${PORTAL}/mcp`, "--transport", "http", "--method", "tools/list"], { timeout: 60_000 });
    const names = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name).sort();
    expect(names).toEqual(["ask_assistant", "get_operation", "get_page", "list_apis", "search_docs"]);
    const called = await run(INSPECTOR, [
      "--cli", String(url), "--transport", "http", "--header", `Authorization: Bearer ${provider.saved!.access_token}`,
      "--method", "tools/call", "--tool-name", "get_page", "--tool-arg", `url=/p/${PORTAL}/guides/partners/volume-pricing`,
    ], { timeout: 60_000 });
    expect(called.stdout).toContain("Partners shipping more than 10,000 parcels a month");
  });
});
