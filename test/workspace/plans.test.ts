/**
 * Plans (issue 32): every gated feature with each plan (403 `plan-required` naming the plan), trial expiry and
 * restore (the trial's end moved by the service admin; the clock of pure checks injected), and AI credits metered
 * exactly under concurrency with a monthly reset on the 1st, UTC.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { orgCredits } from "../../worker/workspace/credits";
import { can, planStatus } from "../../worker/workspace/plans";
import { ORIGIN, upload } from "../harness/client";
import { asAdmin, asWriter, ownerWithPortal } from "../harness/workspace";

const DEF = "openapi: 3.1.0\ninfo: {title: Pets, version: '1'}\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      summary: List all pets in the store\n      responses: {'200': {description: The pets}}\n";
const DAY = 86_400_000;

function bearer(token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
}
const ask = (portal: string) => SELF.fetch(`${ORIGIN}/p/${portal}/assistant/ask`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify({ question: "How do I list pets?" }) });

describe("can(org, feature)", () => {
  it("follows the plan table, a running trial has Pro, an ended one nothing gated (injected clock)", () => {
    const now = new Date("2026-11-27T12:00:00Z");
    const trial = { plan: "trial", trialEndsAt: "2026-12-07T12:00:00Z" };
    expect(planStatus(trial, now)).toMatchObject({ status: "trialing", daysLeft: 10 });
    expect(can(trial, "assistant", now)).toBe(true);
    expect(can(trial, "saml", now)).toBe(false);
    const later = new Date("2026-12-08T00:00:00Z");
    expect(planStatus(trial, later).status).toBe("trial-ended");
    expect(can(trial, "reference", later)).toBe(false);
    expect(planStatus(trial, new Date("2027-01-07T00:00:00Z")).status).toBe("paused");
    expect(can({ plan: "starter", trialEndsAt: null }, "playground", now)).toBe(true);
    expect(can({ plan: "starter", trialEndsAt: null }, "assistant", now)).toBe(false);
    expect(can({ plan: "team", trialEndsAt: null }, "assistant", now)).toBe(false);
    expect(can({ plan: "enterprise", trialEndsAt: null }, "org-search", now)).toBe(true);
  });
});

describe("gated routes with each plan", () => {
  it("answer 403 plan-required naming the plan, or let the call through", async () => {
    const { cookie, org, portal, token } = await ownerWithPortal("plans1@example.com", "plans-a");
    expect((await upload(token, DEF, { api: "pets" })).status).toBe(201);
    const calls: Record<string, { plan: string; call: () => Promise<Response> }> = {
      assistant: { plan: "pro", call: () => ask(portal) },
      "custom-domain": { plan: "pro", call: () => bearer(token, "PUT", "/v1/portal/domain", { hostname: "docs.plans-a.example" }) },
      saml: { plan: "enterprise", call: () => bearer(token, "PUT", "/v1/portal/sso", {}) },
      "reader-magic-link": { plan: "pro", call: () => bearer(token, "PATCH", "/v1/portal", { access: { methods: ["magic-link"], magicLink: { allowedDomains: ["acme.test"] } } }) },
      "org-search": { plan: "enterprise", call: () => SELF.fetch(`${ORIGIN}/o/${org}/search.json?q=pets`) },
      "audit-export": { plan: "enterprise", call: () => asWriter(cookie, "GET", `/v1/audit?org=${org}&format=csv`) },
    };
    const allowed: Record<string, string[]> = {
      trial: ["assistant", "custom-domain", "reader-magic-link"],
      starter: [],
      pro: ["assistant", "custom-domain", "reader-magic-link"],
      enterprise: Object.keys(calls),
    };
    const wrong: string[] = [];
    for (const plan of ["starter", "pro", "enterprise", "trial"]) {
      expect((await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan, ...(plan === "trial" ? { trialEndsAt: new Date(Date.now() + 5 * DAY).toISOString() } : {}) })).status).toBe(200);
      for (const [feature, { plan: needs, call }] of Object.entries(calls)) {
        const res = await call();
        const body = res.headers.get("content-type")?.includes("json") ? ((await res.json()) as any) : undefined;
        const refused = res.status === 403 && body?.error?.code === "plan-required";
        if (refused === allowed[plan]!.includes(feature)) wrong.push(`${feature} on ${plan}: ${res.status} ${body?.error?.code ?? ""}`);
        if (refused && body.error.details.plan !== needs) wrong.push(`${feature} names ${body.error.details.plan}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe("gated controls", () => {
  it("the reader shell shows Ask AI only when the plan has the assistant", async () => {
    const { org, portal, token } = await ownerWithPortal("plans6@example.com", "plans-f");
    expect((await upload(token, DEF, { api: "pets" })).status).toBe(201);
    const page = async () => (await SELF.fetch(`${ORIGIN}/p/${portal}/reference/pets/`)).text();
    expect(await page()).toContain('data-island="ask-ai"');
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "starter" });
    const starter = await page();
    expect(starter).toContain("search");
    expect(starter).not.toContain('data-island="ask-ai"');
  });
});

describe("issue 9's PUT /v1/orgs/{org}", () => {
  it("moves the plan of the portals the organisation owns too", async () => {
    const { org, portal, token } = await ownerWithPortal("plans7@example.com", "plans-g");
    const refused = await bearer(token, "PUT", "/v1/portal/sso", {});
    expect(((await refused.json()) as any).error.code).toBe("plan-required");
    expect((await asAdmin("PUT", `/v1/orgs/${org}`, { name: "Org", plan: "enterprise", portals: [portal] })).status).toBe(200);
    const allowed = await bearer(token, "PUT", "/v1/portal/sso", {});
    expect(((await allowed.json()) as any).error?.code).not.toBe("plan-required");
  });
});

describe("trial expiry", () => {
  it("stops publishing with 402 trial-ended, keeps reader pages 30 days, and a plan restores everything at once", async () => {
    const { org, portal, token } = await ownerWithPortal("plans2@example.com", "plans-b");
    expect((await upload(token, DEF, { api: "pets" })).status).toBe(201);
    const ended = new Date(Date.now() - DAY).toISOString();
    const patched = (await (await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { trialEndsAt: ended })).json()) as any;
    expect(patched.org).toMatchObject({ status: "trial-ended", plan: "trial" });
    const refused = await upload(token, DEF.replace("version: '1'", "version: '2'"), { api: "pets" });
    expect(refused.status).toBe(402);
    expect(refused.json.error.code).toBe("trial-ended");
    expect((await SELF.fetch(`${ORIGIN}/p/${portal}/reference/pets/`)).status).toBe(200);
    expect((await ask(portal)).status).toBe(402);
    // 31 days later the reader pages pause (nothing is deleted).
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { trialEndsAt: new Date(Date.now() - 31 * DAY).toISOString() });
    expect((await SELF.fetch(`${ORIGIN}/p/${portal}/reference/pets/`)).status).toBe(402);
    expect((await SELF.fetch(`${ORIGIN}/p/${portal}/`)).status).toBe(402);
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { plan: "starter" });
    expect((await SELF.fetch(`${ORIGIN}/p/${portal}/reference/pets/`)).status).toBe(200);
    expect((await upload(token, DEF.replace("version: '1'", "version: '2'"), { api: "pets" })).status).toBe(201);
    const audit = (await (await asAdmin("GET", `/v1/audit?org=${org}`)).json()) as any;
    expect(audit.entries.filter((e: any) => e.action === "org.plan" && e.actor === "service admin")).toHaveLength(3);
  });
});

describe("AI credits", () => {
  it("50 concurrent assistant calls with 10 credits left: exactly 10 answered, the rest 402 credits-exhausted", async () => {
    const { org, portal, token } = await ownerWithPortal("plans3@example.com", "plans-c");
    expect((await upload(token, DEF, { api: "pets" })).status).toBe(201);
    expect((await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { creditsRemaining: 10 })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 50 }, () => ask(portal)));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    const refused = await Promise.all(answers.filter((r) => r.status !== 200).map(async (r) => `${r.status} ${((await r.json()) as any).error.code}`));
    expect(new Set(refused)).toEqual(new Set(["402 credits-exhausted"]));
    for (const r of answers.filter((x) => x.status === 200)) await r.body?.cancel();
    const usage = (await (await asAdmin("GET", `/v1/orgs/${org}/usage`)).json()) as any;
    // Setting 10 left counted the other 990 as used; the 10 answers used the rest.
    expect(usage.credits).toMatchObject({ remaining: 0, used: 1000, grant: 1000 });
    expect(usage.credits.daily.at(-1).used).toBe(10);
    // The spend runs beside the retrieval, but a refused one stores nothing: one thread per answer, no more.
    const threads = await env.DB.prepare("SELECT COUNT(*) AS n FROM assistant_threads t JOIN portals p ON p.id = t.portal_id WHERE p.slug = ?").bind(portal).first<{ n: number }>();
    expect(threads?.n).toBe(10);
    // Search keeps working.
    expect((await SELF.fetch(`${ORIGIN}/p/${portal}/search.json?q=pets`)).status).toBe(200);
  });

  it("the no-script answer page says the credits are used up, as a page in the reader shell, not as JSON", async () => {
    const { org, portal, token } = await ownerWithPortal("plans8@example.com", "plans-h");
    expect((await upload(token, DEF, { api: "pets" })).status).toBe(201);
    expect((await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { creditsRemaining: 0 })).status).toBe(200);
    const res = await SELF.fetch(`${ORIGIN}/p/${portal}/assistant?q=${encodeURIComponent("How do I list pets?")}`);
    expect(res.status).toBe(402);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/credits/i);
  });

  it("mails the owners once when use crosses 80 % of the grant", async () => {
    const { org, portal, token } = await ownerWithPortal("plans5@example.com", "plans-e");
    expect((await upload(token, DEF, { api: "pets" })).status).toBe(201);
    await asAdmin("PATCH", `/v1/admin/orgs/${org}`, { creditsRemaining: 201 }); // 799 of 1,000 used
    expect((await ask(portal)).status).toBe(200);
    const { lastMail } = await import("../harness/workspace");
    const mail = await lastMail("plans5@example.com");
    expect(mail.subject).toMatch(/80 %/);
    expect((await ask(portal)).status).toBe(200);
    const list = (await (await SELF.fetch(`${ORIGIN}/dev/outbox?to=plans5@example.com&format=json`)).json()) as any[];
    expect(list.filter((m) => /80 %/.test(m.subject))).toHaveLength(1);
  });

  it("restores the monthly grant on the 1st, UTC (injected clock), and warns owners once at 80 %", async () => {
    const { org } = await ownerWithPortal("plans4@example.com", "plans-d");
    const row = await env.DB.prepare("SELECT id FROM organisations WHERE slug = ?").bind(org).first<{ id: number }>();
    const meter = orgCredits(env, row!.id);
    const nov30 = Date.UTC(2026, 10, 30, 23, 59, 59);
    expect(await meter.spend(1, nov30, 10)).toMatchObject({ ok: true, remaining: 9, used: 1, period: "2026-11", warn: false });
    for (let i = 0; i < 6; i++) await meter.spend(1, nov30, 10);
    expect((await meter.spend(1, nov30, 10)).warn).toBe(true); // 8 of 10
    expect((await meter.spend(1, nov30, 10)).warn).toBe(false);
    await meter.spend(1, nov30, 10);
    expect(await meter.spend(1, nov30, 10)).toMatchObject({ ok: false, remaining: 0 });
    const dec1 = Date.UTC(2026, 11, 1, 0, 0, 0);
    expect(await meter.spend(1, dec1, 10)).toMatchObject({ ok: true, remaining: 9, used: 1, period: "2026-12" });
  });
});
