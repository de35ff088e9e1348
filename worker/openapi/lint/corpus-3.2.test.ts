import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lintDocument } from "./lint-document";

const TESTS = join(__dirname, "../../../../shared/corpus/oai-spec-v3.2-dev/tests/schema");
const yamlIn = (folder: string) => readdirSync(join(TESTS, folder)).filter((f) => /\.ya?ml$/.test(f));
const errorsOf = (folder: string, file: string) =>
  lintDocument(readFileSync(join(TESTS, folder, file), "utf8")).problems.filter((p) => p.severity === "error");

describe("the OpenAPI 3.2 schema test suite's valid documents", () => {
  const files = yamlIn("pass");
  it("has the 37 documents", () => {
    expect(files).toHaveLength(37);
  });

  // Valid for the schema, but its path parameter is named petId under /pets/{id}: the specification requires
  // a path parameter's name to match a template expression (4.8.12.1), so these two errors are true ones.
  const TRUE_ERRORS: Record<string, string[]> = {
    "operation-object-example.yaml": ["path-params 7", "path-params 13"],
    // Its form example gives `dataValue: json` for a schema of `type: object` (the specification's own example
    // has `dataValue: {jsonValue: json}`); a dataValue "MUST be valid according to the relevant Schema Object"
    // (4.19.1), and the schema tests do not validate examples, so this error is a true one too.
    "example-object-examples.yaml": ["oas3-valid-media-example 69"],
  };

  it.each(files)("%s: no false error", (file) => {
    expect(errorsOf("pass", file).map((p) => `${p.rule} ${p.line}`)).toEqual(TRUE_ERRORS[file] ?? []);
  });
});

describe("the OpenAPI 3.2 schema test suite's invalid documents", () => {
  const files = yamlIn("fail");
  it("has the 29 documents", () => {
    expect(files).toHaveLength(29);
  });

  // For each invalid document, the error that names its defect: rule and line (other errors may come too).
  const EXPECTED: Record<string, string> = {
    "encoding-enc-item-exclusion.yaml": "oas3-schema 13", // itemEncoding beside prefixEncoding
    "encoding-enc-prefix-exclusion.yaml": "oas3-schema 13",
    "example-examples.yaml": "oas3-schema 10", // example and examples together
    "example-object-old-exclusions.yaml": "oas3-schema 8", // value with externalValue
    "example-object-old-vs-data.yaml": "oas3-schema 8", // value with dataValue
    "example-object-old-vs-ser.yaml": "oas3-schema 8", // value with serializedValue
    "example-object-ser-exclusions.yaml": "oas3-schema 8", // serializedValue with externalValue
    "header-object-allowReserved.yaml": "oas3-schema 7",
    "header-object-name.yaml": "oas3-schema 11", // 'Bad=Header' is not an RFC 9110 token: at the name
    "invalid_schema_types.yaml": "oas3-schema 10",
    "media-type-enc-item-exclusion.yaml": "oas3-schema 11",
    "media-type-enc-prefix-exclusion.yaml": "oas3-schema 11",
    "no_containers.yaml": "oas3-schema 1",
    "operation-object-query-with-querystring.yaml": "oas3-schema 10",
    "operation-object-two-querystrings.yaml": "oas3-schema 10",
    "parameter-object-content-not-with-style.yaml": "oas3-schema 7",
    "parameter-object-cookie-allowReserved.yaml": "oas3-schema 7",
    "parameter-object-header-allowReserved.yaml": "oas3-schema 7",
    "parameter-object-header-name.yaml": "oas3-schema 8", // name: 'Bad[Header]' with in: header
    "parameter-object-path-name.yaml": "oas3-schema 8",
    "parameter-object-querystring-not-with-schema.yaml": "oas3-schema 7",
    "path-item-object-conflicting-additional-operation.yaml": "oas3-schema 37", // POST beside post
    "path-item-object-query-with-querystring.yaml": "oas3-schema 8",
    "path-item-object-two-querystrings.yaml": "oas3-schema 9",
    "server_enum_empty.yaml": "oas3-schema 13",
    "servers.yaml": "oas3-schema 9",
    "unknown_container.yaml": "oas3-schema 1",
    "xml-attr-exclusion.yaml": "oas3-schema 10",
    "xml-wrapped-exclusion.yaml": "oas3-schema 10",
  };

  it("names an expected error for every document", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...files].sort());
  });

  it.each(files)("%s: refused with the error that names its defect", (file) => {
    expect(errorsOf("fail", file).map((p) => `${p.rule} ${p.line}`)).toContain(EXPECTED[file]);
  });
});
