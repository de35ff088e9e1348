/// <reference types="node" />
/**
 * @module The `portico` command as CI runs it: `node bin/portico.js` (the committed bundle, checked current) with
 * its exit statuses: 0 below the threshold, 1 at or above it (lint: errors), 2 on unreadable input with the file
 * and line, or on a usage error.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/portico.js");
const dir = mkdtempSync(join(tmpdir(), "portico-diff-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Writes a fixture pair of test/fixtures/diff as two files; returns their paths. */
function pair(family: string, name: string): [string, string] {
  const c = JSON.parse(readFileSync(join(ROOT, "test/fixtures/diff", family, `${name}.json`), "utf8"));
  const base = join(dir, `${family}-${name}-base.json`);
  const revision = join(dir, `${family}-${name}-revision.yaml`);
  writeFileSync(base, JSON.stringify(c.base));
  writeFileSync(revision, JSON.stringify(c.revision, null, 2)); // JSON is YAML: the CLI reads either
  return [base, revision];
}

describe("portico CLI", () => {
  it("bin/portico.js is what `npm run build:cli` builds from cli/portico.ts", () => {
    const r = run([join(ROOT, "scripts/build-cli.mjs"), "--check"]);
    expect(r.stdout + r.stderr).toContain("up to date");
    expect(r.status).toBe(0);
  }, 120_000);

  it("diff exits 1 on a breaking change and prints it", () => {
    const [base, revision] = pair("parameters", "required-added");
    const r = run([BIN, "diff", base, revision]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("ERR  new-required-request-parameter  GET /pets");
  });

  it("diff exits 0 below the threshold, and 1 once --fail-on WARN reaches it", () => {
    const [base, revision] = pair("parameters", "required-added");
    // reversed: the parameter is removed, a WARN
    expect(run([BIN, "diff", revision, base]).status).toBe(0);
    const r = run([BIN, "diff", revision, base, "--fail-on", "WARN", "--format", "json"]);
    expect(r.status).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.breaking).toBe(false);
    expect(json.changes.map((c: { id: string; level: string }) => `${c.id} ${c.level}`)).toEqual(["request-parameter-removed WARN"]);
  });

  it("diff prints markdown grouped by operation", () => {
    const [base, revision] = pair("responses", "required-property-removed");
    const r = run([BIN, "diff", base, revision, "--format=markdown"]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("## GET /pets");
    expect(r.stdout).toContain("| ERR | `response-required-property-removed` |");
  });

  it("diff exits 2 on an unparsable side, naming the file and line", () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "openapi: 3.0.3\ninfo: {title: t\n  version: 1\npaths: {}\n");
    const [base] = pair("parameters", "required-added");
    const r = run([BIN, "diff", base, bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`${bad.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:\\d+: `));
  });

  it("diff exits 2 on a missing file or a usage error", () => {
    const missing = run([BIN, "diff", join(dir, "nope.yaml"), join(dir, "nope2.yaml")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("nope.yaml: cannot read");
    const usage = run([BIN, "diff", "only-one.yaml"]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("usage:");
    expect(run([BIN, "diff", "a", "b", "--fail-on", "INFO"]).status).toBe(2);
  });

  it("lint runs the lint engine: 0 without errors, 1 with errors, 2 on unparsable input", () => {
    expect(run([BIN, "lint", join(ROOT, "test/fixtures/petstore-v3.yaml")]).status).toBe(0);
    const broken = join(dir, "broken-ref.yaml");
    writeFileSync(broken, "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          $ref: '#/components/responses/Missing'\n");
    const r = run([BIN, "lint", broken]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain("error");
    const bad = join(dir, "bad-lint.yaml");
    writeFileSync(bad, "openapi: [\n");
    expect(run([BIN, "lint", bad]).status).toBe(2);
  });
});
