// Search index on GitHub's REST description (1,223 operations): document generation, build time, index size,
// load time (what an isolate pays), and query latency in-process over a set of everyday queries.
// Usage: node bench/search-github.mjs [file]   (bundles worker/search with esbuild first)
import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { githubDocs } from "./search/github-docs.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const FILE = process.argv[2] ?? join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
const OUT = join(ROOT, "node_modules/.cache/portico-search-bench");
const QUERIES = [
  "get repository content", "list pull requests", "create an issue comment", "delete a repo", "merge pull request",
  "list org members", "add collaborator", "create release", "download artifact", "list workflow runs", "rerun job",
  "get commit", "compare two commits", "create gist", "star a repository", "check run annotations", "webhook deliveries",
  "protect branch", "dependabot alerts", "code scanning alerts", "how do i fork a repository", "remove label from issue",
  "reactions", "get the authenticated user", "list deploy keys", "create deployment status", "secret scanning",
  "lisr pul reqests", "create relea", "org secrets", "copilot seats", "get readme", "update branch protection",
];

const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];

/** Prints the figures; returns them too. */
export async function main() {
  mkdirSync(OUT, { recursive: true });
  await build({ entryPoints: [join(ROOT, "worker/search/index.ts")], bundle: true, format: "esm", platform: "neutral", outfile: join(OUT, "engine.mjs"), logLevel: "warning", mainFields: ["module", "main"] });
  const { buildSearchIndex, loadSearchIndex } = await import(pathToFileURL(join(OUT, "engine.mjs")).href);
  let t = performance.now();
  const docs = githubDocs(FILE);
  const docsMs = performance.now() - t;
  t = performance.now();
  const data = buildSearchIndex(docs);
  const buildMs = performance.now() - t;
  t = performance.now();
  const index = loadSearchIndex(data);
  const loadMs = performance.now() - t;
  t = performance.now();
  index.search("create reposit", { canRead: () => true });
  const firstMs = performance.now() - t;
  const times = [];
  for (let round = 0; round < 3; round++) {
    for (const q of QUERIES) {
      const t0 = performance.now();
      index.search(q, { canRead: () => true, limit: 10 });
      times.push(performance.now() - t0);
    }
  }
  // Access checks (issue 8's goal: under 1 ms added, p95): the same queries as a partner on a portal whose policy
  // gates the API by section, over the operations plus 1,000 guide sections each governed by its own path (the
  // worst case: one policy evaluation per distinct page).
  await build({ entryPoints: [join(ROOT, "worker/access/labels.ts")], bundle: true, format: "esm", platform: "neutral", outfile: join(OUT, "labels.mjs"), logLevel: "warning" });
  const { documentReadable } = await import(pathToFileURL(join(OUT, "labels.mjs")).href);
  const guides = Array.from({ length: 1000 }, (_, i) => ({
    id: `guide:en:g${i}`, kind: "guide", title: `Guide ${i} on repositories and pull requests`, body: `Working with repository ${i}, issues and releases.`,
    url: `/guides/g${i}`, locale: "en", labels: i % 10 === 0 ? ["beta"] : [], ...(i % 10 === 0 ? {} : { policyPath: `/guides/g${i}` }),
  }));
  const gated = loadSearchIndex(buildSearchIndex([...docs.map((d) => ({ ...d, policyPath: "/reference/github/" })), ...guides]));
  const access = {
    policy: { default: "private", methods: ["password"], sections: [{ prefix: "/reference/github", audiences: ["partners"] }, { prefix: "/guides", audiences: ["partners", "staff"] }] },
    navigation: [{ title: "Partners", items: ["api:github"] }],
  };
  const partner = { audiences: ["public", "signed-in", "partners"] };
  const open = [], checked = [];
  for (let round = 0; round < 3; round++) {
    for (const q of QUERIES) {
      let t0 = performance.now();
      gated.search(q, { canRead: () => true, limit: 10 });
      open.push(performance.now() - t0);
      t0 = performance.now();
      gated.search(q, { canRead: (labels, path) => documentReadable(partner, access, labels, path), limit: 10 });
      checked.push(performance.now() - t0);
    }
  }
  // The work checks add per query: one decision per distinct (labels, policy path) pair, as the engine memoises.
  const pairs = [...new Map([...docs.map(() => [[], "/reference/github/"]), ...guides.map((g) => [g.labels, g.policyPath])].map((p) => [JSON.stringify(p), p])).values()];
  const decisions = [];
  for (let round = 0; round < 50; round++) {
    const t0 = performance.now();
    for (const [labels, path] of pairs) documentReadable(partner, access, labels, path);
    decisions.push(performance.now() - t0);
  }
  const figures = {
    operations: docs.length, docsMs: Math.round(docsMs), buildMs: Math.round(buildMs), indexKB: Math.round(data.length / 1024),
    loadMs: +loadMs.toFixed(1), firstQueryMs: +firstMs.toFixed(1), p50Ms: +pct(times, 50).toFixed(2), p95Ms: +pct(times, 95).toFixed(2),
    accessDocs: docs.length + guides.length, accessPairs: pairs.length, accessDecisionsP50Ms: +pct(decisions, 50).toFixed(3), accessDecisionsP95Ms: +pct(decisions, 95).toFixed(3),
    accessCheckedP95Ms: +pct(checked, 95).toFixed(2), accessOpenP95Ms: +pct(open, 95).toFixed(2),
  };
  console.log(`search-github: ${JSON.stringify(figures)}`);
  for (const q of QUERIES) {
    const top = index.search(q, { canRead: () => true, limit: 3 }).results.map((r) => r.doc.title);
    console.log(`  ${q.padEnd(28)} → ${top.join(" | ").slice(0, 140)}`);
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
