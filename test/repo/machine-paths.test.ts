/// <reference types="node" />
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { findMachinePaths } from "./machine-paths";

const ROOT = resolve(import.meta.dirname, "../..");
/** Text files worth reading: skip the lock file, generated types and binary fixtures. */
const SKIP = /(^|\/)(package-lock\.json|worker-configuration\.d\.ts)$|\.(png|gz|zip|tgz|wasm|ico|woff2?)$/;

describe("findMachinePaths", () => {
  it("finds workspace, home and Windows user paths", () => {
    // Built from parts so that this file names no machine path itself.
    const root = (name: string) => `/${name}/`;
    const text = [`const c = "${root("work")}shared/corpus";`, `// see ${root("home")}alice/x.yaml`, `const w = "C:\\\\${"Users"}\\\\bob"`, "ok"].join("\n");
    expect(findMachinePaths(text).map((p) => p.line)).toEqual([1, 2, 3]);
  });

  it("leaves relative paths, system paths, URLs and exempt lines alone", () => {
    const text = [
      'resolve(dir, "../shared/corpus")',
      'const CHROMIUM = "/usr/bin/chromium";',
      "$ref: ../../etc/passwd",
      "https://example.com/home/page",
      `a ~${"/"}work/x path`,
      '"/root/.ssh/id_rsa" // machine-path-ok: hostile archive entry',
    ].join("\n");
    expect(findMachinePaths(text)).toEqual([]);
  });
});

describe("the project", () => {
  it("names no absolute path of one machine in any tracked file", () => {
    const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter((f) => f && !SKIP.test(f));
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      let text: string;
      try {
        text = readFileSync(resolve(ROOT, file), "utf8");
      } catch {
        continue; // deleted in the working tree
      }
      for (const hit of findMachinePaths(text)) offenders.push(`${file}:${hit.line} ${hit.path}`);
    }
    expect(offenders).toEqual([]);
  });
});
