import { describe, expect, it } from "vitest";
import { lintDocument } from "./lint-document";
import { createLintSession } from "./session";
import { parseRuleset, type LintRuleset } from "./ruleset";

const DOC = `openapi: 3.1.0
info: {title: T, version: "1"}
paths:
  /pets:
    get:
      responses: {"200": {description: ok}}
  /pets/{id}:
    get:
      responses: {"200": {description: ok}}
  /stores:
    get:
      responses: {"200": {description: ok}}
`;

function ruleset(value: unknown): LintRuleset {
  const parsed = parseRuleset(value);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.ruleset;
}

const found = (rs: LintRuleset, rule: string, file?: string) =>
  lintDocument(DOC, { ruleset: rs, file }).problems.filter((p) => p.rule === rule).map((p) => `${p.line} ${p.severity}`);

describe("lint rulesets (Spectral-compatible)", () => {
  it("extends spectral:oas: defaults; rules change severities or turn rules off", () => {
    expect(found(ruleset({ extends: "spectral:oas" }), "operation-operationId")).toEqual(["5 warning", "8 warning", "11 warning"]);
    expect(found(ruleset({ extends: "spectral:oas", rules: { "operation-operationId": "error" } }), "operation-operationId")).toEqual(["5 error", "8 error", "11 error"]);
    expect(found(ruleset({ rules: { "operation-operationId": "off" } }), "operation-operationId")).toEqual([]);
    expect(found(ruleset({ rules: { "operation-operationId": 3 } }), "operation-operationId")).toEqual(["5 hint", "8 hint", "11 hint"]);
  });

  it("extends [[spectral:oas, all]] enables off-by-default rules; [[spectral:oas, off]] only the listed ones", () => {
    expect(found(ruleset({}), "info-license")).toEqual([]);
    expect(found(ruleset({ extends: [["spectral:oas", "all"]] }), "info-license")).toEqual(["2 warning"]);
    const only = lintDocument(DOC, { ruleset: ruleset({ extends: [["spectral:oas", "off"]], rules: { "info-contact": "error" } }) });
    expect(only.problems.map((p) => p.rule)).toEqual(["info-contact"]);
  });

  it("overrides apply per JSON-pointer glob (and below it), later ones winning; file globs match the archive path", () => {
    const rs = ruleset({
      rules: { "operation-operationId": "warn" },
      overrides: [
        { files: ["**#/paths/~1pets*"], rules: { "operation-operationId": "error" } },
        { files: ["**#/paths/~1pets~1{id}"], rules: { "operation-operationId": "off" } },
        { files: ["legacy/*.yaml#/paths/~1stores"], rules: { "operation-operationId": "off" } },
      ],
    });
    expect(found(rs, "operation-operationId")).toEqual(["5 error"]); // single file: every file glob matches
    expect(found(rs, "operation-operationId", "api/openapi.yaml")).toEqual(["5 error", "11 warning"]);
    expect(found(rs, "operation-operationId", "legacy/openapi.yaml")).toEqual(["5 error"]);
  });

  it("a rule off by default but enabled by an override reports only there", () => {
    expect(found(ruleset({ overrides: [{ files: ["#/info"], rules: { "info-license": "error" } }] }), "info-license")).toEqual(["2 error"]);
    expect(found(ruleset({ overrides: [{ files: ["#/paths"], rules: { "info-license": "error" } }] }), "info-license")).toEqual([]);
    const raised = ruleset({ overrides: [{ files: ["#/paths/~1stores"], rules: { "operation-tags": "error" } }] });
    expect(found(raised, "operation-tags")).toEqual(["5 warning", "8 warning", "11 error"]);
  });

  it("the editor's session applies the same ruleset", () => {
    const rs = ruleset({ rules: { "operation-operationId": "off", "info-description": "error" } });
    const session = createLintSession(DOC, { ruleset: rs });
    expect(session.result.problems).toEqual(lintDocument(DOC, { ruleset: rs }).problems);
    expect(session.result.problems.some((p) => p.rule === "operation-operationId")).toBe(false);
  });

  it("refuses what it cannot honour, naming where", () => {
    const parsed = parseRuleset({ extends: "spectral:asyncapi", rules: { nope: "error", "info-contact": "loud", "tag-description": { given: "$", then: {} } }, overrides: [{ files: [] }], functions: [] });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.at)).toEqual(["lint.functions", "lint.extends", "lint.rules.nope", "lint.rules.info-contact", "lint.rules.tag-description", "lint.overrides[0]"]);
  });
});
