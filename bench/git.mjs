// Git sync benchmark (docs/git.md): webhook → preview live and webhook → check run completed, against
// `wrangler dev` and the local stand-in for GitHub's API (scripts/lib/fake-github.mjs) serving real git
// repositories: the demo's (its definition and guides), and a large one (GitHub's REST description, 13 MB, plus
// 1,000 guides generated as in bench/content.mjs). Each run sends BENCH_GIT_DELIVERIES (20) pull_request
// `synchronize` deliveries, one at a time, each for a new commit whose guide carries a marker (the large
// repository's every other commit changes the definition too, timed apart): "preview live" is
// when the preview page shows that marker, "check run" when the stand-in receives the completed check run.
// Prints p50/p95 against the goals (preview ≤ 10 s for the demo, check run ≤ 30 s for the large repository);
// asserts nothing. BENCH_GIT_LARGE=0 skips the large repository.
import { createHmac, generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { createDemoRepository, DEMO_PATHS } from "../scripts/lib/demo-repository.mjs";
import { startFakeGitHub } from "../scripts/lib/fake-github.mjs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const DELIVERIES = Number(process.env.BENCH_GIT_DELIVERIES ?? 20);
const SECRET = "bench-webhook-secret";
const APP_ID = "4242";

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const sec = (ms) => `${(ms / 1000).toFixed(2)} s`;

function git(dir, ...args) {
  return execFileSync("git", args, { cwd: dir, env: { ...process.env, GIT_AUTHOR_NAME: "b", GIT_AUTHOR_EMAIL: "b@example.com", GIT_COMMITTER_NAME: "b", GIT_COMMITTER_EMAIL: "b@example.com" } }).toString().trim();
}

/** A repository of GitHub's REST description and 1,000 generated guides (bench/content.mjs's generator). */
async function largeRepository(dir) {
  const { generateBundle } = await import("./content.mjs");
  mkdirSync(join(dir, "openapi"), { recursive: true });
  writeFileSync(join(dir, "openapi/github.json"), readFileSync(join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json")));
  for (const [path, text] of Object.entries(generateBundle(1000))) {
    mkdirSync(join(dir, "docs", path, ".."), { recursive: true });
    // The corpus texts link to pages of their own sites: kept as text, or the production release (which refuses
    // broken links) would not go live. The generated links between the guides stay.
    writeFileSync(join(dir, "docs", path), text.replace(/\[([^\]]*)\]\((?!g\d{4}\.md\))[^)]*\)/g, "$1"));
  }
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "GitHub REST and 1,000 guides");
  return { paths: { definitions: [{ api: "github", file: "openapi/github.json" }], content: "docs/" }, guide: "docs/guides/g0000.md", page: "guides/g0000", definition: "openapi/github.json" };
}

async function run(server, name, dir, setup) {
  const key = server.key;
  const fake = await startFakeGitHub({ repoDir: dir, appId: APP_ID, publicKey: key.publicKey });
  const slug = `git-${name}`;
  const token = await createPortal(server.baseUrl, server.adminToken, slug);
  const repository = `bench/${name}`;
  const put = await fetch(`${server.baseUrl}/v1/portal/git`, {
    method: "PUT", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ provider: "github", apiUrl: fake.origin, repository, installationId: 1, paths: setup.paths, previews: "pull-requests" }),
  });
  if (put.status !== 200) throw new Error(`connect: ${put.status} ${await put.text()}`);
  const deliver = async (event, payload) => {
    const body = JSON.stringify(payload);
    const res = await fetch(`${server.baseUrl}/v1/git/github/webhook`, {
      method: "POST", body,
      headers: { "content-type": "application/json", "x-github-event": event, "x-github-delivery": randomUUID(), "x-hub-signature-256": "sha256=" + createHmac("sha256", SECRET).update(body).digest("hex") },
    });
    if (res.status !== 202) throw new Error(`${event}: ${res.status} ${await res.text()}`);
  };
  const deliveries = async () => (await (await fetch(`${server.baseUrl}/v1/portal/git/deliveries`, { headers: { authorization: `Bearer ${token}` } })).json()).deliveries;
  const common = { repository: { full_name: repository }, installation: { id: 1 } };
  // The production release first (the base the checks compare with).
  const t0 = performance.now();
  await deliver("push", { ...common, ref: "refs/heads/main", after: git(dir, "rev-parse", "main"), deleted: false });
  for (;;) {
    const [d] = await deliveries();
    if (d && d.status !== "queued") {
      if (d.status !== "done") throw new Error(`release: ${JSON.stringify(d.result)}`);
      break;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const release = performance.now() - t0;
  const preview = [];
  const checks = [];
  const checksWithDefinition = [];
  const answers = [];
  git(dir, "checkout", "-q", "-B", "bench", "main");
  for (let i = 0; i < DELIVERIES; i++) {
    const marker = `bench-marker-${i}-${randomUUID().slice(0, 8)}`;
    writeFileSync(join(dir, setup.guide), readFileSync(join(dir, setup.guide), "utf8") + `\n${marker}\n`);
    // Every other delivery changes the definition too (its description), so the checks build, lint and diff it
    // rather than reuse the base's build: a pull request that touches the API, not only its guides.
    const changesDefinition = setup.definition !== undefined && i % 2 === 1;
    if (changesDefinition) {
      const def = JSON.parse(readFileSync(join(dir, setup.definition), "utf8"));
      def.info.description = `${def.info.description ?? ""} ${marker}`;
      writeFileSync(join(dir, setup.definition), JSON.stringify(def));
    }
    git(dir, "commit", "-qam", marker);
    const sha = git(dir, "rev-parse", "HEAD");
    const logged = fake.log.length;
    const start = performance.now();
    await deliver("pull_request", { ...common, action: i ? "synchronize" : "opened", number: 1, pull_request: { number: 1, head: { ref: "bench", sha }, base: { ref: "main" } } });
    answers.push(performance.now() - start);
    let previewAt;
    let checkAt;
    while (previewAt === undefined || checkAt === undefined) {
      if (checkAt === undefined && fake.log.slice(logged).some((c) => c.method === "PATCH" && c.body?.status === "completed")) checkAt = performance.now() - start;
      if (previewAt === undefined) {
        const page = await fetch(`${server.baseUrl}/p/${slug}/preview/bench/${setup.page}`);
        if (page.status === 200 && (await page.text()).includes(marker)) previewAt = performance.now() - start;
      }
      if (performance.now() - start > 300_000) throw new Error(`delivery ${i} did not finish in 5 minutes`);
      await new Promise((r) => setTimeout(r, 50));
    }
    preview.push(previewAt);
    checks.push(checkAt);
    if (changesDefinition) checksWithDefinition.push(checkAt);
  }
  git(dir, "checkout", "-q", "main");
  const [last] = await deliveries();
  await new Promise((resolve) => fake.server.close(resolve));
  const failing = (last.result?.checks ?? []).filter((c) => !c.passed).map((c) => `${c.id} ${c.failures}${c.blocking ? "" : " (not blocking)"}`);
  return { release, preview, checks, checksWithDefinition, answers, conclusion: `${last.result?.conclusion}${failing.length ? ` (${failing.join(", ")})` : ""}`, failure: last.result?.failure };
}

export async function main() {
  const key = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs1", format: "pem" } });
  const server = await startDevServer({ vars: { GITHUB_APP_ID: APP_ID, GITHUB_APP_PRIVATE_KEY: key.privateKey.trim().replace(/\n/g, "\\n"), GITHUB_WEBHOOK_SECRET: SECRET } });
  server.key = key;
  const dirs = [];
  try {
    console.log(`Git sync (${DELIVERIES} pull_request deliveries each, one at a time; wrangler dev + stand-in for GitHub's API)`);
    const demoDir = mkdtempSync(join(tmpdir(), "portico-bench-git-demo-"));
    dirs.push(demoDir);
    createDemoRepository(demoDir);
    const cases = [["demo", demoDir, { paths: DEMO_PATHS, guide: "docs/guides/tracking.md", page: "guides/tracking" }, { previewP95: 10_000 }]];
    if (process.env.BENCH_GIT_LARGE !== "0") {
      const largeDir = mkdtempSync(join(tmpdir(), "portico-bench-git-large-"));
      dirs.push(largeDir);
      cases.push(["large", largeDir, await largeRepository(largeDir), { checkP95: 30_000 }]);
    }
    for (const [name, dir, setup, goal] of cases) {
      const r = await run(server, name, dir, setup);
      console.log(`  ${name.padEnd(6)} release (push to main → done): ${sec(r.release)}`);
      console.log(`  ${name.padEnd(6)} webhook answered:      p50 ${sec(pct(r.answers, 50))}  p95 ${sec(pct(r.answers, 95))}`);
      console.log(`  ${name.padEnd(6)} webhook → preview live: p50 ${sec(pct(r.preview, 50))}  p95 ${sec(pct(r.preview, 95))}${goal.previewP95 ? `  (goal ≤ ${sec(goal.previewP95)}: ${pct(r.preview, 95) <= goal.previewP95 ? "met" : "MISSED"})` : ""}`);
      console.log(`  ${name.padEnd(6)} webhook → check run:    p50 ${sec(pct(r.checks, 50))}  p95 ${sec(pct(r.checks, 95))}${goal.checkP95 ? `  (goal ≤ ${sec(goal.checkP95)}: ${pct(r.checks, 95) <= goal.checkP95 ? "met" : "MISSED"})` : ""}  last conclusion: ${r.conclusion}${r.failure ? ` (${r.failure})` : ""}`);
      if (r.checksWithDefinition.length) console.log(`  ${name.padEnd(6)}   of which the ${r.checksWithDefinition.length} changing the definition: check run p50 ${sec(pct(r.checksWithDefinition, 50))}  p95 ${sec(pct(r.checksWithDefinition, 95))}`);
    }
  } finally {
    await server.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
