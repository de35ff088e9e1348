/// <reference types="node" />
/**
 * @module `portico lint` (bin/portico.js) applies the same ruleset as uploads and the editor: a portico.yaml
 * `lint:` section or a Spectral ruleset file; exit status 1 on errors, 2 on a wrong ruleset.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "portico-lint32-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DEFINITION = 'openapi: 3.1.0\ninfo: {title: T, version: "1"}\npaths:\n  /a/{id}:\n    get:\n      responses: {"200": {description: ok}}\n';

function portico(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [join(ROOT, "bin/portico.js"), ...args], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("portico lint", () => {
  writeFileSync(join(dir, "openapi.yaml"), DEFINITION);

  it("lints with spectral:oas as is without a ruleset", () => {
    const run = portico("lint", "openapi.yaml", "--format", "json");
    const result = JSON.parse(run.stdout);
    const rules = result.problems.map((p: { rule: string; severity: string }) => `${p.rule} ${p.severity}`);
    expect(rules).toEqual(expect.arrayContaining(["operation-operationId warning", "info-description warning", "path-params error"]));
    expect(run.status).toBe(1);
  }, 60_000);

  it("applies ./portico.yaml's `lint:` section: off, raised, lowered under a path", () => {
    writeFileSync(join(dir, "portico.yaml"), 'name: X\nlint:\n  rules:\n    operation-operationId: off\n    info-description: error\n  overrides:\n    - files: ["#/paths/~1a~1{id}"]\n      rules: {path-params: warn}\n');
    const run = portico("lint", "openapi.yaml");
    expect(run.stdout).not.toContain("operation-operationId");
    expect(run.stdout).toMatch(/openapi\.yaml:2:1 +error +info-description/);
    expect(run.stdout).toMatch(/openapi\.yaml:5:5 +warning +path-params/);
    expect(run.status).toBe(1);
    rmSync(join(dir, "portico.yaml"));
  }, 60_000);

  it("reads a Spectral ruleset file and refuses what it cannot honour (exit 2)", () => {
    writeFileSync(join(dir, ".spectral.yaml"), "extends: [[spectral:oas, off]]\nrules:\n  operation-tags: warn\n");
    const ok = portico("lint", "openapi.yaml", "--ruleset", ".spectral.yaml", "--format", "json");
    expect(JSON.parse(ok.stdout).problems.map((p: { rule: string }) => p.rule)).toEqual(["operation-tags"]);
    expect(ok.status).toBe(0);
    writeFileSync(join(dir, ".spectral.yaml"), "extends: spectral:oas\nrules: {my-rule: {given: $, then: {function: truthy}}}\n");
    const bad = portico("lint", "openapi.yaml", "--ruleset", ".spectral.yaml");
    expect(bad.stderr).toContain("`ruleset.rules.my-rule`");
    expect(bad.status).toBe(2);
  }, 60_000);
});
