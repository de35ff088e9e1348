/**
 * @module E2E global setup: makes sure Debian Chromium is there, then starts `wrangler dev` (the same Worker
 * `npm start` runs) on 127.0.0.1 with a throw-away local state, and `prism mock` of the demo definition (request
 * validation on) on a free 127.0.0.1 port, and hands their URLs and the admin token to the tests.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import type { TestProject } from "vitest/node";
// @ts-expect-error: a plain .mjs module shared with the benchmarks
import { freePort, startDevServer } from "../../scripts/lib/dev-server.mjs";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs
import { startLocalMock } from "../../scripts/lib/local-mock.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    /** The demo API's prism mock (`http://127.0.0.1:{port}`). */
    mockUrl: string;
  }
}

/** Where playwright-core finds the browser (never a downloaded one). */
export const CHROMIUM = "/usr/bin/chromium";

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0) throw new Error(`${CHROMIUM} is missing: run "apt-get install -y chromium" as root`);
  execFileSync("apt-get", ["update"], { stdio: "inherit" });
  execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], { stdio: "inherit" });
}

let server: { stop(): Promise<void> } | undefined;
let mock: { url: string; stop(): Promise<void> } | undefined;

export async function setup(project: TestProject): Promise<void> {
  ensureChromium();
  const [dev, prism] = await Promise.allSettled([startDevServer(), freePort().then((port: number) => startLocalMock({ port }))]);
  // Vitest runs no teardown when setup throws: whichever server did start must be stopped here, or it outlives the run.
  if (dev.status === "rejected" || prism.status === "rejected") {
    await Promise.all([dev.status === "fulfilled" ? dev.value.stop() : undefined, prism.status === "fulfilled" ? prism.value.stop() : undefined]);
    throw dev.status === "rejected" ? dev.reason : (prism as PromiseRejectedResult).reason;
  }
  const started = dev.value;
  const mocked = prism.value;
  server = started;
  mock = mocked;
  project.provide("mockUrl", mocked.url);
  project.provide("baseUrl", started.baseUrl);
  project.provide("adminToken", started.adminToken);
}

export async function teardown(): Promise<void> {
  await Promise.all([server?.stop(), mock?.stop()]);
}
