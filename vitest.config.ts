import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { generateKeyPairSync } from "node:crypto";
import { corpusService } from "./test/harness/corpus-service.ts";

/**
 * Projects: `core` runs the platform-free OpenAPI code under plain Node (it can read ../shared/corpus
 * directly); `workers` runs everything else inside workerd against miniflare's real D1, KV, R2 and Durable
 * Objects, with the migrations from migrations/ and the corpus served through a test-only service binding.
 */
/** Core test files that mock a module (vi.mock): isolated, so the mock never reaches another file. */
const MODULE_MOCKS = ["worker/render/single-page-budget.test.tsx", "worker/openapi/lint/walk/budget.test.ts", "worker/openapi/lint/examples/pattern-scope.test.ts"];

/** Worker test files asserting on the whole of a table, bucket or namespace: run with storage of their own. */
const WHOLE_STORAGE = ["test/portals.test.ts", "test/upload-huge.test.ts", "test/upload-handoff.test.ts", "test/search-shards.test.ts", "test/portal-storage.test.ts"];

export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  // Git sync's tests (test/git): a GitHub App key made for this run, handed out as GitHub does (PKCS#1 PEM); its
  // public half reaches the stand-in for GitHub's API (test/git/global-setup.ts) through the environment.
  // (The config may be read more than once per run: the first key made is kept.)
  if (!process.env.PORTICO_TEST_GITHUB_APP_PRIVATE_KEY) {
    const made = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs1", format: "pem" } });
    process.env.PORTICO_TEST_GITHUB_APP_PUBLIC_KEY = made.publicKey;
    process.env.PORTICO_TEST_GITHUB_APP_PRIVATE_KEY = made.privateKey;
  }
  const appKey = { privateKey: process.env.PORTICO_TEST_GITHUB_APP_PRIVATE_KEY! };
  const gitBindings = { GITHUB_APP_ID: "424242", GITHUB_APP_PRIVATE_KEY: appKey.privateKey, GITHUB_WEBHOOK_SECRET: "test-webhook-secret", GITLAB_TOKEN: "glpat-portico-test", GITLAB_WEBHOOK_SECRET: "test-gitlab-secret" };
  const workerd = (extra: Record<string, string> = {}) =>
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: { TEST_MIGRATIONS: migrations, PORTICO_ADMIN_TOKEN: "test-admin-token", SESSION_SECRET: "test-session-secret-0123456789abcdef", PORTICO_BASE_URL: "http://portico.test", CORPUS_SWEEP: process.env.CORPUS_SWEEP ?? "slice", ...extra },
        serviceBindings: { CORPUS: corpusService },
      },
    });
  return {
    test: {
      // No on-disk module cache: with it, every test file after a worker's first asks for a "warm" snapshot of its
      // whole import graph (vitest's fetchWarmModules), which @cloudflare/vitest-plugin 1.5 sends to workerd as one
      // WebSocket message; the Worker's graph (MCP SDK, zod, Stripe, the thesaurus) is past workerd's 1 MiB message
      // limit, so workerd dropped the connection ("Message is too large") and every such file failed. Modules are
      // then fetched one by one, from the dev server's in-memory transform cache.
      fsModuleCache: false,
      projects: [
        {
          test: {
            name: "core",
            include: ["worker/openapi/**/*.test.ts", "worker/content/**/*.test.ts", "worker/access/**/*.test.ts", "worker/search/**/*.test.ts", "worker/semantic/**/*.test.ts", "worker/assistant/**/*.test.ts", "worker/analytics/**/*.test.ts", "worker/render/**/*.test.ts", "worker/render/**/*.test.tsx", "client/**/*.test.ts", "test/repo/**/*.test.ts", "worker/lib/**/*.test.ts"],
            exclude: MODULE_MOCKS,
            environment: "node",
            // Corpus-reading tests take seconds on a busy 2-core machine; vitest's 5 s default made them flaky.
            testTimeout: 30_000,
            // Files share their worker's modules (no fresh module graph per file); the few that mock a module run below.
            isolate: false,
          },
        },
        {
          // Core files that replace a module with vi.mock (the budgets, made small): a module graph of their own each.
          test: { name: "core-mocks", include: MODULE_MOCKS, environment: "node", testTimeout: 30_000 },
        },
        {
          plugins: [workerd()],
          test: {
            name: "workers",
            include: ["test/**/*.test.ts"],
            exclude: ["test/e2e/**", "test/repo/**", "test/playground/**", "test/git/**", "test/mcp-oauth/**", ...WHOLE_STORAGE],
            setupFiles: ["./test/harness/apply-migrations.ts"],
            testTimeout: 60_000,
            // One workerd (and one Worker module graph) per pool worker for all its files, instead of one per file:
            // starting workerd and fetching the Worker's modules took about 6.6 s a file (about 9 minutes of the
            // suite's CPU). Files then share storage, so every file uses its own portals, and those that assert on
            // a whole table, bucket or namespace run isolated below.
            isolate: false,
          },
        },
        {
          // The Worker files that assert on a whole table, R2 bucket or KV namespace ("nothing else was written"):
          // each gets fresh storage, as every file did before.
          plugins: [workerd()],
          test: {
            name: "workers-isolated",
            include: WHOLE_STORAGE,
            setupFiles: ["./test/harness/apply-migrations.ts"],
            testTimeout: 60_000,
          },
        },
        {
          // The playground proxy's tests: workerd as above, plus a real upstream and a DNS-over-HTTPS responder on
          // 127.0.0.1 started beside the tests (test/playground/global-setup.ts), and the real oauth2-mock-server with a
          // resource it protects (test/playground/oauth-setup.ts).
          plugins: [workerd()],
          test: {
            name: "playground",
            include: ["test/playground/**/*.test.ts"],
            setupFiles: ["./test/harness/apply-migrations.ts"],
            globalSetup: ["./test/playground/global-setup.ts", "./test/playground/oauth-setup.ts"],
            testTimeout: 60_000,
          },
        },
        {
          // The MCP endpoint's OAuth authorization server (worker/access/oauth.ts): OAuth 2.1 needs https (or a loopback
          // host) for the issuer and resources, so the service's base URL is https here; requests to http://portico.test
          // (the harness) still reach the service host, whose host name is the same.
          plugins: [workerd({ PORTICO_BASE_URL: "https://portico.test" })],
          test: {
            name: "mcp-oauth",
            include: ["test/mcp-oauth/**/*.test.ts"],
            setupFiles: ["./test/harness/apply-migrations.ts"],
            testTimeout: 60_000,
          },
        },
        {
          // Git sync: workerd as above with the GitHub App's secrets, plus a stand-in for GitHub's and GitLab's REST
          // API on 127.0.0.1 serving `git archive` of a real repository made for the run (test/git/global-setup.ts).
          plugins: [workerd(gitBindings)],
          test: {
            name: "git",
            include: ["test/git/**/*.test.ts"],
            setupFiles: ["./test/harness/apply-migrations.ts"],
            globalSetup: ["./test/git/global-setup.ts"],
            testTimeout: 60_000,
          },
        },
        {
          test: {
            name: "e2e",
            include: ["test/e2e/**/*.test.ts"],
            environment: "node",
            globalSetup: ["./test/e2e/global-setup.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            // expect.poll gives up after 1 s by default: the editor's first Visual edit or conversion starts a
            // worker (353 KB of script) and took longer than that on the shared 2-core machine under load.
            expect: { poll: { timeout: 15_000 } },
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
