/**
 * @module A definition without a version (issue 12: 4 of 245 real definitions tried had `info.version: ""`)
 * publishes under the fallback label, the upload date in UTC (publish/names.ts says why a date, not `latest`),
 * with a `version-fallback` warning at `info.version`; `?version=` still wins. The fixture is the OpenAPI
 * Initiative's petstore.yaml (../shared/corpus/oai-spec/examples/v3.0/) with `version: ""`.
 */
import { describe, expect, it } from "vitest";
import emptyVersion from "./fixtures/petstore-empty-version.yaml?raw";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import { operationLinks } from "./fuzz/pages";
import { SELF } from "cloudflare:test";

/** Today's fallback label (UTC), read around the upload so a run across midnight still matches one of them. */
const today = () => new Date().toISOString().slice(0, 10);

describe("the fallback version label", () => {
  it("an empty info.version publishes under the upload date with a lint warning at info.version", async () => {
    const token = await createPortal("no-version");
    const before = today();
    const res = await upload(token, emptyVersion, { api: "petstore" });
    const labels = new Set([before, today()]);
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(201);
    expect(labels.has(res.json.version)).toBe(true);
    expect(res.json.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(res.json.url).toBe(`${ORIGIN}/p/no-version/reference/petstore/${res.json.version}/`);
    const fallback = res.json.lint.issues.filter((i: any) => i.rule === "version-fallback");
    expect(fallback).toEqual([{
      severity: "warning", rule: "version-fallback", line: 3, column: 3, path: ["info", "version"],
      message: `info.version is empty: published under the upload date "${res.json.version}" (set info.version, or ?version=, to choose the label)`,
    }]);
    expect(res.json.lint.warnings).toBe(res.json.lint.issues.filter((i: any) => i.severity === "warning").length);

    // The reference serves under that label, every page of it; the stored report carries the warning too.
    const versionPath = new URL(res.json.url).pathname;
    const index = await getPage(versionPath);
    expect(index.status).toBe(200);
    const links = operationLinks(index.html, versionPath);
    expect(links.length).toBe(3);
    for (const href of links) expect((await getPage(href)).status).toBe(200);
    const stored = (await (await SELF.fetch(res.json.lint.url, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(stored.issues.filter((i: any) => i.rule === "version-fallback")).toEqual(fallback);

    // ?version= names it instead, without the warning.
    const named = await upload(token, emptyVersion, { api: "petstore", version: "1.0.0" });
    expect(named.status).toBe(201);
    expect(named.json.version).toBe("1.0.0");
    expect(named.json.lint.issues.some((i: any) => i.rule === "version-fallback")).toBe(false);
  });

  it("white space, missing and non-text versions fall back too, each saying which; a bad label is still refused", async () => {
    const token = await createPortal("no-version-shapes");
    const cases: [string, string, string, (string | number)[]][] = [
      ["white space", emptyVersion.replace('version: ""', 'version: "   "'), "info.version is white space", ["info", "version"]],
      ["missing", emptyVersion.replace('  version: ""\n', ""), "info.version is missing", ["info"]],
      ["an object", emptyVersion.replace('version: ""', "version: {major: 1}"), "info.version is not text", ["info", "version"]],
      ["null", emptyVersion.replace('version: ""', "version: ~"), "info.version is missing", ["info", "version"]],
    ];
    for (const [what, body, message, path] of cases) {
      const res = await upload(token, body, { api: "p" });
      expect(res.status, `${what}: ${JSON.stringify(res.json).slice(0, 300)}`).toBe(201);
      const issue = res.json.lint.issues.find((i: any) => i.rule === "version-fallback");
      expect(issue, what).toMatchObject({ severity: "warning", path, message: expect.stringContaining(`${message}: published under the upload date "${res.json.version}"`) });
    }
    const bad = await upload(token, emptyVersion.replace('version: ""', 'version: "a\\u202eb"'), { api: "p" });
    expect(bad.status).toBe(422);
    expect(bad.json.error).toMatchObject({ code: "invalid-version", details: { field: "info.version" } });
  });
});
