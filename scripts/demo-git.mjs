// `npm run demo:git` (docs/git.md): after `npm start`, commits a change on a branch of the demo's local git
// repository (.wrangler/demo-git, made by npm start) and replays GitHub's webhooks against the local portal, with a
// local stand-in for GitHub's API (scripts/lib/fake-github.mjs on 127.0.0.1:4012) serving that repository:
// a push to main (the production release) and a pull request from the branch (its preview and checks). Prints
// the preview URL, the branch's new operation in the preview's reference, and the check run's summary. Then it drafts
// a guide for the demo's largest no-hit backlog group and opens it as a pull request against the stand-in (issue 29:
// `POST /v1/analytics/backlog/drafts/{id}/pull-request`), prints the pull request's URL (a page of the stand-in), and
// keeps the stand-in running so the backlog page's "Open pull request" works too; Ctrl-C stops it (`--once`: exit
// at once). `PORT` as for npm start.
import { createHmac, createPrivateKey, createPublicKey, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { addFeatureBranch, createDemoRepository } from "./lib/demo-repository.mjs";
import { startFakeGitHub } from "./lib/fake-github.mjs";
import { DEMO_GIT, GIT_STANDIN_PORT } from "./lib/demo-git-config.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const port = Number(process.env.PORT ?? 8787);
const origin = `http://127.0.0.1:${port}`;
const statePath = join(root, ".wrangler/portico-demo.json");
if (!existsSync(statePath) || !existsSync(join(root, ".dev.vars"))) {
  console.error("Run `npm start` first (it creates the demo portal, its git repository and the GitHub App's local secrets).");
  process.exit(1);
}
const demo = JSON.parse(readFileSync(statePath, "utf8"));
const vars = Object.fromEntries(readFileSync(join(root, ".dev.vars"), "utf8").split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
const privateKey = vars.GITHUB_APP_PRIVATE_KEY?.replace(/\\n/g, "\n");
if (!privateKey || !vars.GITHUB_WEBHOOK_SECRET) throw new Error(".dev.vars has no GITHUB_APP_PRIVATE_KEY / GITHUB_WEBHOOK_SECRET: run `npm start` once more");
const publicKey = createPublicKey(createPrivateKey(privateKey)).export({ type: "spki", format: "pem" }).toString();
const repoDir = join(root, DEMO_GIT.dir);
const main = createDemoRepository(repoDir);
const feature = addFeatureBranch(repoDir);
const fake = await startFakeGitHub({ repoDir, appId: vars.GITHUB_APP_ID, publicKey, port: GIT_STANDIN_PORT });

const require = createRequire(import.meta.url);
const examples = require("@octokit/webhooks-examples/api.github.com/index.json");
const example = (name, action) => structuredClone(examples.find((e) => e.name === name).examples.find((x) => action === undefined || x.action === action));
const repository = (base) => ({ ...base, full_name: DEMO_GIT.repository });
const installation = { id: DEMO_GIT.installationId };

async function deliver(event, payload) {
  const body = JSON.stringify(payload);
  const signature = "sha256=" + createHmac("sha256", vars.GITHUB_WEBHOOK_SECRET).update(body).digest("hex");
  const started = Date.now();
  const res = await fetch(`${origin}/v1/git/github/webhook`, { method: "POST", headers: { "content-type": "application/json", "x-github-event": event, "x-github-delivery": randomUUID(), "x-hub-signature-256": signature }, body });
  console.log(`${event}: HTTP ${res.status} in ${Date.now() - started} ms ${JSON.stringify(await res.json())}`);
}

/** The Location of a redirect answered for `url`; a `*.localhost` host (the demo's custom domain) is asked on 127.0.0.1 with its Host header. */
function redirectOf(url) {
  return new Promise((resolve, reject) => {
    const local = url.hostname.endsWith(".localhost");
    const req = httpGet({ host: local ? "127.0.0.1" : url.hostname, port: url.port || 80, path: url.pathname, headers: { host: url.host } }, (res) => {
      res.resume();
      resolve(res.statusCode === 302 || res.statusCode === 301 ? res.headers.location : undefined);
    });
    req.on("error", reject);
  });
}

async function settled(count) {
  for (let i = 0; i < 1200; i++) {
    const { deliveries } = await (await fetch(`${origin}/v1/portal/git/deliveries`, { headers: { authorization: `Bearer ${demo.token}` } })).json();
    if (deliveries.length >= count && deliveries.slice(0, 1).every((d) => d.status !== "queued")) return deliveries[0];
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the delivery did not finish in 5 minutes");
}

try {
  const before = (await (await fetch(`${origin}/v1/portal/git/deliveries`, { headers: { authorization: `Bearer ${demo.token}` } })).json()).deliveries?.length ?? 0;
  const push = example("push");
  await deliver("push", { ...push, ref: "refs/heads/main", after: main, deleted: false, repository: repository(push.repository), installation });
  const released = await settled(before + 1);
  console.log(`push to main → ${released.status}: ${JSON.stringify(released.result.definitions ?? released.result.error)}`);
  const pr = example("pull_request", "opened");
  await deliver("pull_request", {
    ...pr, action: "opened", number: 42, installation, repository: repository(pr.repository),
    pull_request: { ...pr.pull_request, number: 42, head: { ...pr.pull_request.head, ref: feature.branch, sha: feature.sha }, base: { ...pr.pull_request.base, ref: "main" } },
  });
  const checked = await settled(before + 2);
  // The branch's new operation in the preview's own reference (a guide's `op:` link resolves the same way).
  let newOperation = "(none)";
  if (checked.result.previewUrl) {
    const at = await redirectOf(new URL("op/parcel-logistics-api/createreturn", checked.result.previewUrl));
    if (at) newOperation = new URL(at, checked.result.previewUrl).href;
  }
  const run = fake.log.filter((c) => c.method === "PATCH" && c.path.includes("/check-runs/")).at(-1);
  const comment = fake.log.filter((c) => c.path.includes("/comments")).at(-1);
  console.log(`
Branch ${feature.branch} (${feature.sha.slice(0, 7)}) of ${repoDir}
Preview:   ${checked.result.previewUrl ?? "(none)"}
Reference: ${newOperation}   (POST /returns, new on the branch: not in the live reference)
Check run "Portico": ${run?.body.conclusion} — ${run?.body.output.title}
${run?.body.output.summary ?? checked.result.summary}

Annotations (${fake.log.filter((c) => c.path.includes("/check-runs/")).flatMap((c) => c.body?.output?.annotations ?? []).length}):
${fake.log.filter((c) => c.path.includes("/check-runs/")).flatMap((c) => c.body?.output?.annotations ?? []).filter((a) => a.annotation_level !== "notice").map((a) => `  ${a.path}:${a.start_line} ${a.annotation_level} ${a.message}`).join("\n")}

Pull-request comment:
${comment?.body.body ?? "(none)"}

The same checks locally: cd ${repoDir} && git checkout ${feature.branch} && node ${join(root, "bin/portico.js")} check --definition parcel-logistics-api=openapi/parcel.yaml --content docs/ --base main`);
  await backlogPullRequest();
  if (process.argv.includes("--once")) process.exitCode = 0;
  else {
    console.log(`\nThe GitHub stand-in keeps running on ${fake.origin} (pull request pages, and the backlog page's "Open pull request"). Ctrl-C stops it.`);
    await new Promise((resolve) => process.once("SIGINT", resolve));
  }
} finally {
  await new Promise((resolve) => fake.server.close(resolve));
}

/** Drafts a guide for the largest no-hit backlog group (npm start seeded them) and opens it as a pull request. */
async function backlogPullRequest() {
  const api = async (method, path) => {
    const res = await fetch(`${origin}/v1/analytics${path}`, { method, headers: { authorization: `Bearer ${demo.token}` } });
    const body = await res.json().catch(() => ({}));
    return { status: res.status, body };
  };
  const backlog = await api("GET", "/backlog");
  if (backlog.status !== 200) return console.log(`\nBacklog: HTTP ${backlog.status} ${JSON.stringify(backlog.body)}`);
  // A draft already open for review is left as it is; the first group without one gets a new draft.
  const open = new Set(backlog.body.drafts.filter((d) => d.pullRequest).map((d) => d.groupId));
  const group = backlog.body.groups.find((g) => !open.has(g.id));
  if (!group) return console.log("\nBacklog: every group already has a pull request.");
  const drafted = await api("POST", `/backlog/${group.id}/draft`);
  if (drafted.status !== 201) return console.log(`\nBacklog draft: HTTP ${drafted.status} ${JSON.stringify(drafted.body)}`);
  const opened = await api("POST", `/backlog/drafts/${drafted.body.id}/pull-request`);
  if (opened.status !== 201) return console.log(`\nPull request: HTTP ${opened.status} ${opened.body.error?.message ?? JSON.stringify(opened.body)}`);
  const pr = opened.body.pullRequest;
  console.log(`
Backlog → pull request: “${group.label}” (${group.count} searches found nothing) drafted as ${pr.path}
Pull request #${pr.number}: ${pr.url}
  (branch ${pr.branch} from main; the description carries the queries and their counts; merging it is the review)
Backlog: ${origin}/p/${demo.slug}/admin/backlog  (sign in with the upload token: "Open pull request" on another draft)`);
}
