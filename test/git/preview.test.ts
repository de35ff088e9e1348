import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { connectedPortal, deliver, fake, fakeLog, lineOf, pullRequestPayload, pushPayload, settled, type LoggedCall } from "./helpers";

const checkRunUpdates = (log: LoggedCall[]) => log.filter((c) => c.method === "PATCH" && c.path.includes("/check-runs/"));

/** Publishes main, then opens a pull request from the feature branch; returns the portal's token and the stand-in's log of the PR. */
async function openFeaturePullRequest(slug: string, extra: Record<string, unknown> = {}) {
  const token = await connectedPortal(slug, extra);
  await deliver("push", pushPayload(slug, "main", fake().main));
  await settled(token, 1);
  await fakeLog(true);
  const { feature } = fake();
  const opened = await deliver("pull_request", pullRequestPayload(slug, feature.branch, feature.sha, 12));
  expect(opened.json.queued).toEqual([slug]);
  const [done] = await settled(token, 2);
  return { token, done, log: await fakeLog() };
}

describe("pull request → preview and checks", () => {
  it("builds the branch's preview at /p/{portal}/preview/{branch-slug}/, kept out of the live portal's search and sitemap", async () => {
    const { done } = await openFeaturePullRequest("git-preview");
    expect(done.result.previewUrl).toBe("http://portico.test/p/git-preview/preview/feature-returns/");
    const page = await SELF.fetch(`${ORIGIN}/p/git-preview/preview/feature-returns/guides/tracking`);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-robots-tag")).toContain("noindex");
    const html = await page.text();
    expect(html).toContain("To send a parcel back");
    // The live portal is unchanged: its tracking guide has no such line, and neither search nor the sitemap know the preview.
    expect(await (await SELF.fetch(`${ORIGIN}/p/git-preview/guides/tracking`)).text()).not.toContain("To send a parcel back");
    const search = async (q: string) => (await (await SELF.fetch(`${ORIGIN}/p/git-preview/search.json?q=${encodeURIComponent(q)}`)).json()) as any;
    const live = await search("tracking");
    expect(JSON.stringify(live)).toContain("/guides/tracking");
    const returns = JSON.stringify(await search("returns parcel back"));
    expect(returns).not.toContain("/preview/");
    expect(returns).not.toContain("send a parcel back");
    expect(JSON.stringify((await search("createReturn")).results)).not.toContain("createReturn");
    const sitemap = await (await SELF.fetch(`${ORIGIN}/p/git-preview/sitemap.xml`)).text();
    expect(sitemap).toContain("/guides/tracking");
    expect(sitemap).not.toContain("/preview/");
    const llms = await SELF.fetch(`${ORIGIN}/p/git-preview/llms.txt`);
    expect(await llms.text()).not.toContain("To send a parcel back");
    // Gated like the portal: the partners' guide needs a sign-in in the preview as it does live.
    const gated = `/guides/partners/volume-pricing`;
    const liveGated = await SELF.fetch(`${ORIGIN}/p/git-preview${gated}`, { redirect: "manual" });
    expect(liveGated.status).toBe(303);
    const previewGated = await SELF.fetch(`${ORIGIN}/p/git-preview/preview/feature-returns${gated}`, { redirect: "manual" });
    expect(previewGated.status).toBe(303);
    expect(previewGated.headers.get("location")).toContain(encodeURIComponent("/preview/feature-returns/guides/partners"));
    // An unknown branch has no preview.
    expect((await SELF.fetch(`${ORIGIN}/p/git-preview/preview/no-such-branch/guides/tracking`)).status).toBe(404);
  });

  it("completes one check run 'Portico' failing with annotations at the right lines, and keeps one comment", async () => {
    const { token, done, log } = await openFeaturePullRequest("git-checks");
    const { feature } = fake();
    const created = log.find((c) => c.method === "POST" && c.path.endsWith("/check-runs"))!;
    expect(created.body).toMatchObject({ name: "Portico", head_sha: feature.sha, status: "in_progress" });
    const updates = checkRunUpdates(log);
    const final = updates.at(-1)!.body;
    expect(final).toMatchObject({ status: "completed", conclusion: "failure" });
    const annotations = updates.flatMap((u) => u.body.output.annotations) as any[];
    expect(updates.every((u) => u.body.output.annotations.length <= 50)).toBe(true);
    const at = (pred: (a: any) => boolean) => annotations.filter(pred);
    // Lint error: the undeclared path parameter of GET /returns/{returnId}.
    const lint = at((a) => a.annotation_level === "failure" && a.title.startsWith("Definition valid"));
    expect(lint.length).toBeGreaterThan(0);
    expect(lint.every((a) => a.path === "openapi/parcel.yaml")).toBe(true);
    const returnLine = lineOf(feature.definition, /^\s+\/returns\/\{returnId\}:/);
    expect(lint.some((a) => a.start_line >= returnLine && a.start_line <= returnLine + 3 && /returnId/.test(a.message))).toBe(true);
    // Broken link: the guide's last line.
    const broken = at((a) => a.title.startsWith("Broken links"));
    expect(broken).toEqual([expect.objectContaining({ path: "docs/guides/tracking.md", start_line: lineOf(feature.guide, /see \[returns\]/), annotation_level: "failure" })]);
    // Undocumented new operation: POST /returns has no description and no guide link.
    const undocumented = at((a) => a.title.startsWith("New operations documented"));
    const postLine = lineOf(feature.definition, /^\s+post:/, /^\s+\/returns:/);
    expect(undocumented).toContainEqual(expect.objectContaining({ path: "openapi/parcel.yaml", start_line: postLine, annotation_level: "failure", message: expect.stringMatching(/POST \/returns .*description/) }));
    // Breaking change (not blocking by default: a warning), with its rule id.
    const breaking = at((a) => a.title.startsWith("Breaking changes"));
    expect(breaking.length).toBeGreaterThan(0);
    expect(breaking.every((a) => a.annotation_level === "warning")).toBe(true);
    expect(breaking.some((a) => /required/.test(a.message) && /carrier/.test(a.message))).toBe(true);
    expect(final.output.summary).toContain("Preview: http://portico.test/p/git-checks/preview/feature-returns/");
    // One comment with the preview URL and the diff summary.
    const comments = log.filter((c) => c.path.includes("/comments"));
    expect(comments).toHaveLength(1);
    expect(comments[0]).toMatchObject({ method: "POST", path: "/repos/acme/git-checks/issues/12/comments" });
    expect(comments[0].body.body).toContain("http://portico.test/p/git-checks/preview/feature-returns/");
    expect(comments[0].body.body).toMatch(/parcel-logistics-api.*2 added/);
    expect(done.result.checks).toEqual([
      { id: "lint", passed: false, blocking: true, failures: expect.any(Number) },
      { id: "broken-links", passed: false, blocking: true, failures: 1 },
      { id: "undocumented-operations", passed: false, blocking: true, failures: expect.any(Number) },
      { id: "breaking-changes", passed: false, blocking: false, failures: expect.any(Number) },
    ]);
    // synchronize: the same comment is updated, not repeated.
    await fakeLog(true);
    await deliver("pull_request", pullRequestPayload("git-checks", feature.branch, feature.sha, 12, "synchronize"));
    await settled(token, 3);
    const again = (await fakeLog()).filter((c) => c.path.includes("/comments"));
    expect(again).toEqual([expect.objectContaining({ method: "PATCH", path: expect.stringMatching(/^\/repos\/acme\/git-checks\/issues\/comments\/\d+$/) })]);
    const stored = await env.DB.prepare("SELECT comment_id FROM git_previews WHERE slug = 'feature-returns' AND portal_id = (SELECT id FROM portals WHERE slug = 'git-checks')").first<{ comment_id: string }>();
    expect(again[0].path).toBe(`/repos/acme/git-checks/issues/comments/${stored!.comment_id}`);
  });

  it("passes when the portal makes nothing blocking; closed pull requests keep the preview 7 days", async () => {
    const { token, log } = await openFeaturePullRequest("git-nonblocking", { blocking: [] });
    expect(checkRunUpdates(log).at(-1)!.body.conclusion).toBe("success");
    const { feature } = fake();
    await deliver("pull_request", pullRequestPayload("git-nonblocking", feature.branch, feature.sha, 12, "closed"));
    const [closed] = await settled(token, 3);
    const week = Date.parse(closed.result.expiresAt) - Date.now();
    expect(week).toBeGreaterThan(6.9 * 86400_000);
    expect(week).toBeLessThanOrEqual(7 * 86400_000);
    expect((await SELF.fetch(`${ORIGIN}/p/git-nonblocking/preview/feature-returns/guides/tracking`)).status).toBe(200);
    const row = await env.DB.prepare("SELECT closed_at FROM git_previews WHERE slug = 'feature-returns' AND portal_id = (SELECT id FROM portals WHERE slug = 'git-nonblocking')").first<{ closed_at: string }>();
    expect(row?.closed_at).toBeTruthy();
  });
});

describe("previews off", () => {
  it("still checks pull requests, with one comment updated and no preview", async () => {
    const slug = "git-previews-off";
    const token = await connectedPortal(slug, { previews: "off" });
    await deliver("push", pushPayload(slug, "main", fake().main));
    await settled(token, 1);
    await fakeLog(true);
    const { feature } = fake();
    await deliver("pull_request", pullRequestPayload(slug, feature.branch, feature.sha, 5));
    await settled(token, 2);
    await deliver("pull_request", pullRequestPayload(slug, feature.branch, feature.sha, 5, "synchronize"));
    const [done] = await settled(token, 3);
    expect(done.result.previewUrl).toBeUndefined();
    expect(done.result.conclusion).toBe("failure");
    const log = await fakeLog();
    expect(log.filter((c) => c.path.includes("/comments")).map((c) => c.method)).toEqual(["POST", "PATCH"]);
    expect(checkRunUpdates(log).filter((u) => u.body.status === "completed")).toHaveLength(2);
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/preview/feature-returns/guides/tracking`)).status).toBe(404);
  });
});

describe("hostile and huge repositories", () => {
  for (const [name, sha, message] of [
    ["a symbolic link", () => fake().symlink, /refused: .*symbolic or hard link/],
    ["a `..` entry", () => "d".repeat(40), /refused: .*parent-directory/],
    ["an absolute entry", () => "a".repeat(40), /refused: .*absolute/],
    ["a repository too large to sync", () => fake().huge, /too large to sync .*MiB/],
  ] as const) {
    it(`refuses ${name}: the check run fails with the reason, nothing is published`, async () => {
      const slug = `git-hostile-${name.replace(/[^a-z]+/g, "-").replace(/^-|-$/g, "")}`;
      const token = await connectedPortal(slug);
      await fakeLog(true);
      await deliver("pull_request", pullRequestPayload(slug, "hostile", sha(), 3));
      const [done] = await settled(token);
      const update = checkRunUpdates(await fakeLog()).at(-1)!;
      expect(update.body).toMatchObject({ status: "completed", conclusion: "failure", output: { title: "Not checked", annotations: [] } });
      expect(update.body.output.summary).toMatch(message);
      expect(done.result.failure).toMatch(message);
      expect((await SELF.fetch(`${ORIGIN}/p/${slug}/preview/hostile/guides/tracking`)).status).toBe(404);
      // The same refusal on the production branch: nothing goes live.
      await deliver("push", pushPayload(slug, "main", sha()));
      const [pushed] = await settled(token, 2);
      expect(pushed.result.error.message).toMatch(message);
      expect((await SELF.fetch(`${ORIGIN}/p/${slug}/guides/tracking`)).status).toBe(404);
    });
  }
});
