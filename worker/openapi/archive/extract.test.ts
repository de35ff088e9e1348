import { gzipSync, zipSync } from "fflate";
import { createTar } from "nanotar";
import { describe, expect, it } from "vitest";
import { extractArchive, gunzipBounded, isTar } from "./extract";

const enc = (s: string) => new TextEncoder().encode(s);
const names = (outcome: ReturnType<typeof extractArchive>) => (outcome.ok ? [...outcome.files.keys()].sort() : outcome);

describe("extractArchive", () => {
  it("reads a zip, skipping folders and macOS litter", () => {
    const zip = zipSync({ "api/openapi.yaml": enc("openapi: 3.1.0"), "api/schemas/": new Uint8Array(0), "__MACOSX/api/._openapi.yaml": enc("x"), "api/.DS_Store": enc("x") });
    expect(names(extractArchive(zip, "zip"))).toEqual(["api/openapi.yaml"]);
  });

  it("reads a tar (nanotar-written) with ./ prefixes removed", () => {
    const tar = createTar([{ name: "./spec/a.yaml", data: enc("a: 1") }, { name: "spec/b.json", data: enc("{}") }]);
    expect(isTar(tar)).toBe(true);
    const outcome = extractArchive(tar, "tar");
    expect(names(outcome)).toEqual(["spec/a.yaml", "spec/b.json"]);
    expect(outcome.ok && new TextDecoder().decode(outcome.files.get("spec/a.yaml"))).toBe("a: 1");
  });

  it("refuses parent-directory and absolute entry names", () => {
    expect(extractArchive(zipSync({ "../evil.yaml": enc("x") }), "zip")).toMatchObject({ ok: false, status: 400, code: "unsafe-archive" });
    expect(extractArchive(zipSync({ "a/../../evil.yaml": enc("x") }), "zip")).toMatchObject({ ok: false, status: 400, code: "unsafe-archive" });
    expect(extractArchive(createTar([{ name: "/etc/passwd", data: enc("x") }]), "tar")).toMatchObject({ ok: false, code: "unsafe-archive" });
  });

  it("enforces entry count and size limits with 413", () => {
    const limits = { maxEntries: 2, maxTotalBytes: 10, maxFileBytes: 6, maxPathDepth: 3 };
    expect(extractArchive(zipSync({ a: enc("1"), b: enc("2"), c: enc("3") }), "zip", limits)).toMatchObject({ ok: false, status: 413, code: "archive-too-large" });
    expect(extractArchive(zipSync({ a: enc("1234567") }), "zip", limits)).toMatchObject({ ok: false, status: 413 });
    expect(extractArchive(zipSync({ a: enc("123456"), b: enc("123456") }), "zip", limits)).toMatchObject({ ok: false, status: 413 });
  });

  it("refuses entries nested deeper than the path-depth limit with 413", () => {
    const limits = { maxEntries: 10, maxTotalBytes: 100, maxFileBytes: 100, maxPathDepth: 3 };
    expect(extractArchive(zipSync({ "a/b/c.yaml": enc("x") }), "zip", limits)).toMatchObject({ ok: true });
    expect(extractArchive(zipSync({ "a/b/c/d.yaml": enc("x") }), "zip", limits)).toMatchObject({ ok: false, status: 413, code: "archive-too-deep" });
  });

  it("reports corrupt archives as 400", () => {
    expect(extractArchive(enc("PK\u0003\u0004 not really a zip"), "zip")).toMatchObject({ ok: false, status: 400, code: "invalid-archive" });
    expect(extractArchive(zipSync({}), "zip")).toMatchObject({ ok: false, status: 400, code: "empty-archive" });
  });
});

describe("gunzipBounded", () => {
  it("inflates within the limit and stops a gzip bomb at it", () => {
    const zeros = new Uint8Array(8 * 1024 * 1024);
    const bomb = gzipSync(zeros, { level: 9 });
    expect(bomb.length).toBeLessThan(20_000);
    expect(gunzipBounded(bomb, 16 * 1024 * 1024)).toMatchObject({ ok: true });
    expect(gunzipBounded(bomb, 1024 * 1024)).toEqual({ ok: false, tooLarge: true, message: "the archive inflates to more than 1048576 bytes" });
    expect(gunzipBounded(enc("\u001f\u008b garbage"), 100)).toMatchObject({ ok: false, tooLarge: false });
  });
});
