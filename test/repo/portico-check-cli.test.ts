/// <reference types="node" />
/**
 * @module `portico check` (bin/portico.js): Git sync's pre-merge checks on a folder of a real git repository (the
 * demo's, scripts/lib/demo-repository.mjs), with `--base` read through `git archive`; text, JSON and GitHub
 * annotations; exit 1 on a blocking failure, 0 otherwise, 2 on unusable input.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { addFeatureBranch, createDemoRepository } from "../../scripts/lib/demo-repository.mjs";

const ROOT = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "portico-check-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
createDemoRepository(dir);
const feature = addFeatureBranch(dir);
const ARGS = ["--definition", "parcel-logistics-api=openapi/parcel.yaml", "--content", "docs/"];

function portico(...args: string[]) {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/portico.js"), ...args], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
const lineOf = (text: string, pattern: RegExp) => text.split("\n").findIndex((l) => pattern.test(l)) + 1;

describe("portico check", () => {
  it("passes on main (exit 0), and fails the feature branch against --base main (exit 1) with findings at their lines", () => {
    execFileSync("git", ["checkout", "-q", "main"], { cwd: dir });
    const clean = portico("check", ...ARGS, "--base", "main");
    expect(clean.stderr).toBe("");
    expect(clean.stdout).toContain("checks passed");
    expect(clean.status).toBe(0);
    execFileSync("git", ["checkout", "-q", feature.branch], { cwd: dir });
    const run = portico("check", ...ARGS, "--base", "main");
    expect(run.status).toBe(1);
    const guideLine = lineOf(feature.guide, /see \[returns\]/);
    expect(run.stdout).toContain(`docs/guides/tracking.md:${guideLine} failure broken-links`);
    expect(run.stdout).toMatch(/openapi\/parcel\.yaml:\d+ failure lint path-params/);
    expect(run.stdout).toMatch(/failure undocumented-operations undocumented-operation POST \/returns is new and lacks a description/);
    expect(run.stdout).toMatch(/warning breaking-changes new-required-request-parameter/);
    expect(run.stdout).toContain("warn Breaking changes: 1 finding(s) (not blocking)");
    // Breaking changes block when asked to; nothing blocks when nothing is listed.
    expect(portico("check", ...ARGS, "--base", "main", "--blocking", "").status).toBe(0);
    expect(portico("check", ...ARGS, "--base", "main", "--blocking", "breaking-changes").status).toBe(1);
  }, 60_000);

  it("prints JSON and GitHub workflow annotations", () => {
    execFileSync("git", ["checkout", "-q", feature.branch], { cwd: dir });
    const json = JSON.parse(portico("check", ...ARGS, "--base", "main", "--format", "json").stdout);
    expect(json.conclusion).toBe("failure");
    expect(json.checks.map((c: { id: string }) => c.id)).toEqual(["lint", "broken-links", "undocumented-operations", "breaking-changes"]);
    const github = portico("check", ...ARGS, "--base", "main", "--format", "github").stdout;
    expect(github).toMatch(/^::error file=docs\/guides\/tracking\.md,line=\d+,title=Broken links \(broken-guide-link\)::/m);
    expect(github).toMatch(/^::warning file=openapi\/parcel\.yaml,line=\d+,title=Breaking changes \(new-required-request-parameter\)::/m);
  }, 60_000);

  it("without --base skips the comparisons; bad input exits 2", () => {
    const run = portico("check", ...ARGS, "--format", "json");
    const json = JSON.parse(run.stdout);
    expect(json.checks.find((c: { id: string }) => c.id === "breaking-changes").note).toBe("no base to compare with");
    expect(portico("check", "--definition", "x=missing.yaml").status).toBe(2);
    expect(portico("check", ...ARGS, "--base", "no-such-ref").stderr).toContain("--base no-such-ref");
    expect(portico("check").status).toBe(2);
  }, 60_000);
});
