/**
 * Tokens with scopes (issue 32): shown once, hashed at rest, last used, expiry, 403 `scope-required`; a portal's
 * first token and older tokens act as `manage`; token changes are audited.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "../harness/client";
import { asWriter, ownerWithPortal } from "../harness/workspace";

const DEF = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      operationId: getA\n      responses: {'200': {description: ok}}\n";

function bearer(token: string, method: string, path: string, body?: BodyInit, type = "application/json"): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": type }, ...(body === undefined ? {} : { body }) });
}

describe("tokens", () => {
  it("makes a named token with scopes, shown once and stored as a hash, listed with last use", async () => {
    const { cookie, portal } = await ownerWithPortal("tok1@example.com", "tokens-a");
    const res = await asWriter(cookie, "POST", "/v1/tokens", { portal, name: "CI publish", scopes: ["publish:apis"] });
    expect(res.status).toBe(201);
    const made = (await res.json()) as any;
    expect(made).toMatchObject({ name: "CI publish", scopes: ["publish:apis"], portal, lastUsedAt: null, expiresAt: null });
    expect(made.token).toMatch(/^ptk_/);
    const stored = await env.DB.prepare("SELECT token_hash FROM portal_tokens WHERE id = ?").bind(made.id).first<{ token_hash: string }>();
    expect(stored!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await upload(made.token, DEF, { api: "a" })).status).toBe(201);
    const list = (await (await asWriter(cookie, "GET", `/v1/tokens?portal=${portal}`)).json()) as any;
    const listed = list.tokens.find((t: any) => t.id === made.id);
    expect(listed.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(list)).not.toContain(made.token);
    expect(list.tokens.some((t: any) => t.scopes.includes("manage"))).toBe(true); // the portal's first token
  });

  it("answers 403 scope-required beyond the token's scopes, and keeps old tokens working as manage", async () => {
    const { cookie, portal } = await ownerWithPortal("tok2@example.com", "tokens-b");
    const content = (await (await asWriter(cookie, "POST", "/v1/tokens", { portal, name: "docs", scopes: ["publish:content"] })).json()) as any;
    const refused = await upload(content.token, DEF, { api: "a" });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toMatchObject({ code: "scope-required", details: { scope: "publish:apis" } });
    const patch = await bearer(content.token, "PATCH", "/v1/portal", JSON.stringify({ externalImages: true }));
    expect(patch.status).toBe(403);
    expect((await bearer(content.token, "GET", "/v1/portal")).status).toBe(200);
    // A portal made by the admin, and its token, as before issue 32.
    const old = await createPortal("tokens-old");
    expect((await upload(old, DEF, { api: "a" })).status).toBe(201);
    expect((await bearer(old, "PATCH", "/v1/portal", JSON.stringify({ externalImages: true }))).status).toBe(200);
  });

  it("refuses an expired token, and a revoked one", async () => {
    const { cookie, portal } = await ownerWithPortal("tok3@example.com", "tokens-c");
    const past = await asWriter(cookie, "POST", "/v1/tokens", { portal, name: "old", scopes: ["manage"], expiresAt: "2020-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    const soon = (await (await asWriter(cookie, "POST", "/v1/tokens", { portal, name: "soon", scopes: ["manage"], expiresAt: new Date(Date.now() + 60_000).toISOString() })).json()) as any;
    expect((await bearer(soon.token, "GET", "/v1/portal")).status).toBe(200);
    await env.DB.prepare("UPDATE portal_tokens SET expires_at = ? WHERE id = ?").bind(new Date(Date.now() - 1000).toISOString(), soon.id).run();
    expect((await bearer(soon.token, "GET", "/v1/portal")).status).toBe(401);
    const gone = (await (await asWriter(cookie, "POST", "/v1/tokens", { portal, name: "gone", scopes: ["manage"] })).json()) as any;
    expect((await asWriter(cookie, "DELETE", `/v1/tokens/${gone.id}`)).status).toBe(204);
    expect((await bearer(gone.token, "GET", "/v1/portal")).status).toBe(401);
  });

  it("lets an editor grant publishing scopes but not manage; a manage token manages its own portal's tokens only", async () => {
    const { cookie, org, portal, token } = await ownerWithPortal("tok4@example.com", "tokens-d");
    await asWriter(cookie, "POST", `/v1/orgs/${org}/members`, { email: "ed4@example.com", role: "editor" });
    const { lastMail, follow } = await import("../harness/workspace");
    const ed = (await follow((await lastMail("ed4@example.com")).links[0]!)).cookie!;
    expect((await asWriter(ed, "POST", "/v1/tokens", { portal, name: "x", scopes: ["manage"] })).status).toBe(403);
    expect((await asWriter(ed, "POST", "/v1/tokens", { portal, name: "x", scopes: ["publish:apis", "publish:content"] })).status).toBe(201);
    expect((await bearer(token, "POST", "/v1/tokens", JSON.stringify({ portal, name: "by token", scopes: ["read:analytics"] }))).status).toBe(201);
    const other = await createPortal("tokens-e");
    expect((await bearer(other, "GET", `/v1/tokens?portal=${portal}`)).status).toBe(404);
    const bad = await asWriter(cookie, "POST", "/v1/tokens", { portal, name: "x", scopes: ["root"] });
    expect(((await bad.json()) as any).error.code).toBe("invalid-scopes");
  });

  it("audits token changes and changes made with a token", async () => {
    const { cookie, org, portal } = await ownerWithPortal("tok5@example.com", "tokens-f");
    const ci = (await (await asWriter(cookie, "POST", "/v1/tokens", { portal, name: "CI", scopes: ["publish:apis"] })).json()) as any;
    expect((await upload(ci.token, DEF, { api: "a" })).status).toBe(201);
    await asWriter(cookie, "DELETE", `/v1/tokens/${ci.id}`);
    // The token call's entry is written after the answer.
    await new Promise((r) => setTimeout(r, 50));
    const audit = (await (await asWriter(cookie, "GET", `/v1/audit?org=${org}`)).json()) as any;
    const seen = audit.entries.map((e: any) => `${e.actorType}:${e.actor}:${e.action}`);
    expect(seen).toContain("writer:tok5@example.com:token.create");
    expect(seen).toContain("writer:tok5@example.com:token.revoke");
    expect(seen).toContain("token:CI:POST /v1/apis/upload");
    expect(seen).toContain("writer:tok5@example.com:portal.create");
    expect(seen).toContain("writer:tok5@example.com:org.create");
    const fromToken = audit.entries.find((e: any) => e.actorType === "token");
    expect(fromToken).toMatchObject({ tokenId: ci.id, portal });
  });
});
