/// <reference types="node" />
/**
 * @module Helpers written once (issue 38): a second copy of entity escaping or of a `{{name}}` filler drifts from the
 * first (one of three fillers looked values up without Object.hasOwn, so `{{constructor}}` printed a function).
 * Each check names the one module allowed to hold the code, and fails when another source file does.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** Tracked TypeScript sources of worker/, client/ and cli/ (tests and test helpers left out). */
function sources(): string[] {
  return execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "worker", "client", "cli"], { cwd: ROOT, encoding: "utf8" })
    .split("\0")
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$|\/testing\//.test(f));
}

/** Source files (other than `allowed`) whose text matches `pattern`. */
function holders(pattern: RegExp, allowed: string): string[] {
  return sources().filter((f) => f !== allowed && pattern.test(readFileSync(resolve(ROOT, f), "utf8")));
}

describe("written once", () => {
  it("entity escaping for HTML and XML: worker/lib/html-escape.ts", () => {
    expect(holders(/["'`]&gt;["'`]|&gt;/, "worker/lib/html-escape.ts")).toEqual([]);
  });

  it("`{{name}}` filling (a placeholder's name captured to look its value up): worker/lib/placeholders.ts", () => {
    // A pattern literal capturing a placeholder's name: /\{\{(…)\}\}/ or /%7B%7B(…)%7D%7D/.
    expect(holders(/\/\\\{\\\{\(|%7B%7B\(/, "worker/lib/placeholders.ts")).toEqual([]);
  });
});
