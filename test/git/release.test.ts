import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN } from "../harness/client";
import { connectedPortal, deliver, fake, fakeLog, lineOf, PATHS, pushPayload, releasePayload, settled } from "./helpers";

describe("release (published)", () => {
  it("publishes the definitions at the tag under the release's label, keeps the versions, and drafts the changelog entry", async () => {
    const slug = "git-release";
    const token = await connectedPortal(slug);
    await deliver("push", pushPayload(slug, "main", fake().main));
    await settled(token, 1);
    await fakeLog(true);
    await deliver("release", releasePayload(slug, fake().release.tag));
    const [done] = await settled(token, 2);
    expect(done.status, JSON.stringify(done.result)).toBe("done");
    expect(done.result).toMatchObject({ kind: "release", label: "2.5.0", changelogDrafts: 1 });
    expect((await fakeLog()).some((c) => c.path === "/repos/acme/git-release/tarball/v2.5.0")).toBe(true);
    const versions = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(JSON.stringify(versions)).toContain("2.4.0");
    expect(JSON.stringify(versions)).toContain("2.5.0");
    const drafts = await env.DB.prepare("SELECT d.title, d.body, v.label FROM changelog_drafts d JOIN versions v ON v.id = d.to_version_id WHERE d.portal_id = (SELECT id FROM portals WHERE slug = ?)").bind(slug).all<{ title: string; body: string; label: string }>();
    expect(drafts.results).toHaveLength(1);
    expect(drafts.results[0].label).toBe("2.5.0");
    expect(drafts.results[0].body + drafts.results[0].title).toMatch(/deprecat/i);
  });
});

describe("GitLab", () => {
  const hook = async (event: string, payload: unknown, token: string | null, id = crypto.randomUUID()) => {
    const headers: Record<string, string> = { "content-type": "application/json", "x-gitlab-event": event, "x-gitlab-event-uuid": id };
    if (token !== null) headers["x-gitlab-token"] = token;
    const res = await SELF.fetch(`${ORIGIN}/v1/git/gitlab/webhook`, { method: "POST", headers, body: JSON.stringify(payload) });
    return { status: res.status, json: (await res.json()) as any };
  };
  const project = { path_with_namespace: "acme/git-gitlab" };

  it("checks X-Gitlab-Token in constant time, then syncs merge requests with commit statuses and one note", async () => {
    const portal = await createPortal("git-gitlab");
    const put = await SELF.fetch(`${ORIGIN}/v1/portal/git`, {
      method: "PUT", headers: { authorization: `Bearer ${portal}`, "content-type": "application/json" },
      body: JSON.stringify({ provider: "gitlab", apiUrl: `${fake().origin}/api/v4`, repository: "acme/git-gitlab", paths: PATHS }),
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as any).git.webhookUrl).toBe("http://portico.test/v1/git/gitlab/webhook");
    const push = { object_kind: "push", ref: "refs/heads/main", after: fake().main, checkout_sha: fake().main, project };
    expect((await hook("Push Hook", push, null)).status).toBe(401);
    expect((await hook("Push Hook", push, "wrong")).status).toBe(401);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM git_deliveries WHERE provider = 'gitlab'").first("n")).toBe(0);
    await fakeLog(true);
    expect((await hook("Push Hook", push, env.GITLAB_WEBHOOK_SECRET!)).json.queued).toEqual(["git-gitlab"]);
    await settled(portal, 1);
    expect((await SELF.fetch(`${ORIGIN}/p/git-gitlab/guides/quickstart`)).status).toBe(200);
    const { feature } = fake();
    const mr = { object_kind: "merge_request", project, object_attributes: { iid: 7, action: "open", source_branch: feature.branch, target_branch: "main", last_commit: { id: feature.sha } } };
    await hook("Merge Request Hook", mr, env.GITLAB_WEBHOOK_SECRET!);
    const [done] = await settled(portal, 2);
    expect(done.result.conclusion).toBe("failure");
    const log = await fakeLog();
    expect(log.every((c) => c.authorization === "glpat-portico-test" || c.path.startsWith("/__"))).toBe(true);
    const statuses = log.filter((c) => c.path === `/api/v4/projects/acme%2Fgit-gitlab/statuses/${feature.sha}`).map((c) => c.body.state);
    expect(statuses).toEqual(["pending", "failed"]);
    const notes = log.filter((c) => c.path.includes("/merge_requests/7/notes"));
    expect(notes).toHaveLength(1);
    expect(notes[0].body.body).toContain("http://portico.test/p/git-gitlab/preview/feature-returns/");
    expect(notes[0].body.body).toContain(`docs/guides/tracking.md:${lineOf(feature.guide, /see \[returns\]/)}`);
    // An update edits the note.
    await fakeLog(true);
    await hook("Merge Request Hook", { ...mr, object_attributes: { ...mr.object_attributes, action: "update" } }, env.GITLAB_WEBHOOK_SECRET!);
    await settled(portal, 3);
    expect((await fakeLog()).filter((c) => c.path.includes("/notes")).map((c) => c.method)).toEqual(["PUT"]);
  });
});

describe("POST /v1/git/sync (portico sync)", () => {
  it("publishes an uploaded folder as a branch preview with checks, without any connection", async () => {
    const token = await createPortal("git-upload");
    const { createTar } = await import("nanotar");
    const files = [
      ["openapi/api.yaml", 'openapi: 3.1.0\ninfo: {title: Up, version: "1.0.0"}\npaths:\n  /a:\n    get:\n      operationId: getA\n      summary: A\n      description: Reads A.\n      responses: {"200": {description: ok}}\n'],
      ["docs/guides/a.md", "---\ntitle: A\n---\nSee [get A](op:up#getA) and [gone](missing.md).\n"],
    ];
    const tar = createTar(files.map(([name, data]) => ({ name: `portico-sync/${name}`, data })));
    const gz = new Uint8Array(await new Response(new Blob([tar as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
    const post = (query: string) => SELF.fetch(`${ORIGIN}/v1/git/sync?${query}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip" }, body: gz });
    expect((await post("branch=x")).status).toBe(400);
    const release = await post("definition=up%3Dopenapi%2Fapi.yaml&content=docs%2F");
    expect(release.status).toBe(422);
    expect(((await release.json()) as any).error.message).toMatch(/broken/);
    const preview = await post("branch=feature%2Fa&definition=up%3Dopenapi%2Fapi.yaml&content=docs%2F");
    const body = (await preview.json()) as any;
    expect(preview.status, JSON.stringify(body)).toBe(200);
    expect(body.previewUrl).toBe("http://portico.test/p/git-upload/preview/feature-a/");
    expect(body.conclusion).toBe("failure");
    expect(body.summary).toContain("Broken links");
  });
});
