import { env, runDurableObjectAlarm, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { publisherFor, type PortalPublisher } from "../../worker/publish/portal-publisher";
import { runGitJob } from "../../worker/git/sync";
import type { GitJob } from "../../worker/git/events";
import { createPortal } from "../harness/client";
import { connectedPortal, deliver, fake, fakeLog, pushPayload, settled } from "./helpers";

const API = "parcel-logistics-api";

/** What readers see of a portal: its live API version label and whether the tracking guide has the marker. */
async function liveState(slug: string) {
  const reference = await (await SELF.fetch(`${ORIGIN}/p/${slug}/reference/${API}/`)).text();
  const guide = await (await SELF.fetch(`${ORIGIN}/p/${slug}/guides/tracking`)).text();
  const row = await env.DB.prepare("SELECT a.live_version_id AS version, l.release_id AS release FROM portals p JOIN apis a ON a.portal_id = p.id LEFT JOIN content_live l ON l.portal_id = p.id WHERE p.slug = ?").bind(slug).first<{ version: number; release: number }>();
  return { v3: reference.includes("3.0.0"), marker: guide.includes("Atomic release marker."), version: row!.version, release: row!.release };
}

function productionJob(slug: string, portalId: number, deliveryId: string): GitJob {
  return { kind: "production", sha: fake().both, branch: "main", provider: "github", deliveryId, event: "push", portalId, portalSlug: slug, basePath: `/p/${slug}`, origin: ORIGIN };
}

describe("push to production goes live atomically", () => {
  it("a failure between the definitions and the content, or before the flip, leaves the previous release fully live; then both flip together", async () => {
    const slug = "git-atomic";
    const token = await connectedPortal(slug);
    await deliver("push", pushPayload(slug, "main", fake().main));
    await settled(token, 1);
    const portal = (await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>())!;
    const before = await liveState(slug);
    expect(before).toMatchObject({ v3: false, marker: false });

    const failing = await runGitJob(env, productionJob(slug, portal.id, "atomic-1"), undefined, { afterDefinitions: async () => { throw new Error("injected between definitions and content"); } });
    expect(failing).toMatchObject({ error: { code: "sync-failed" } });
    expect(await liveState(slug)).toEqual(before);
    const failedVersions = await env.DB.prepare("SELECT v.status FROM versions v JOIN apis a ON a.id = v.api_id WHERE a.portal_id = ? AND v.label = '3.0.0'").bind(portal.id).all<{ status: string }>();
    expect(failedVersions.results.map((r) => r.status)).toEqual(["failed"]);

    const late = await runGitJob(env, productionJob(slug, portal.id, "atomic-2"), undefined, { beforeFlip: async () => { throw new Error("injected before the flip"); } });
    expect(late).toMatchObject({ error: { code: "sync-failed" } });
    expect(await liveState(slug)).toEqual(before);
    const staged = await env.DB.prepare("SELECT status FROM content_releases WHERE portal_id = ? AND id > ? ORDER BY id").bind(portal.id, before.release).all<{ status: string }>();
    expect(staged.results.map((r) => r.status)).toEqual(["failed"]);

    // Search goes live with the release, in the same batch: just before the flip it still finds the previous
    // release's guide (not the new line, nor the new version), right after it finds both, before any rebuild.
    const searchState = async () => {
      const found = async (q: string) => ((await (await SELF.fetch(`${ORIGIN}/p/${slug}/search.json?q=${encodeURIComponent(q)}`)).json()) as { results: { url: string; title: string }[] }).results;
      const marker = (await found("atomic release marker")).some((r) => r.url.includes("/guides/tracking"));
      const row = await env.DB.prepare("SELECT s.docs_key AS docsKey FROM search_shards s WHERE s.portal_id = ? AND s.source = 'content'").bind(portal.id).first<{ docsKey: string }>();
      return { marker, contentShard: row?.docsKey };
    };
    const beforeSearch = await searchState();
    expect(beforeSearch.marker).toBe(false);
    let atFlip: Awaited<ReturnType<typeof searchState>> | undefined;
    let rightAfter: Awaited<ReturnType<typeof searchState>> & { live?: Awaited<ReturnType<typeof liveState>> } = { marker: false, contentShard: undefined };
    const ok = await runGitJob(env, productionJob(slug, portal.id, "atomic-3"), undefined, {
      beforeFlip: async () => void (atFlip = await searchState()),
      afterFlip: async () => void (rightAfter = { ...(await searchState()), live: await liveState(slug) }),
    });
    expect(ok).not.toHaveProperty("error");
    expect(atFlip).toEqual(beforeSearch);
    expect(rightAfter.live).toMatchObject({ v3: true, marker: true });
    expect(rightAfter.marker).toBe(true);
    expect(rightAfter.contentShard).not.toBe(beforeSearch.contentShard);
    const after = await liveState(slug);
    expect(after).toMatchObject({ v3: true, marker: true });
    expect(after.version).not.toBe(before.version);
    expect(after.release).not.toBe(before.release);
    expect((await searchState()).marker).toBe(true);
  });
});

describe("the Git queue survives a Durable Object reset", () => {
  /** Queues a push whose run this instance holds forever (as a reset would stop it): returns the portal's token and stub. */
  async function heldPush(slug: string) {
    const token = await connectedPortal(slug);
    const stub = publisherFor(env.PUBLISHER, slug);
    await runInDurableObject(stub, (instance: PortalPublisher) => {
      instance.gitWork = () => new Promise(() => undefined);
    });
    await deliver("push", pushPayload(slug, "main", fake().main));
    const stored = await runInDurableObject(stub, async (_instance: PortalPublisher, state) => [...(await state.storage.list({ prefix: "gitjob:" })).keys()]);
    expect(stored).toHaveLength(1);
    const listed = await (await SELF.fetch(`${ORIGIN}/v1/portal/git/deliveries`, { headers: { authorization: `Bearer ${token}` } })).json() as { deliveries: { status: string }[] };
    expect(listed.deliveries.map((d) => d.status)).toEqual(["queued"]);
    return { token, stub };
  }

  async function expectResumed(slug: string, token: string, stub: DurableObjectStub<PortalPublisher>) {
    const [done] = await settled(token, 1);
    expect(done.status).toBe("done");
    expect(done.result.definitions[0]).toMatchObject({ api: API, status: 201 });
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/reference/${API}/`)).status).toBe(200);
    // Finished jobs leave the storage.
    for (let i = 0; i < 50; i++) {
      const left = await runInDurableObject(stub, async (_instance: PortalPublisher, state) => (await state.storage.list({ prefix: "gitjob:" })).size);
      if (left === 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error("the finished job stayed stored");
  }

  it("a new instance on the same storage (the object restarted) resumes the stored job from its constructor", async () => {
    const slug = "git-queue-restart";
    const { token, stub } = await heldPush(slug);
    // The restart: a fresh instance of the class over the same storage, with nothing in memory (no held job).
    await runInDurableObject(stub, (instance: PortalPublisher, state) => {
      new (instance.constructor as new (state: DurableObjectState, env: Env) => PortalPublisher)(state, env);
    });
    await expectResumed(slug, token, stub);
  });

  it("the alarm resumes a stored job that no instance is running", async () => {
    const slug = "git-queue-alarm";
    const { token, stub } = await heldPush(slug);
    // What a reset leaves: the stored job, an instance with nothing in flight and the real runner.
    await runInDurableObject(stub, (instance: PortalPublisher) => {
      (instance as unknown as { gitInFlight: Set<string>; tail: Promise<unknown> }).gitInFlight.clear();
      (instance as unknown as { tail: Promise<unknown> }).tail = Promise.resolve();
      instance.gitWork = (e, job) => runGitJob(e, job);
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await expectResumed(slug, token, stub);
  });

  /** A folder `portico sync` would post: one definition and one guide, gzipped. */
  async function folder(): Promise<Uint8Array<ArrayBuffer>> {
    const { createTar } = await import("nanotar");
    const files = [
      ["openapi/api.yaml", 'openapi: 3.1.0\ninfo: {title: Up, version: "1.0.0"}\npaths:\n  /a:\n    get:\n      operationId: getA\n      summary: A\n      description: Reads A.\n      responses: {"200": {description: ok}}\n'],
      ["docs/guides/a.md", "---\ntitle: A\n---\nSee [get A](op:up#getA).\n"],
    ];
    const tar = createTar(files.map(([name, data]) => ({ name: `portico-sync/${name}`, data })));
    return new Uint8Array(await new Response(new Blob([tar as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
  }

  it("POST /v1/git/sync (portico sync) is stored like a webhook's job: a restart mid-build resumes it and the request still gets its result; the same Idempotency-Key runs it once", async () => {
    const slug = "git-sync-restart";
    const token = await createPortal(slug);
    const stub = publisherFor(env.PUBLISHER, slug);
    await runInDurableObject(stub, (instance: PortalPublisher) => {
      instance.gitWork = () => new Promise(() => undefined);
    });
    const body = await folder();
    const key = `sync-${crypto.randomUUID()}`;
    const post = () => SELF.fetch(`${ORIGIN}/v1/git/sync?definition=up%3Dopenapi%2Fapi.yaml&content=docs%2F`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip", "idempotency-key": key }, body });
    const answer = post();
    let stored: string[] = [];
    for (let i = 0; i < 100 && !stored.length; i++) {
      stored = await runInDurableObject(stub, async (_instance: PortalPublisher, state) => [...(await state.storage.list({ prefix: "gitjob:" })).keys()]);
      if (!stored.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(stored).toHaveLength(1);
    // The restart: a fresh instance over the same storage resumes the stored job (the held call never answers).
    await runInDurableObject(stub, (instance: PortalPublisher, state) => {
      new (instance.constructor as new (state: DurableObjectState, env: Env) => PortalPublisher)(state, env);
    });
    const res = await answer;
    const result = (await res.json()) as any;
    expect(res.status, JSON.stringify(result)).toBe(200);
    expect(result).toMatchObject({ delivery: `upload-${key}`, kind: "production", definitions: [{ api: "up", status: 201 }] });
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/guides/a`)).status).toBe(200);
    // The same key again: the recorded result, no second job.
    const again = await post();
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ delivery: `upload-${key}`, duplicate: true, kind: "production" });
    const listed = (await (await SELF.fetch(`${ORIGIN}/v1/portal/git/deliveries`, { headers: { authorization: `Bearer ${token}` } })).json()) as { deliveries: unknown[] };
    expect(listed.deliveries).toHaveLength(1);
    const one = await SELF.fetch(`${ORIGIN}/v1/portal/git/deliveries/upload-${key}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await one.json()) as any).delivery).toMatchObject({ status: "done", event: "sync" });
    expect((await SELF.fetch(`${ORIGIN}/v1/git/sync`, { method: "POST", headers: { authorization: `Bearer ${token}`, "idempotency-key": "bad key!" }, body })).status).toBe(400);
  });
});
