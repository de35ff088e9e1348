import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN } from "../harness/client";
import { parseGitConnection, branchSlug } from "../../worker/git/config";
import { toPkcs8, appJwt } from "../../worker/git/github";
import { decodeJwt, decodeProtectedHeader, importPKCS8 } from "jose";
import { fake, PATHS, repoOf } from "./helpers";

const REPO = repoOf("connect");

const api = (token: string, method: string, body?: unknown) =>
  SELF.fetch(`${ORIGIN}/v1/portal/git`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

describe("PUT/GET/DELETE /v1/portal/git", () => {
  it("connects a repository, shows it without secrets, and disconnects", async () => {
    const token = await createPortal("git-connect");
    const put = await api(token, "PUT", { provider: "github", apiUrl: fake().origin, repository: REPO, installationId: 5, paths: PATHS, previews: "all-branches" });
    expect(put.status).toBe(200);
    const { git } = (await put.json()) as any;
    expect(git).toMatchObject({ provider: "github", repository: REPO, installationId: 5, productionBranch: "main", previews: "all-branches", releases: true, paths: PATHS, blocking: ["lint", "broken-links", "undocumented-operations"] });
    expect(git.webhookUrl).toBe("http://portico.test/v1/git/github/webhook");
    expect(git.secretsConfigured).toEqual({ GITHUB_APP_ID: true, GITHUB_APP_PRIVATE_KEY: true, GITHUB_WEBHOOK_SECRET: true });
    const text = await (await api(token, "GET")).text();
    expect(text).not.toContain(env.GITHUB_WEBHOOK_SECRET!);
    expect(text).not.toContain("PRIVATE KEY");
    expect((await api(token, "DELETE")).status).toBe(200);
    expect((await api(token, "GET")).status).toBe(404);
  });

  it("refuses bad bodies with the field named, and needs a portal token", async () => {
    const token = await createPortal("git-connect-bad");
    const bad = async (body: unknown) => ((await (await api(token, "PUT", body)).json()) as any).error;
    expect(await bad({ provider: "svn" })).toMatchObject({ code: "invalid-git-connection", message: expect.stringContaining("provider") });
    expect((await bad({ provider: "github", repository: "nope", installationId: 1, paths: PATHS })).message).toContain("repository");
    expect((await bad({ provider: "github", repository: REPO, paths: PATHS })).message).toContain("installationId");
    expect((await bad({ provider: "github", repository: REPO, installationId: 1, paths: { definitions: [{ api: "x", file: "../etc/passwd" }] } })).message).toContain("..");
    expect((await bad({ provider: "github", repository: REPO, installationId: 1, paths: PATHS, secret: "x" })).message).toContain("unknown field");
    expect((await bad({ provider: "github", repository: REPO, installationId: 1, paths: PATHS, apiUrl: "http://example.com" })).message).toContain("https");
    expect((await bad({ provider: "github", repository: REPO, installationId: 1, paths: PATHS, apiUrl: "https://169.254.169.254" })).message).toContain("169.254.169.254");
    expect((await SELF.fetch(`${ORIGIN}/v1/portal/git`)).status).toBe(401);
  });

  it("accepts a loopback or private apiUrl only in the local environment", () => {
    const body = { provider: "github", repository: REPO, installationId: 1, paths: PATHS, apiUrl: "http://127.0.0.1:9999" };
    expect(parseGitConnection(body, true).apiUrl).toBe("http://127.0.0.1:9999");
    expect(() => parseGitConnection(body, false)).toThrow(/PORTICO_ENVIRONMENT/);
    expect(() => parseGitConnection({ ...body, apiUrl: "https://localhost" }, false)).toThrow(/loopback/);
    expect(() => parseGitConnection({ ...body, apiUrl: "https://10.0.0.8/api/v3" }, false)).toThrow(/private/);
    expect(parseGitConnection({ ...body, apiUrl: "https://github.example.com/api/v3" }, false).apiUrl).toBe("https://github.example.com/api/v3");
  });

  it("slugs branch names for preview URLs", () => {
    expect(branchSlug("feature/Returns_v2")).toBe("feature-returns-v2");
    expect(branchSlug("///")).toBe("branch");
    expect(branchSlug("a".repeat(100))).toHaveLength(63);
  });
});

describe("the GitHub App's key and JWT", () => {
  it("converts GitHub's PKCS#1 .pem to PKCS#8 and signs an RS256 app JWT with it", async () => {
    const pkcs1 = env.GITHUB_APP_PRIVATE_KEY!;
    expect(pkcs1).toContain("BEGIN RSA PRIVATE KEY");
    const pkcs8 = toPkcs8(pkcs1);
    expect(pkcs8).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    await importPKCS8(pkcs8, "RS256");
    expect(toPkcs8(pkcs8)).toBe(pkcs8);
    expect(toPkcs8(pkcs1.replace(/\n/g, "\\n"))).toBe(pkcs8);
    expect(() => toPkcs8("not a key")).toThrow(/PEM/);
    const jwt = await appJwt("424242", pkcs1, 1_800_000_000);
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: "RS256" });
    expect(decodeJwt(jwt)).toMatchObject({ iss: "424242", iat: 1_800_000_000 - 60, exp: 1_800_000_000 + 540 });
  });
});
