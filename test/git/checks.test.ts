/** The pre-merge checks' work on the check path (worker/git/checks.ts): what is reused instead of done twice. */
import { describe, expect, it } from "vitest";
import { runChecks } from "../../worker/git/checks";
import type { CompiledRelease } from "../../worker/content/compile";

const enc = (s: string) => new TextEncoder().encode(s);
const definition = (extra = "") => enc(`openapi: 3.1.0
info: {title: T, version: "1.0.0"}
paths:
  /a:
    get:
      operationId: getA
      summary: A
      description: Reads A.
      responses: {"200": {description: ok}}
${extra}`);
const source = (body: Uint8Array) => ({ api: "t", file: "openapi/t.yaml", body, contentType: "application/yaml" });

describe("runChecks", () => {
  it("takes a base of the same bytes as unchanged (built once: no new operation, no change) and still diffs a changed one", async () => {
    const blocking = ["lint", "broken-links", "undocumented-operations", "breaking-changes"] as const;
    const same = await runChecks({ definitions: [source(definition())], base: [source(definition())], blocking });
    expect(same.diff).toEqual([{ api: "t", newApi: false, added: [], removed: 0, breaking: 0, changes: 0 }]);
    expect(same.conclusion).toBe("success");
    const added = await runChecks({
      definitions: [source(definition("  /b:\n    get:\n      operationId: getB\n      responses: {\"200\": {description: ok}}\n"))], base: [source(definition())], blocking,
    });
    expect(added.diff[0].added).toEqual([{ method: "GET", path: "/b" }]);
    expect(added.checks.find((c) => c.id === "undocumented-operations")!.failures).toBe(1);
  });

  it("hands the compiled content folder to its caller (the preview publishes it without compiling it again)", async () => {
    let handed: CompiledRelease | undefined;
    const content = new Map([["guides/a.md", enc("---\ntitle: A\n---\nSee [get A](op:t#getA).\n")]]);
    const report = await runChecks({ definitions: [source(definition())], content, contentPath: "docs/", blocking: ["broken-links"], onContent: (c) => (handed = c) });
    expect(report.checks.find((c) => c.id === "broken-links")!.passed).toBe(true);
    expect(handed?.pages.map((p) => p.meta.slug)).toEqual(["a"]);
  });
});
