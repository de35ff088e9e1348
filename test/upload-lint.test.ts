import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";

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
    expect(list.apis[0].versions[0].lint).toEqual({ errors: json.lint.errors, warnings: json.lint.warnings });
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
});
