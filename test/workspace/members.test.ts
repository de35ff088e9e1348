/**
 * Members (issue 32): invitations by e-mail accepted through the link, the last owner, and the role matrix: each
 * role against each workspace route, allowed (2xx) or refused (403).
 */
import { describe, expect, it } from "vitest";
import { asAdmin, asWriter, follow, lastMail, ownerWithPortal, signIn } from "../harness/workspace";

async function invite(owner: string, org: string, email: string, role: string): Promise<string> {
  const res = await asWriter(owner, "POST", `/v1/orgs/${org}/members`, { email, role });
  expect(res.status).toBe(201);
  const mail = await lastMail(email);
  expect(mail.subject).toMatch(/Join/);
  const { res: accepted, cookie } = await follow(mail.links[0]!);
  expect(accepted.status).toBe(303);
  expect(accepted.headers.get("location")).toBe(`/app/orgs/${org}`);
  return cookie!;
}

async function memberId(cookie: string, org: string, email: string): Promise<number> {
  const body = (await (await asWriter(cookie, "GET", `/v1/orgs/${org}/members`)).json()) as any;
  return body.members.find((m: any) => m.email === email).id;
}

describe("members", () => {
  it("invites by e-mail; the link makes a member with the role and signs them in, once", async () => {
    const { cookie: owner, org } = await ownerWithPortal("own1@example.com", "members-a");
    const ed = await invite(owner, org, "ed1@example.com", "editor");
    const list = (await (await asWriter(ed, "GET", `/v1/orgs/${org}/members`)).json()) as any;
    expect(list.members.map((m: any) => [m.email, m.role])).toEqual([["ed1@example.com", "editor"], ["own1@example.com", "owner"]]);
    expect(list.invitations).toEqual([]); // an editor does not see pending invitations
    const mail = await lastMail("ed1@example.com");
    expect((await follow(mail.links[0]!)).res.status).toBe(400);
    const bad = await asWriter(owner, "POST", `/v1/orgs/${org}/members`, { email: "x@example.com", role: "king" });
    expect(((await bad.json()) as any).error).toMatchObject({ code: "invalid-role", details: { field: "role" } });
  });

  it("never lets the last owner leave or step down; with a second owner they may", async () => {
    const { cookie: owner, org } = await ownerWithPortal("own2@example.com", "members-b");
    const me = await memberId(owner, org, "own2@example.com");
    const leave = await asWriter(owner, "DELETE", `/v1/orgs/${org}/members/${me}`);
    expect(leave.status).toBe(409);
    expect(((await leave.json()) as any).error.code).toBe("last-owner");
    const down = await asWriter(owner, "PATCH", `/v1/orgs/${org}/members/${me}`, { role: "admin" });
    expect(down.status).toBe(409);
    const second = await invite(owner, org, "own2b@example.com", "owner");
    expect((await asWriter(owner, "DELETE", `/v1/orgs/${org}/members/${me}`)).status).toBe(204);
    expect((await asWriter(owner, "GET", `/v1/orgs/${org}`)).status).toBe(404);
    const other = await memberId(second, org, "own2b@example.com");
    expect((await asWriter(second, "DELETE", `/v1/orgs/${org}/members/${other}`)).status).toBe(409);
  });

  it("an admin cannot make, unmake or remove an owner", async () => {
    const { cookie: owner, org } = await ownerWithPortal("own3@example.com", "members-c");
    const admin = await invite(owner, org, "adm3@example.com", "admin");
    const ownerId = await memberId(owner, org, "own3@example.com");
    expect((await asWriter(admin, "PATCH", `/v1/orgs/${org}/members/${ownerId}`, { role: "viewer" })).status).toBe(403);
    expect((await asWriter(admin, "DELETE", `/v1/orgs/${org}/members/${ownerId}`)).status).toBe(403);
    expect((await asWriter(admin, "POST", `/v1/orgs/${org}/members`, { email: "o@example.com", role: "owner" })).status).toBe(403);
  });
});

describe("role matrix", () => {
  it("allows each route to exactly the roles the table names", async () => {
    const { cookie: owner, org, portal } = await ownerWithPortal("own4@example.com", "matrix");
    const cookies: Record<string, string> = { owner };
    for (const role of ["admin", "editor", "viewer"]) cookies[role] = await invite(owner, org, `${role}4@example.com`, role);
    await invite(owner, org, "target4@example.com", "viewer");
    const target = await memberId(owner, org, "target4@example.com");
    let n = 0;
    const routes: Array<{ name: string; call: (c: string) => Promise<Response>; allowed: string[] }> = [
      { name: "read org", call: (c) => asWriter(c, "GET", `/v1/orgs/${org}`), allowed: ["owner", "admin", "editor", "viewer"] },
      { name: "list portals", call: (c) => asWriter(c, "GET", `/v1/orgs/${org}/portals`), allowed: ["owner", "admin", "editor", "viewer"] },
      { name: "create portal", call: (c) => asWriter(c, "POST", `/v1/orgs/${org}/portals`, { slug: `matrix-${++n}`, name: "M" }), allowed: ["owner", "admin"] },
      { name: "list members", call: (c) => asWriter(c, "GET", `/v1/orgs/${org}/members`), allowed: ["owner", "admin", "editor", "viewer"] },
      { name: "invite", call: (c) => asWriter(c, "POST", `/v1/orgs/${org}/members`, { email: `new${++n}@example.com`, role: "viewer" }), allowed: ["owner", "admin"] },
      { name: "change role", call: (c) => asWriter(c, "PATCH", `/v1/orgs/${org}/members/${target}`, { role: "viewer" }), allowed: ["owner", "admin"] },
      { name: "list tokens", call: (c) => asWriter(c, "GET", `/v1/tokens?portal=${portal}`), allowed: ["owner", "admin", "editor"] },
      { name: "create token", call: (c) => asWriter(c, "POST", "/v1/tokens", { portal, name: "ci", scopes: ["publish:apis"] }), allowed: ["owner", "admin", "editor"] },
      { name: "audit", call: (c) => asWriter(c, "GET", `/v1/audit?org=${org}`), allowed: ["owner", "admin"] },
      { name: "usage", call: (c) => asWriter(c, "GET", `/v1/orgs/${org}/usage`), allowed: ["owner", "admin", "editor", "viewer"] },
      { name: "admin override", call: (c) => asWriter(c, "PATCH", `/v1/admin/orgs/${org}`, { plan: "pro" }), allowed: [] },
    ];
    const table: string[] = [];
    for (const route of routes) {
      for (const role of ["owner", "admin", "editor", "viewer"]) {
        const res = await route.call(cookies[role]!);
        const ok = res.status >= 200 && res.status < 300;
        if (ok !== route.allowed.includes(role) || (!ok && res.status !== 403)) table.push(`${route.name} as ${role}: ${res.status}`);
      }
    }
    expect(table).toEqual([]);
  });

  it("the service admin may do everything, a stranger nothing", async () => {
    const { org } = await ownerWithPortal("own5@example.com", "matrix-b");
    expect((await asAdmin("GET", `/v1/orgs/${org}/members`)).status).toBe(200);
    expect((await asAdmin("GET", `/v1/audit?org=${org}`)).status).toBe(200);
    const stranger = await signIn("stranger5@example.com");
    expect((await asWriter(stranger, "GET", `/v1/orgs/${org}/members`)).status).toBe(404);
  });
});
