import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintDocument } from "./lint-document";

const PASS = join(__dirname, "../../../../shared/corpus/oai-spec-v3.2-dev/tests/schema/pass");
const files = readdirSync(PASS).filter((f) => /\.ya?ml$/.test(f));

describe("the OpenAPI 3.2 schema test suite's valid documents", () => {
  it("has the 37 documents", () => {
    expect(files).toHaveLength(37);
  });

  // Valid for the schema, but its path parameter is named petId under /pets/{id}: the specification requires
  // a path parameter's name to match a template expression (4.8.12.1), so these two errors are true ones.
  const TRUE_ERRORS: Record<string, string[]> = {
    "operation-object-example.yaml": ["path-params 7", "path-params 13"],
  };

  it.each(files)("%s: no false error", (file) => {
    const { problems } = lintDocument(readFileSync(join(PASS, file), "utf8"));
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.rule} ${p.line}`)).toEqual(TRUE_ERRORS[file] ?? []);
  });
});
