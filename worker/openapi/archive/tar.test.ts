import { describe, expect, it } from "vitest";
import { readTar } from "./tar";

/** One tar header block with a valid checksum. */
function header(fields: { name: string; size: number; type?: string; prefix?: string }): Uint8Array {
  const h = new Uint8Array(512);
  const put = (at: number, s: string) => h.set(new TextEncoder().encode(s), at);
  put(0, fields.name);
  put(100, "0000644\0");
  put(124, fields.size.toString(8).padStart(11, "0") + "\0");
  put(148, "        ");
  put(156, fields.type ?? "0");
  put(257, "ustar\u000000");
  if (fields.prefix) put(345, fields.prefix);
  put(148, h.reduce((a, b) => a + b, 0).toString(8).padStart(6, "0") + "\0 ");
  return h;
}

function tar(...parts: Uint8Array[]): Uint8Array {
  const blocks = parts.flatMap((p) => [p, new Uint8Array((512 - (p.length % 512)) % 512)]).concat(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((n, b) => n + b.length, 0));
  let at = 0;
  for (const b of blocks) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

const enc = (s: string) => new TextEncoder().encode(s);

describe("readTar", () => {
  it("joins the ustar prefix to the name (node-tar writes long paths this way)", () => {
    const long = "a".repeat(120);
    const entries = readTar(tar(header({ name: "file.yaml", prefix: long, size: 3 }), enc("x: 1")));
    expect(entries.map((e) => [e.name, e.type, new TextDecoder().decode(e.data)])).toEqual([[`${long}/file.yaml`, "file", "x: "]]);
  });

  it("uses pax `path` and GNU long names, and lists directories and links as such", () => {
    const pax = enc("30 path=deep/dir/name-é.yaml\n");
    const gnu = enc("gnu/long/name.json\0");
    const entries = readTar(
      tar(header({ name: "PaxHeader", size: pax.length, type: "x" }), pax, header({ name: "short", size: 1 }), enc("1"),
        header({ name: "././@LongLink", size: gnu.length, type: "L" }), gnu, header({ name: "trunc", size: 2 }), enc("{}"),
        header({ name: "dir/", size: 0, type: "5" }), header({ name: "ln", size: 0, type: "2" })),
    );
    expect(entries.map((e) => [e.name, e.type])).toEqual([["deep/dir/name-é.yaml", "file"], ["gnu/long/name.json", "file"], ["dir/", "directory"], ["ln", "link"]]);
  });

  it("rejects a corrupt header and a truncated entry", () => {
    const bad = header({ name: "a", size: 1 });
    bad[0] = 0x62;
    expect(() => readTar(tar(bad, enc("1")))).toThrow(/checksum/);
    expect(() => readTar(header({ name: "a", size: 5000 }))).toThrow(/past the end/);
  });
});
