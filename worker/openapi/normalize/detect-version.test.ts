import { describe, expect, it } from "vitest";
import { detectVersion } from "./detect-version";

describe("detectVersion", () => {
  it("recognises Swagger 2.0 and OpenAPI 3.0 / 3.1 / 3.2", () => {
    expect(detectVersion({ swagger: "2.0" })).toEqual({ ok: true, version: "2.0", declared: "2.0", issues: [] });
    expect(detectVersion({ openapi: "3.0.3" })).toMatchObject({ ok: true, version: "3.0", declared: "3.0.3" });
    expect(detectVersion({ openapi: "3.0" })).toMatchObject({ ok: true, version: "3.0" });
    expect(detectVersion({ openapi: "3.1.1" })).toMatchObject({ ok: true, version: "3.1" });
    expect(detectVersion({ openapi: "3.2.0" })).toMatchObject({ ok: true, version: "3.2" });
    expect(detectVersion({ openapi: "3.1.0-rc1" })).toMatchObject({ ok: true, version: "3.1" });
  });

  it("accepts unquoted YAML numbers with a warning", () => {
    expect(detectVersion({ swagger: 2 })).toEqual({
      ok: true,
      version: "2.0",
      declared: "2.0",
      issues: [{ severity: "warning", rule: "version-not-string", message: '`swagger` should be a string such as "2.0"', path: ["swagger"] }],
    });
    expect(detectVersion({ openapi: 3.1 })).toMatchObject({ ok: true, version: "3.1", declared: "3.1" });
  });

  it("refuses unknown versions and documents that are not OpenAPI", () => {
    expect(detectVersion({ openapi: "3.3.0" })).toEqual({ ok: false, code: "unsupported-version", message: 'OpenAPI "3.3.0" is not supported; Portico reads Swagger 2.0 and OpenAPI 3.0, 3.1 and 3.2', path: ["openapi"] });
    expect(detectVersion({ openapi: "4.0.0" })).toMatchObject({ ok: false, code: "unsupported-version" });
    expect(detectVersion({ swagger: "1.2" })).toMatchObject({ ok: false, code: "unsupported-version" });
    expect(detectVersion({ openapi: null })).toMatchObject({ ok: false, code: "unsupported-version" });
    expect(detectVersion({ info: {} })).toMatchObject({ ok: false, code: "not-openapi", path: [] });
  });
});
