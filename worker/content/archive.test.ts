import { describe, expect, it } from "vitest";
import { gzipSync } from "fflate";
import { createTar } from "nanotar";
import { readContentArchive } from "./archive";
import { tarGz, zip } from "./testing/bundle";

describe("readContentArchive", () => {
  it("reads .tar.gz and .zip bundles and unwraps one enclosing folder", () => {
    const a = readContentArchive(tarGz({ "docs/portico.yaml": "name: x", "docs/guides/a.md": "# a" }));
    expect(a.ok && [...a.files.keys()].sort()).toEqual(["guides/a.md", "portico.yaml"]);
    const z = readContentArchive(zip({ "guides/a.md": "# a" }));
    expect(z.ok && [...z.files.keys()]).toEqual(["guides/a.md"]);
  });
  it("refuses traversal paths, too many files, bombs and non-archives with a 4xx", () => {
    const traversal = readContentArchive(gzipSync(createTar([{ name: "../../etc/passwd", data: "x" }])));
    expect(traversal).toMatchObject({ ok: false, status: 400, code: "unsafe-archive" });
    const many: Record<string, string> = {};
    for (let i = 0; i <= 10_000; i++) many[`guides/g${i}.md`] = "x";
    expect(readContentArchive(tarGz(many))).toMatchObject({ ok: false, status: 413 });
    const bomb = gzipSync(new Uint8Array(80 * 1024 * 1024));
    expect(readContentArchive(bomb)).toMatchObject({ ok: false, status: 413 });
    expect(readContentArchive(new TextEncoder().encode("# just markdown"))).toMatchObject({ ok: false, status: 415 });
  });
});
