import { env } from "cloudflare:test";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { httpMailer } from "../../worker/access/mailer";
import { listOutbox } from "../../worker/store/readers";
import { ACCESS, get, MARKER, PASSWORD, patchAccess, postForm, resetSignInLimits, sessionCookie, setUpPortal } from "./fixture";

const P = "ml-portal";
let portalId: number;

async function lastLink(): Promise<string | undefined> {
  const [message] = await listOutbox(env.DB, portalId, 1);
  return message && /https?:\/\/\S+\/auth\/magic-link\/verify\?token=[A-Za-z0-9_-]+/.exec(message.text)?.[0];
}

const ask = (email: string, ip: string, ret = `/p/${P}/guides/partners/deals`) => postForm(`/p/${P}/auth/magic-link`, { email, return: ret }, { ip });

beforeAll(async () => {
  const token = await setUpPortal(P);
  expect((await patchAccess(token, ACCESS)).status).toBe(200);
  portalId = (await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(P).first<{ id: number }>())!.id;
});

beforeEach(() => resetSignInLimits(P));

describe("magic link", () => {
  it("mails a single-use link to an allowed domain; the link signs in and lands on the page", async () => {
    const res = await ask("Ada@Acme.test", "10.5.0.1");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("a sign-in link is on its way");
    const [message] = await listOutbox(env.DB, portalId, 1);
    expect(message.to).toBe("ada@acme.test");
    const link = (await lastLink())!;
    expect(link.startsWith(`http://portico.test/p/${P}/auth/magic-link/verify?token=`)).toBe(true);
    const path = new URL(link).pathname + new URL(link).search;
    const signed = await get(path);
    expect(signed.status).toBe(303);
    expect(signed.headers.get("location")).toBe(`/p/${P}/guides/partners/deals`);
    const page = await get(`/p/${P}/guides/partners/deals`, sessionCookie(signed));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(MARKER);
    // Single use: the same link again is refused.
    const reused = await get(path);
    expect(reused.status).toBe(400);
    expect(reused.headers.get("set-cookie")).toBeNull();
    expect(await reused.text()).toContain("expired or was used already");
  });

  it("mails an allow-listed address, and nobody else, with the same answer either way", async () => {
    const before = (await listOutbox(env.DB, portalId)).length;
    const allowed = await ask("solo@other.test", "10.5.0.2");
    const refused = await ask("eve@evil.test", "10.5.0.3");
    expect(allowed.status).toBe(200);
    expect(refused.status).toBe(200);
    expect((await refused.text()).replace("eve@evil.test", "X")).toBe((await allowed.text()).replace("solo@other.test", "X"));
    const after = await listOutbox(env.DB, portalId);
    expect(after.length).toBe(before + 1);
    expect(after[0].to).toBe("solo@other.test");
  });

  it("refuses an expired link and an unknown one", async () => {
    expect((await ask("late@acme.test", "10.5.0.4")).status).toBe(200);
    const link = new URL((await lastLink())!);
    await env.DB.prepare("UPDATE magic_links SET expires_at = ? WHERE email = ?").bind(Date.now() - 1, "late@acme.test").run();
    expect((await get(link.pathname + link.search)).status).toBe(400);
    expect((await get(`/p/${P}/auth/magic-link/verify?token=${"A".repeat(43)}`)).status).toBe(400);
    expect((await get(`/p/${P}/auth/magic-link/verify?token=short`)).status).toBe(400);
  });

  it("expires links after 15 minutes", async () => {
    expect((await ask("clock@acme.test", "10.5.0.5")).status).toBe(200);
    const row = await env.DB.prepare("SELECT expires_at AS e FROM magic_links WHERE email = ?").bind("clock@acme.test").first<{ e: number }>();
    expect(row!.e - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(row!.e - Date.now()).toBeLessThanOrEqual(15 * 60_000);
  });

  it("rate-limits link requests per IP", async () => {
    for (let i = 0; i < 5; i++) expect((await ask(`r${i}@acme.test`, "10.5.9.9")).status).toBe(200);
    expect((await ask("r6@acme.test", "10.5.9.9")).status).toBe(429);
    // Each kind has its own limits: asking for links does not lock the same reader out of the password.
    expect((await postForm(`/p/${P}/auth/password`, { password: PASSWORD }, { ip: "10.5.9.9" })).status).toBe(303);
  });

  it("keeps the return path inside the portal", async () => {
    expect((await ask("bounce@acme.test", "10.5.0.6", "https://evil.test/")).status).toBe(200);
    const link = new URL((await lastLink())!);
    expect((await get(link.pathname + link.search)).headers.get("location")).toBe(`/p/${P}/`);
  });
});

describe("the production mailer against a recorded fake of the email API", () => {
  it("posts {from, to, subject, text} with the bearer key, and rejects on a refusal without echoing the key", async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const fake = (status: number) => (async (url: string | URL | Request, init?: RequestInit) => {
      seen.push({ url: String(url), init: init! });
      return new Response(status === 200 ? JSON.stringify({ id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" }) : JSON.stringify({ name: "validation_error", message: "Invalid `from` field." }), { status, headers: { "content-type": "application/json" } });
    }) as typeof fetch;
    await httpMailer({ apiKey: "re_test_key", from: "Docs <docs@acme.test>", fetch: fake(200) }).send(1, { to: "ada@acme.test", subject: "Sign in", text: "link" });
    expect(seen[0].url).toBe("https://api.resend.com/emails");
    expect((seen[0].init.headers as Record<string, string>).authorization).toBe("Bearer re_test_key");
    expect(JSON.parse(String(seen[0].init.body))).toEqual({ from: "Docs <docs@acme.test>", to: ["ada@acme.test"], subject: "Sign in", text: "link" });
    const failing = httpMailer({ apiKey: "re_test_key", from: "x@acme.test", fetch: fake(422) }).send(1, { to: "a@acme.test", subject: "s", text: "t" });
    await expect(failing).rejects.toThrow(/answered 422/);
    await expect(failing).rejects.not.toThrow(/re_test_key/);
  });
});
