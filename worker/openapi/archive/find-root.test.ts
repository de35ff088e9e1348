import { describe, expect, it } from "vitest";
import { findRoot } from "./find-root";

const FILES: Record<string, string> = {
  "api/openapi.yaml": "openapi: 3.1.0\ninfo: {}\n",
  "api/schemas/pet.yaml": "type: object\n",
  "api/old/swagger.json": '{"swagger": "2.0"}',
  "api/README.md": "openapi: not a definition",
};
const text = (p: string) => FILES[p];
const hasRootKey = (p: string) => /^(openapi|swagger):|"(openapi|swagger)"/.test(FILES[p]);

describe("findRoot", () => {
  it("picks the shallowest file with a top-level openapi/swagger key", () => {
    expect(findRoot(Object.keys(FILES), undefined, text, hasRootKey)).toEqual({ ok: true, path: "api/openapi.yaml" });
  });

  it("reports ambiguity between equally shallow candidates", () => {
    const files = { ...FILES, "api/other.yaml": "swagger: '2.0'\n" };
    expect(findRoot(Object.keys(files), undefined, (p) => files[p as keyof typeof files], () => true)).toEqual({
      ok: false,
      code: "ambiguous-root",
      message: "several files could be the root (api/openapi.yaml, api/other.yaml); choose one with ?root=",
      candidates: ["api/openapi.yaml", "api/other.yaml"],
    });
  });

  it("honours ?root=, also without the shared top folder", () => {
    expect(findRoot(Object.keys(FILES), "api/old/swagger.json", text, hasRootKey)).toEqual({ ok: true, path: "api/old/swagger.json" });
    expect(findRoot(Object.keys(FILES), "./old/swagger.json", text, hasRootKey)).toEqual({ ok: true, path: "api/old/swagger.json" });
    expect(findRoot(Object.keys(FILES), "missing.yaml", text, hasRootKey)).toMatchObject({ ok: false, code: "root-not-found" });
  });

  it("finds nothing when no file declares a version", () => {
    expect(findRoot(["a.yaml"], undefined, () => "type: object\n", () => false)).toMatchObject({ ok: false, code: "root-not-found", candidates: [] });
  });
});
