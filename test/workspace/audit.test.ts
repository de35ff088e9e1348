/** The audit log (issue 32): who may read it, the date range, and the one-year retention the scheduled run applies. */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { pruneAuditLog } from "../../worker/workspace/audit";
import { asAdmin, asWriter, ownerWithPortal } from "../harness/workspace";

describe("audit log", () => {
  it("lists an organisation's entries in a range, and keeps them one year", async () => {
    const { cookie, org } = await ownerWithPortal("audit1@example.com", "audit-a");
    await asWriter(cookie, "POST", `/v1/orgs/${org}/members`, { email: "new1@example.com", role: "editor" });
    const orgId = (await env.DB.prepare("SELECT id FROM organisations WHERE slug = ?").bind(org).first<{ id: number }>())!.id;
    const old = new Date(Date.now() - 366 * 86_400_000).toISOString();
    await env.DB.prepare("INSERT INTO audit_log (organisation_id, at, actor_type, actor, action) VALUES (?, ?, 'writer', 'ghost@example.com', 'member.invite')").bind(orgId, old).run();
    const all = (await (await asWriter(cookie, "GET", `/v1/audit?org=${org}`)).json()) as any;
    expect(all.entries.map((e: any) => e.action)).toEqual(["member.invite", "portal.create", "org.create", "member.invite"]);
    expect(all.entries[0]).toMatchObject({ actorType: "writer", actor: "audit1@example.com", target: "new1@example.com", details: { role: "editor" } });
    const recent = (await (await asWriter(cookie, "GET", `/v1/audit?org=${org}&from=${new Date(Date.now() - 86_400_000).toISOString()}`)).json()) as any;
    expect(recent.entries).toHaveLength(3);
    expect((await asWriter(cookie, "GET", `/v1/audit?org=${org}&from=yesterday`)).status).toBe(400);
    expect(await pruneAuditLog(env.DB)).toBeGreaterThanOrEqual(1);
    const kept = (await (await asAdmin("GET", `/v1/audit?org=${org}`)).json()) as any;
    expect(kept.entries.map((e: any) => e.actor)).not.toContain("ghost@example.com");
    expect(kept.entries).toHaveLength(3);
  });

  it("is for owners and admins; the CSV export is Enterprise's", async () => {
    const { cookie, org } = await ownerWithPortal("audit2@example.com", "audit-b");
    const csv = await asWriter(cookie, "GET", `/v1/audit?org=${org}&format=csv`);
    expect(csv.status).toBe(403);
    expect(((await csv.json()) as any).error.details.plan).toBe("enterprise");
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "enterprise" });
    const ok = await asWriter(cookie, "GET", `/v1/audit?org=${org}&format=csv`);
    expect(ok.headers.get("content-type")).toMatch(/text\/csv/);
    const text = await ok.text();
    expect(text.split("\r\n")[0]).toBe("at,actorType,actor,tokenId,action,target,portal,details");
    expect(text).toContain('"org.plan"');
  });
});
