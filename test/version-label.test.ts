/**
 * @module An `info.version` with a "/" (issue 38: the corpus's citrixonline.com scim.json has `version: N/A`) is a
 * valid document: it publishes under a label with "-" for each "/", says so in a `version-label` lint note, and the
 * reference shows the version as written beside the label. `?version=` with a "/" is still refused (400): whoever
 * chose it can choose again.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpusFile, createPortal, getPage, ORIGIN, upload } from "./harness/client";

const SCIM = "apis-guru-npm/api/citrixonline.com/scim.json";

describe("a version label derived from info.version", () => {
  it("info.version N/A publishes as N-A with a version-label note at info.version; the reference shows both", async () => {
    const token = await createPortal("slash-version");
    const res = await upload(token, (await corpusFile(SCIM)).body, { api: "scim" }, "application/json");
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(201);
    expect(res.json.version).toBe("N-A");
    expect(res.json.url).toBe(`${ORIGIN}/p/slash-version/reference/scim/N-A/`);
    const notes = res.json.lint.issues.filter((i: any) => i.rule === "version-label");
    expect(notes).toEqual([{
      severity: "info", rule: "version-label", line: 1, column: expect.any(Number), path: ["info", "version"],
      message: 'info.version "N/A" contains "/", which a label (one URL path segment) cannot: published under the label "N-A" (set ?version= to choose another)',
    }]);
    // A note, not a warning: the counts are unchanged by it.
    expect(res.json.lint.warnings).toBe(res.json.lint.issues.filter((i: any) => i.severity === "warning").length);

    const index = await getPage(new URL(res.json.url).pathname);
    expect(index.status).toBe(200);
    expect(index.html).toContain('<span class="ch">version N/A</span><span class="ch">label N-A</span>');
    const stored = (await (await SELF.fetch(res.json.lint.url, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(stored.issues.filter((i: any) => i.rule === "version-label")).toEqual(notes);

    // Re-posting is unchanged (same label), not a second publication.
    const again = await upload(token, (await corpusFile(SCIM)).body, { api: "scim" }, "application/json");
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ version: "N-A", unchanged: true });
  });

  it("a backslash is replaced too; a label that differs only by what it was derived from shows no second version", async () => {
    const token = await createPortal("slash-shapes");
    const doc = (version: string) => JSON.stringify({ openapi: "3.0.3", info: { title: "t", version }, paths: {} });
    const res = await upload(token, doc("2024/01\\b"), { api: "t" }, "application/json");
    expect(res.status, JSON.stringify(res.json).slice(0, 300)).toBe(201);
    expect(res.json.version).toBe("2024-01-b");
    expect(res.json.lint.issues.find((i: any) => i.rule === "version-label")?.message).toContain('info.version "2024/01\\b" contains "/" and "\\"');
    const plain = await upload(token, doc("1.0.0"), { api: "t" }, "application/json");
    expect(plain.json.lint.issues.some((i: any) => i.rule === "version-label")).toBe(false);
    expect((await getPage(new URL(plain.json.url).pathname)).html).not.toContain('<span class="ch">label ');
  });

  it("other problems in info.version are still refused (422), and ?version= with a \"/\" is still 400", async () => {
    const token = await createPortal("slash-refused");
    const doc = (version: string) => JSON.stringify({ openapi: "3.0.3", info: { title: "t", version }, paths: {} });
    const control = await upload(token, doc("1/\u0007"), { api: "t" }, "application/json");
    expect(control.status).toBe(422);
    expect(control.json.error).toMatchObject({ code: "invalid-version", details: { field: "info.version" } });
    const query = await upload(token, doc("1.0"), { api: "t", version: "a/b" }, "application/json");
    expect(query.status).toBe(400);
    expect(query.json.error).toMatchObject({ code: "invalid-version", message: '?version= cannot contain "/" or "\\"' });
  });
});
