import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN } from "./harness/client";

const post = (headers: Record<string, string>, body: unknown) =>
  SELF.fetch(`${ORIGIN}/v1/portals`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const admin = () => ({ authorization: `Bearer ${env.PORTICO_ADMIN_TOKEN}` });

describe("POST /v1/portals", () => {
  it("creates a portal on a 14-day trial and returns a 256-bit token stored only as a hash", async () => {
    const res = await post(admin(), { slug: "acme", name: "Acme Docs" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as any;
    expect(body.portal).toMatchObject({ slug: "acme", name: "Acme Docs", plan: "trial" });
    const created = Date.parse(body.portal.createdAt);
    expect(Date.parse(body.portal.trialEndsAt) - created).toBe(14 * 86_400_000);
    expect(body.token).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);
    const stored = await env.DB.prepare("select token_hash from portal_tokens").all<{ token_hash: string }>();
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored.results)).not.toContain(body.token.slice(4));
  });

  it("answers 409 for a taken slug and 400 for invalid ones", async () => {
    expect((await post(admin(), { slug: "taken", name: "A" })).status).toBe(201);
    const again = await post(admin(), { slug: "taken", name: "B" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as any).error.code).toBe("slug-taken");
    for (const slug of ["UPPER", "-dash", "a", "with space", "x".repeat(60), "v1", 42]) {
      const res = await post(admin(), { slug, name: "n" });
      expect(res.status, String(slug)).toBe(400);
      expect(((await res.json()) as any).error.message).toMatch(/slug/);
    }
    expect((await post(admin(), { slug: "okay", name: "" })).status).toBe(400);
  });

  it("refuses missing, unknown and portal tokens", async () => {
    const none = await post({}, { slug: "nope", name: "n" });
    expect(none.status).toBe(401);
    expect(((await none.json()) as any).error).toMatchObject({ code: "unauthorized" });
    expect((await post({ authorization: "Bearer not-the-admin" }, { slug: "nope", name: "n" })).status).toBe(403);
    const portalToken = await createPortal("owner");
    const res = await post({ authorization: `Bearer ${portalToken}` }, { slug: "nope", name: "n" });
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.message).toMatch(/admin token/);
  });

  it("answers 400 for a body that is not a JSON object", async () => {
    const res = await SELF.fetch(`${ORIGIN}/v1/portals`, { method: "POST", headers: admin(), body: "{nope" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.code).toBe("invalid-json");
  });
});
