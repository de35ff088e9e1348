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

  it("examines candidates shallowest first and stops once two at one depth are confirmed", () => {
    const paths = ["a.yaml", "b.yaml", "c.yaml", "d/e.yaml"];
    const parsed: string[] = [];
    const outcome = findRoot(paths, undefined, () => "openapi: 3.1.0\n", (p) => (parsed.push(p), true));
    expect(outcome).toMatchObject({ ok: false, code: "ambiguous-root", message: "several files could be the root (a.yaml, b.yaml and maybe others); choose one with ?root=" });
    expect(parsed).toEqual(["a.yaml", "b.yaml"]);
  });

  it("refuses with too-many-roots when confirming would parse more than the limits allow", () => {
    // A deep tree of files that look like roots but are not: every level is examined until the budget runs out.
    const paths = Array.from({ length: 40 }, (_, i) => `${"d/".repeat(i)}openapi.yaml`);
    const parsed: string[] = [];
    const outcome = findRoot(paths, undefined, () => "openapi:\n", (p) => (parsed.push(p), false), { maxParsed: 16, maxParsedBytes: 1 << 20 });
    expect(outcome).toMatchObject({ ok: false, code: "too-many-roots" });
    expect(parsed.length).toBe(16);
    const big = findRoot(["a.yaml", "b/c.yaml"], undefined, () => "openapi: 3.1.0\n" + "#".repeat(100), () => false, { maxParsed: 16, maxParsedBytes: 150 });
    expect(big).toMatchObject({ ok: false, code: "too-many-roots" });
  });
});
