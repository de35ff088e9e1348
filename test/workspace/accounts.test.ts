/**
 * Writers' accounts (issue 32): magic link through the dev outbox, the session cookie, sign-out (one session and
 * everywhere), the same-origin check on cookie calls, and organisations with portals.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { asWriter, follow, lastMail, signIn } from "../harness/workspace";

describe("writer sign-in", () => {
  it("sends a one-time link through the outbox; following it sets an HttpOnly session cookie", async () => {
    const ask = await SELF.fetch(`${ORIGIN}/v1/auth/magic-link`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "Ada@Example.com" }) });
    expect(ask.status).toBe(202);
    const mail = await lastMail("ada@example.com");
    expect(mail.subject).toMatch(/Sign in/);
    expect(mail.links[0]).toMatch(/^http:\/\/portico\.test\/v1\/auth\/verify\?token=/);
    const html = await SELF.fetch(`${ORIGIN}/dev/outbox?to=ada@example.com`);
    expect(html.headers.get("content-type")).toMatch(/text\/html/);
    expect(await html.text()).toContain("Sign in to Portico");
    const first = await follow(mail.links[0]!);
    expect(first.res.status).toBe(303);
    expect(first.res.headers.get("location")).toBe("/app");
    const setCookie = first.res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    // Stored only as a hash.
    const token = first.cookie!.split("=")[1]!;
    const rows = await env.DB.prepare("SELECT token_hash FROM writer_sessions").all<{ token_hash: string }>();
    expect(rows.results.some((r) => r.token_hash.includes(token))).toBe(false);
    // A link works once.
    expect((await follow(mail.links[0]!)).res.status).toBe(400);
    const me = await asWriter(first.cookie!, "GET", "/v1/auth/session");
    expect(me.status).toBe(200);
    expect(((await me.json()) as any).writer.email).toBe("ada@example.com");
  });

  it("answers 400 for a bad address and never reveals whether an account exists", async () => {
    const bad = await SELF.fetch(`${ORIGIN}/v1/auth/magic-link`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "nope" }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).error.code).toBe("invalid-email");
  });

  it("signs one session out, or every session of the writer", async () => {
    const a = await signIn("bo@example.com");
    const b = await signIn("bo@example.com");
    const out = await asWriter(a, "POST", "/v1/auth/signout");
    expect(out.status).toBe(200);
    expect((await asWriter(a, "GET", "/v1/auth/session")).status).toBe(401);
    expect((await asWriter(b, "GET", "/v1/auth/session")).status).toBe(200);
    const c = await signIn("bo@example.com");
    expect((await asWriter(c, "POST", "/v1/auth/signout?everywhere=1")).status).toBe(200);
    expect((await asWriter(b, "GET", "/v1/auth/session")).status).toBe(401);
    expect((await asWriter(c, "GET", "/v1/auth/session")).status).toBe(401);
  });

  it("refuses a cookie call that changes something from another origin or without Origin", async () => {
    const cookie = await signIn("cy@example.com");
    const cross = await SELF.fetch(`${ORIGIN}/v1/orgs`, { method: "POST", headers: { cookie, origin: "https://evil.example", "content-type": "application/json" }, body: JSON.stringify({ name: "Evil" }) });
    expect(cross.status).toBe(403);
    expect(((await cross.json()) as any).error.code).toBe("cross-origin");
    const none = await SELF.fetch(`${ORIGIN}/v1/orgs`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ name: "Evil" }) });
    expect(none.status).toBe(403);
    expect((await asWriter(cookie, "POST", "/v1/orgs", { name: "Fine" })).status).toBe(201);
  });

  it("has no dev outbox outside PORTICO_ENVIRONMENT=local", async () => {
    const { workspaceRoutes } = await import("../../worker/routes/workspace");
    const res = await workspaceRoutes.request("/dev/outbox?to=a@b.c", {}, { ...env, PORTICO_ENVIRONMENT: "production" });
    expect(res.status).toBe(404);
    const json = await workspaceRoutes.request("/dev/outbox?to=a@b.c&format=json", {}, { ...env, PORTICO_ENVIRONMENT: "production" });
    expect(json.status).toBe(404);
  });
});

describe("organisations and their portals", () => {
  it("creates an organisation on a 14-day trial owned by its maker, and portals under it", async () => {
    const cookie = await signIn("dee@example.com");
    const res = await asWriter(cookie, "POST", "/v1/orgs", { name: "Acme Corp" });
    expect(res.status).toBe(201);
    const { org } = (await res.json()) as any;
    expect(org).toMatchObject({ id: "acme-corp", name: "Acme Corp", plan: "trial", status: "trialing", role: "owner", trialDaysLeft: 14 });
    const portal = await asWriter(cookie, "POST", `/v1/orgs/${org.id}/portals`, { slug: "acme-docs", name: "Acme Docs" });
    expect(portal.status).toBe(201);
    const body = (await portal.json()) as any;
    expect(body.portal).toMatchObject({ slug: "acme-docs", name: "Acme Docs", plan: "trial", trialEndsAt: org.trialEndsAt, org: "acme-corp" });
    expect(body.token).toMatch(/^ptk_/);
    const again = await asWriter(cookie, "POST", `/v1/orgs/${org.id}/portals`, { slug: "acme-docs", name: "x" });
    expect(again.status).toBe(409);
    const bad = await asWriter(cookie, "POST", `/v1/orgs/${org.id}/portals`, { slug: "Bad Slug", name: "x" });
    expect(((await bad.json()) as any).error.details.field).toBe("slug");
    // Same name again: a fresh slug.
    const twin = (await (await asWriter(cookie, "POST", "/v1/orgs", { name: "Acme Corp" })).json()) as any;
    expect(twin.org.id).toMatch(/^acme-corp-/);
    const list = (await (await asWriter(cookie, "GET", "/v1/orgs")).json()) as any;
    expect(list.orgs.map((o: any) => o.id).sort()).toEqual(["acme-corp", twin.org.id].sort());
    const read = (await (await asWriter(cookie, "GET", `/v1/orgs/${org.id}`)).json()) as any;
    expect(read.organisation.portals).toEqual(["acme-docs"]);
    expect(read.org.plan).toBe("trial");
    // Another writer sees nothing of it.
    const other = await signIn("eve@example.com");
    expect((await asWriter(other, "GET", `/v1/orgs/${org.id}`)).status).toBe(404);
    expect((await asWriter(other, "POST", `/v1/orgs/${org.id}/portals`, { slug: "eve-docs", name: "x" })).status).toBe(404);
  });
});
