import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";
import { uploadContent } from "./content/bundles";

const FLAWED = `openapi: 3.0.3
info:
  title: Flawed
  version: "1.0"
paths:
  /things/{id}:
    get:
      summary: Get a thing
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Missing"
`;

describe("upload lint", () => {
  it("returns spectral:oas problems with lines and publishes anyway", async () => {
    const token = await createPortal("linted");
    const { status, json } = await upload(token, FLAWED, { api: "flawed" });
    expect(status).toBe(201);
    const byRule = (rule: string) => json.lint.issues.filter((i: any) => i.rule === rule);
    expect(byRule("operation-operationId")).toEqual([
      expect.objectContaining({ severity: "warning", line: 7, path: ["paths", "/things/{id}", "get"] }),
    ]);
    expect(byRule("path-params")).toEqual([expect.objectContaining({ severity: "error", line: 7 })]);
    expect(byRule("invalid-ref")).toEqual([expect.objectContaining({ severity: "error", line: 15 })]);
    expect(byRule("unresolved-ref")).toEqual([]);
    expect(json.lint.errors).toBe(json.lint.issues.filter((i: any) => i.severity === "error").length);
    expect(json.lint.errors).toBeGreaterThanOrEqual(2);
    const list = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(list.apis[0].versions[0].lint).toEqual({ status: "complete", errors: json.lint.errors, warnings: json.lint.warnings });
    expect(json.lint).toMatchObject({ status: "complete", url: `${ORIGIN}/v1/apis/flawed/versions/1.0/lint` });
  });

  it("?strict=true refuses with 422 and the problems when lint finds an error, publishing nothing", async () => {
    const token = await createPortal("strict");
    const { status, json } = await upload(token, FLAWED, { api: "flawed", strict: "true" });
    expect(status).toBe(422);
    expect(json.error.code).toBe("lint-errors");
    expect(json.error.details.lint.issues.some((i: any) => i.rule === "path-params")).toBe(true);
    const list = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(list.apis).toEqual([]);
    const clean = FLAWED.replace("/things/{id}:", "/things:").replace('"#/components/schemas/Missing"', '"#/components/schemas/Thing"') +
      "components:\n  schemas:\n    Thing:\n      type: object\n";
    const ok = await upload(token, clean, { api: "flawed", strict: "true" });
    expect(ok.status).toBe(201);
    expect(ok.json.lint.errors).toBe(0);
  });
  it("applies the portal's ruleset (portico.yaml `lint:`): a rule turned off, one raised, one lowered under a path", async () => {
    const token = await createPortal("ruleset");
    const before = await upload(token, FLAWED, { api: "flawed" });
    const rules = (json: any) => json.lint.issues.map((i: any) => `${i.rule} ${i.severity}`);
    expect(rules(before.json)).toEqual(expect.arrayContaining(["operation-operationId warning", "info-description warning", "path-params error"]));

    const portico = [
      "name: Rules",
      "lint:",
      "  extends: spectral:oas",
      "  rules:",
      "    operation-operationId: off",
      "    info-description: error",
      "  overrides:",
      '    - files: ["**#/paths/~1things~1{id}"]',
      "      rules:",
      "        path-params: warn",
      "",
    ].join("\n");
    const content = await uploadContent(token, { "portico.yaml": portico, "guides/intro.md": "---\ntitle: Intro\n---\nHello.\n" });
    expect(content.status).toBe(201);

    const after = await upload(token, FLAWED, { api: "flawed" });
    expect(rules(after.json)).not.toContain("operation-operationId warning");
    expect(rules(after.json)).toEqual(expect.arrayContaining(["info-description error", "path-params warning", "invalid-ref error"]));
    expect(after.json.lint.errors).toBe(before.json.lint.errors); // path-params left the errors, info-description joined them

    // The editor page hands the same ruleset to its lint worker.
    const page = await (await SELF.fetch(`${ORIGIN}/p/ruleset/editor/flawed`)).text();
    const carried = /data-lint-ruleset="([^"]*)"/.exec(page)?.[1] ?? "";
    expect(JSON.parse(carried.replace(/&quot;/g, '"').replace(/&amp;/g, "&"))).toEqual({
      extends: "recommended",
      rules: { "operation-operationId": "off", "info-description": "error" },
      overrides: [{ files: ["**#/paths/~1things~1{id}"], rules: { "path-params": "warning" } }],
    });

    // The same answer for a strict upload: it is the ruleset's errors that refuse it.
    const strict = await upload(token, FLAWED, { api: "flawed", strict: "true" });
    expect(strict.status).toBe(422);
    expect(strict.json.error.details.lint.issues.filter((i: any) => i.severity === "error").map((i: any) => i.rule).sort()).toEqual(["info-description", "invalid-ref"]);
  });

  it("refuses a content bundle whose `lint:` ruleset is wrong, naming the field and the line", async () => {
    const token = await createPortal("badruleset");
    const portico = "name: Rules\nlint:\n  extends: [my-company-ruleset]\n  rules:\n    no-such-rule: error\n    info-contact: loud\n";
    const { status, json } = await uploadContent(token, { "portico.yaml": portico, "guides/intro.md": "---\ntitle: Intro\n---\nHello.\n" });
    expect(status).toBe(422);
    const text = JSON.stringify(json);
    expect(text).toContain("lint.extends");
    expect(text).toContain('unknown rule \\"no-such-rule\\"');
    expect(text).toContain("lint.rules.info-contact");
  });
});
