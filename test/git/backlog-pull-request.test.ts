/**
 * A backlog draft (issue 29) opened as a pull request through Git sync (issue 30): against the stand-in for GitHub's
 * and GitLab's REST API (scripts/lib/fake-github.mjs), which records every call and keeps the branches and requests
 * made; everything on Portico's side runs for real (the PortalAnalytics object, D1, the installation token flow).
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN } from "../harness/client";
import { dayOf } from "../../worker/analytics/events";
import { routeNeeds } from "../../worker/workspace/scopes";
import { draftSlug, inertQuery, withoutEvidence } from "../../worker/git/pull-request";
import { connectedPortal, fake, fakeLog, PATHS } from "./helpers";

const json = { "content-type": "application/json" };

async function call(token: string, method: string, path: string, body?: unknown) {
  const res = await SELF.fetch(`${ORIGIN}/v1/analytics${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? json : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** Seeds no-hit searches for "webhook retries" (and forms of it) and drafts a guide for their group; the draft. */
async function draftFor(token: string, queries: [string, number][] = [["webhook retries", 3], ["webhook retry", 2], ["@webhook #retries", 1]]) {
  const day = dayOf(Date.now());
  const searches = queries.flatMap(([q, n]) => Array.from({ length: n }, () => ({ q, results: 0 })));
  expect((await call(token, "POST", "/seed", { batches: [{ day, searches }] })).status).toBe(200);
  const backlog = await call(token, "GET", "/backlog");
  const group = backlog.json.groups.find((g: any) => g.queries.some((q: any) => q.q === queries[0][0]));
  expect(group, JSON.stringify(backlog.json)).toBeDefined();
  const drafted = await call(token, "POST", `/backlog/${group.id}/draft`);
  expect(drafted.status).toBe(201);
  return drafted.json;
}

async function fakeState(): Promise<{ branches: Record<string, { sha: string; files: Record<string, string> }>; pulls: any[] }> {
  return (await fetch(`${fake().origin}/__state`)).json() as never;
}

async function failNext(method: string, path: string, status: number) {
  await fetch(`${fake().origin}/__fail`, { method: "POST", body: JSON.stringify({ method, path, status }) });
}

describe("a backlog draft opened as a pull request", () => {
  it("commits the draft as a new guide on a new branch from main, opens the pull request with the evidence, and records its URL", async () => {
    const slug = "git-backlog-pr";
    const token = await connectedPortal(slug);
    const draft = await draftFor(token);
    expect(draft.pullRequest).toBeNull();
    expect(draft.evidence).toMatchObject({ count: 6, gated: false });
    // The writer's edit is what goes to the repository.
    const edited = await call(token, "PATCH", `/backlog/drafts/${draft.id}`, { title: "Webhook retries", body: `${draft.body}\nEdited by a writer.\n` });
    expect(edited.status).toBe(200);
    await fakeLog(true);

    const opened = await call(token, "POST", `/backlog/drafts/${draft.id}/pull-request`);
    expect(opened.status, JSON.stringify(opened.json)).toBe(201);
    const branch = `portico/backlog/webhook-retries-${draft.id.replace(/-/g, "").slice(0, 8)}`;
    expect(opened.json.pullRequest).toMatchObject({ number: 1, branch, path: "docs/guides/webhook-retries.md" });
    expect(opened.json.pullRequest.url).toMatch(/\/acme\/git-backlog-pr\/pull\/1$/);
    // Recorded: the draft and the backlog list show it; a second click opens nothing.
    expect((await call(token, "GET", `/backlog/drafts/${draft.id}`)).json.pullRequest.url).toBe(opened.json.pullRequest.url);
    expect((await call(token, "GET", "/backlog")).json.drafts.find((d: any) => d.id === draft.id).pullRequest.number).toBe(1);

    // What GitHub received, in order, with the installation token minted by the app JWT.
    const log = (await fakeLog()).filter((c) => !c.path.startsWith("/__"));
    expect(log.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /app/installations/77/access_tokens",
      "GET /repos/acme/git-backlog-pr/git/ref/heads/main",
      "GET /repos/acme/git-backlog-pr/contents/docs/guides/webhook-retries.md?ref=main",
      "POST /repos/acme/git-backlog-pr/git/refs",
      "PUT /repos/acme/git-backlog-pr/contents/docs/guides/webhook-retries.md",
      "POST /repos/acme/git-backlog-pr/pulls",
    ]);
    expect(log.slice(1).every((c) => c.authorization === "Bearer ghs_portico_test_installation_token")).toBe(true);
    expect(log[3].body).toEqual({ ref: `refs/heads/${branch}`, sha: fake().main });
    const file = Buffer.from(log[4].body.content, "base64").toString("utf8");
    expect(log[4].body).toMatchObject({ branch, message: 'docs: draft "Webhook retries" from the search backlog' });
    expect(log[4].body.sha).toBeUndefined();
    expect(file).toContain("Edited by a writer.");
    // The evidence block stays on the backlog page: reader queries never reach the repository's files.
    expect(draft.body).toContain("<!-- Evidence: remove this block before publishing. -->");
    expect(file).not.toContain("<!-- Evidence");
    expect(file).not.toMatch(/^> /m);
    expect(file).not.toContain("@webhook #retries");
    expect(file).toContain("# Webhook retries");
    expect(file).toMatch(/^---\ntitle: "Webhook retries"/);
    const pull = log[5].body;
    expect(pull).toMatchObject({ title: "Docs: Webhook retries", head: branch, base: "main" });
    expect(pull.body).toContain("6 searches without a result");
    expect(pull.body).toContain("| `webhook retries` | 3 | search |");
    expect(pull.body).toContain("| `webhook retry` | 2 | search |");
    // A reader's query cannot mention anyone, link an issue or inject HTML: it is a code span.
    expect(pull.body).toContain("| `@webhook #retries` | 1 | search |");
    expect(pull.body).toContain("http://portico.test/p/git-backlog-pr/admin/backlog");
    const state = await fakeState();
    expect(state.branches[branch].files["docs/guides/webhook-retries.md"]).toBe(file);
    expect(state.pulls.filter((p) => p.repo === "acme/git-backlog-pr")).toHaveLength(1);

    const again = await call(token, "POST", `/backlog/drafts/${draft.id}/pull-request`);
    expect(again.status).toBe(409);
    expect(again.json.error).toMatchObject({ code: "pull-request-open", details: { url: opened.json.pullRequest.url } });
    // Nothing is published by it: the portal's guides stay as they were.
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/guides/webhook-retries`)).status).toBe(404);
    // Audited as any change made with a token.
    let audited = 0;
    for (let i = 0; i < 50 && !audited; i++) {
      audited = (await env.DB.prepare("SELECT COUNT(*) AS n FROM audit_log WHERE action = ?").bind(`POST /v1/analytics/backlog/drafts/${draft.id}/pull-request`).first<number>("n")) ?? 0;
      if (!audited) await new Promise((r) => setTimeout(r, 50));
    }
    expect(audited).toBe(1);
  });

  it("refuses clearly and leaves nothing half-done: no connection, an existing file, GitHub failing", async () => {
    // No connection.
    const lone = await createPortal("git-backlog-none");
    const loneDraft = await draftFor(lone);
    const none = await call(lone, "POST", `/backlog/drafts/${loneDraft.id}/pull-request`);
    expect(none.status).toBe(409);
    expect(none.json.error.code).toBe("not-connected");
    expect(none.json.error.message).toMatch(/download the draft as Markdown/);

    const token = await connectedPortal("git-backlog-refusals");
    // A title naming a guide the repository has: refused before anything is made.
    const draft = await draftFor(token, [["trackng", 2]]);
    await call(token, "PATCH", `/backlog/drafts/${draft.id}`, { title: "Tracking", body: draft.body });
    await fakeLog(true);
    const exists = await call(token, "POST", `/backlog/drafts/${draft.id}/pull-request`);
    expect(exists.status).toBe(409);
    expect(exists.json.error).toMatchObject({ code: "file-exists", details: { path: "docs/guides/tracking.md" } });
    expect(exists.json.error.message).toMatch(/already exists on main.*no pull request was opened/);
    expect((await fakeLog()).some((c) => c.method !== "GET" && c.path.startsWith("/repos/"))).toBe(false);
    expect((await call(token, "GET", `/backlog/drafts/${draft.id}`)).json.pullRequest).toBeNull();

    // GitHub fails the pull request (5xx) after the branch was made: the branch is deleted, nothing is recorded.
    await call(token, "PATCH", `/backlog/drafts/${draft.id}`, { title: "Tracking retries", body: draft.body });
    await fakeLog(true);
    await failNext("POST", "^/repos/acme/git-backlog-refusals/pulls$", 502);
    const failed = await call(token, "POST", `/backlog/drafts/${draft.id}/pull-request`);
    expect(failed.status).toBe(502);
    expect(failed.json.error.code).toBe("git-provider-error");
    expect(failed.json.error.message).toMatch(/HTTP 502.*Nothing was recorded/);
    const branch = `portico/backlog/tracking-retries-${draft.id.replace(/-/g, "").slice(0, 8)}`;
    expect((await fakeLog()).map((c) => `${c.method} ${c.path}`)).toContain(`DELETE /repos/acme/git-backlog-refusals/git/refs/heads/${branch.split("/").map(encodeURIComponent).join("/")}`);
    expect((await fakeState()).branches[branch]).toBeUndefined();
    expect((await call(token, "GET", `/backlog/drafts/${draft.id}`)).json.pullRequest).toBeNull();

    // A 4xx on the first call (the branch lookup): refused with GitHub's status, then it works once GitHub does.
    await failNext("GET", "^/repos/acme/git-backlog-refusals/git/ref/heads/main$", 404);
    const missing = await call(token, "POST", `/backlog/drafts/${draft.id}/pull-request`);
    expect(missing.status).toBe(502);
    expect(missing.json.error).toMatchObject({ code: "git-provider-error", details: { status: 404 } });
    const ok = await call(token, "POST", `/backlog/drafts/${draft.id}/pull-request`);
    expect(ok.status, JSON.stringify(ok.json)).toBe(201);
    expect(ok.json.pullRequest.path).toBe("docs/guides/tracking-retries.md");
    // Unknown or discarded drafts.
    expect((await call(token, "POST", "/backlog/drafts/nope/pull-request")).status).toBe(404);
  });

  it("opens a GitLab merge request the same way", async () => {
    const token = await createPortal("git-backlog-gitlab");
    const put = await SELF.fetch(`${ORIGIN}/v1/portal/git`, {
      method: "PUT", headers: { authorization: `Bearer ${token}`, ...json },
      body: JSON.stringify({ provider: "gitlab", apiUrl: `${fake().origin}/api/v4`, repository: "acme/git-backlog-gitlab", paths: PATHS }),
    });
    expect(put.status).toBe(200);
    const draft = await draftFor(token, [["sdk", 4], ["sdks", 1]]);
    await fakeLog(true);
    const opened = await call(token, "POST", `/backlog/drafts/${draft.id}/pull-request`);
    expect(opened.status, JSON.stringify(opened.json)).toBe(201);
    expect(opened.json.pullRequest).toMatchObject({ number: 1, path: "docs/guides/sdk.md" });
    expect(opened.json.pullRequest.url).toMatch(/\/acme\/git-backlog-gitlab\/-\/merge_requests\/1$/);
    const log = (await fakeLog()).filter((c) => !c.path.startsWith("/__"));
    expect(log.map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /api/v4/projects/acme%2Fgit-backlog-gitlab/repository/files/docs%2Fguides%2Fsdk.md?ref=main",
      "POST /api/v4/projects/acme%2Fgit-backlog-gitlab/repository/commits",
      "POST /api/v4/projects/acme%2Fgit-backlog-gitlab/merge_requests",
    ]);
    expect(log.every((c) => c.authorization === "glpat-portico-test")).toBe(true);
    expect(log[1].body).toMatchObject({ branch: opened.json.pullRequest.branch, start_branch: "main", actions: [{ action: "create", file_path: "docs/guides/sdk.md" }] });
    expect(log[2].body).toMatchObject({ source_branch: opened.json.pullRequest.branch, target_branch: "main", remove_source_branch: true });
    expect(log[2].body.description).toContain("| `sdk` | 4 | search |");
  });

  it("is a content writer's call (scope publish:content, the analytics plan), with safe file names", () => {
    expect(routeNeeds("POST", "/v1/analytics/backlog/drafts/abc/pull-request")).toEqual({ scope: "publish:content", feature: "search-analytics" });
    expect(routeNeeds("POST", "/v1/analytics/backlog/drafts/abc/discard")).toEqual({ scope: "read:analytics", feature: "search-analytics" });
    expect(draftSlug("../../etc/passwd", "x")).toBe("etc-passwd");
    expect(draftSlug("Café: Ünïcode & more!", "x")).toBe("cafe-unicode-more");
    expect(draftSlug("日本語", "0f3a9c2e-1111")).toBe("draft-0f3a9c2e");
    expect(draftSlug("a".repeat(300), "x")).toHaveLength(60);
    expect(inertQuery("`rm -rf`\n@x")).toBe("`rm -rf @x`");
    const body = "---\ntitle: T\n---\n\n<!-- Evidence: remove this block before publishing. -->\n> **Readers asked**\n> - “secret partner rates”: 2\n\n# T\n\n## Overview\n";
    expect(withoutEvidence(body)).toBe("---\ntitle: T\n---\n\n# T\n\n## Overview\n");
    expect(withoutEvidence("# Only a page\n")).toBe("# Only a page\n");
  });
});
