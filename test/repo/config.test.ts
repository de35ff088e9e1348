/// <reference types="node" />
/**
 * @module The deploy configuration stays buildable: the generated Worker types match wrangler.toml, and the
 * production environment bundles (`wrangler deploy --dry-run --env production`, which uploads nothing).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");

function wrangler(args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [WRANGLER, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

describe("deploy configuration", () => {
  it("worker-configuration.d.ts is what `npm run types` generates from wrangler.toml", () => {
    const run = wrangler(["types", "--check", "--env-file", "scripts/types/secrets.env", "--strict-vars=false"]);
    expect(run.output).toContain("up to date");
    expect(run.status).toBe(0);
  }, 120_000);

  it("the production environment builds (`wrangler deploy --dry-run --env production`)", () => {
    const outdir = mkdtempSync(join(tmpdir(), "portico-deploy-"));
    try {
      const run = wrangler(["deploy", "--dry-run", "--env", "production", "--outdir", outdir]);
      expect(run.output).toMatch(/--dry-run: exiting now/);
      for (const binding of ["DB", "MODELS", "DEFINITIONS", "PUBLISHER", "ASSETS", "AI", "VECTORIZE"]) {
        expect(run.output).toMatch(new RegExp(`env\\.${binding}\\b`));
      }
      expect(run.status).toBe(0);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 120_000);
});
