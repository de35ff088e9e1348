import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { connectedPortal, deliver, deliveryId, fake, fakeLog, pushPayload, settled } from "./helpers";

const deliveries = async () => (await env.DB.prepare("SELECT COUNT(*) AS n FROM git_deliveries").first<{ n: number }>())!.n;

describe("POST /v1/git/github/webhook: authenticity and idempotency", () => {
  it("refuses a missing, malformed or wrong signature with 401 before reading the payload, changing nothing", async () => {
    const SLUG = "git-sig";
    await connectedPortal(SLUG);
    const before = await deliveries();
    const payload = pushPayload(SLUG, "main", fake().main);
    expect((await deliver("push", payload, deliveryId(), null)).status).toBe(401);
    expect((await deliver("push", payload, deliveryId(), "sha256=" + "0".repeat(64))).status).toBe(401);
    expect((await deliver("push", payload, deliveryId(), "sha1=abc")).status).toBe(401);
    // Signed with another secret.
    const { signGitHubBody } = await import("../../worker/git/signature");
    expect((await deliver("push", payload, deliveryId(), await signGitHubBody("not-the-secret", JSON.stringify(payload)))).status).toBe(401);
    // Not JSON at all, but unsigned: still 401 (the signature is checked first).
    const res = await SELF.fetch(`${ORIGIN}/v1/git/github/webhook`, { method: "POST", headers: { "x-github-event": "push", "x-github-delivery": "x" }, body: "{not json" });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("bad-signature");
    expect(await deliveries()).toBe(before);
  });

  it("answers a ping, ignores other repositories and installations", async () => {
    const SLUG = "git-ping";
    await connectedPortal(SLUG);
    expect((await deliver("ping", { zen: "Design for failure.", hook_id: 1 })).status).toBe(200);
    const other = { ...pushPayload(SLUG, "main", fake().main), repository: { full_name: "someone/else" } };
    expect((await deliver("push", other)).json.queued).toEqual([]);
    expect((await deliver("push", pushPayload(SLUG, "main", fake().main, 999))).json.queued).toEqual([]);
  });
});

describe("push to the production branch", () => {
  it("publishes the definition and the content as one release, once per delivery id", async () => {
    const SLUG = "git-push";
    const token = await connectedPortal(SLUG);
    await fakeLog(true);
    const id = deliveryId();
    const first = await deliver("push", pushPayload(SLUG, "main", fake().main), id);
    expect(first.status).toBe(202);
    expect(first.json.queued).toEqual(["git-push"]);
    // GitHub retries: the same delivery again does nothing new.
    const again = await deliver("push", pushPayload(SLUG, "main", fake().main), id);
    expect(again.status).toBe(202);
    expect(again.json).toMatchObject({ queued: [], duplicate: ["git-push"] });
    const [done] = await settled(token);
    expect(done.status, JSON.stringify(done.result)).toBe("done");
    expect(done.result.definitions).toEqual([expect.objectContaining({ api: "parcel-logistics-api", status: 201 })]);
    expect(done.result.content).toMatchObject({ status: 201 });
    const log = await fakeLog();
    expect(log.filter((c) => c.path.includes("/tarball/")).map((c) => c.path)).toEqual([`/repos/acme/git-push/tarball/${fake().main}`]);
    // The installation token was minted with an app JWT, then used; the 302 to the archive was followed without it.
    expect(log[0]).toMatchObject({ method: "POST", path: "/app/installations/77/access_tokens" });
    expect(log.find((c) => c.path.startsWith("/_codeload/"))!.authorization).toBeUndefined();
    // Live: the API's version is info.version, and the guides are served.
    const apis = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(JSON.stringify(apis)).toContain("2.4.0");
    expect((await SELF.fetch(`${ORIGIN}/p/git-push/guides/quickstart`)).status).toBe(200);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM git_deliveries WHERE delivery_id = ?").bind(id).first("n")).toBe(1);
  });

  it("publishes nothing when a definition does not build", async () => {
    const SLUG = "git-push-broken";
    const token = await connectedPortal(SLUG, { paths: { definitions: [{ api: "parcel-logistics-api", file: "docs/portico.yaml" }], content: "docs/" } });
    await deliver("push", pushPayload(SLUG, "main", fake().main));
    const [done] = await settled(token);
    expect(done.status).toBe("failed");
    expect(done.result.error.message).toMatch(/docs\/portico\.yaml.*nothing was published/);
    expect((await SELF.fetch(`${ORIGIN}/p/git-push-broken/guides/quickstart`)).status).toBe(404);
  });
});
