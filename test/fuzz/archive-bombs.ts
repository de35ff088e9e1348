/**
 * @module Archives that expand to big definitions (issue 14), generated on the fly (a few MB compressed, tens
 * of MB inflated) so no MB-sized fixture is committed: tar headers are written by hand and the data is streamed
 * through fflate's Gzip, so the test never holds the inflated bytes.
 */
import { Gzip } from "fflate";

const enc = new TextEncoder();

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, "0") + "\0";
}

/** A POSIX ustar header for a regular file. */
export function tarHeader(name: string, size: number): Uint8Array {
  const h = new Uint8Array(512);
  const put = (text: string, at: number) => h.set(enc.encode(text), at);
  put(name, 0);
  put(octal(0o644, 8), 100);
  put(octal(0, 8), 108);
  put(octal(0, 8), 116);
  put(octal(size, 12), 124);
  put(octal(0, 12), 136);
  put("        ", 148);
  put("0", 156);
  put("ustar\u000000", 257);
  let sum = 0;
  for (const b of h) sum += b;
  put(octal(sum, 7) + " ", 148);
  return h;
}

/** A file of an archive: its name, and its content as `repeat` copies of `body` after `head`. */
export interface StreamedFile {
  name: string;
  head: string;
  body: string;
  repeat: number;
}

/** Gzips `parts` as they are produced; returns the compressed bytes only. */
function gzipStream(produce: (push: (bytes: Uint8Array) => void) => void): Uint8Array<ArrayBuffer> {
  const out: Uint8Array[] = [];
  const gz = new Gzip({ level: 6 }, (chunk) => out.push(chunk));
  produce((bytes) => gz.push(bytes));
  gz.push(new Uint8Array(0), true);
  const total = out.reduce((n, c) => n + c.length, 0);
  const all = new Uint8Array(new ArrayBuffer(total));
  let at = 0;
  for (const c of out) (all.set(c, at), (at += c.length));
  return all;
}

/** A .tar.gz of `files`, streamed. */
export function tarGz(files: StreamedFile[]): Uint8Array<ArrayBuffer> {
  return gzipStream((push) => {
    for (const f of files) {
      const head = enc.encode(f.head);
      const body = enc.encode(f.body);
      const size = head.length + body.length * f.repeat;
      push(tarHeader(f.name, size));
      push(head);
      for (let i = 0; i < f.repeat; i++) push(body);
      if (size % 512) push(new Uint8Array(512 - (size % 512)));
    }
    push(new Uint8Array(1024));
  });
}

/** A gzip of one file (not a tarball), streamed. */
export function gz(file: Omit<StreamedFile, "name">): Uint8Array<ArrayBuffer> {
  return gzipStream((push) => {
    push(enc.encode(file.head));
    const body = enc.encode(file.body);
    for (let i = 0; i < file.repeat; i++) push(body);
  });
}

/** The issue's three archives: one 63 MB JSON gzipped; eight 7 MB YAML roots; a deep tree of candidate roots. */
export function issueArchives(): { name: string; body: Uint8Array<ArrayBuffer> }[] {
  const jsonItem = '{"type":"object","description":"padding padding padding padding padding padding padding"},';
  const bigJson = gz({ head: '{"openapi":"3.0.0","info":{"title":"big","version":"1"},"paths":{},"x-pad":[', body: jsonItem, repeat: Math.ceil(63e6 / jsonItem.length) });
  const yamlLine = "  - padding padding padding padding padding padding padding padding padding padding\n";
  const eightRoots = tarGz(
    Array.from({ length: 8 }, (_, i) => ({ name: `api/root-${i}.yaml`, head: `openapi: 3.0.0\ninfo: {title: r${i}, version: '1'}\npaths: {}\nx-pad:\n`, body: yamlLine, repeat: Math.ceil(7e6 / yamlLine.length) })),
  );
  // 2,000 files along deep folder chains, each looking like a root to the key regex but not parsing to one.
  const deepTree = tarGz(
    Array.from({ length: 2000 }, (_, i) => ({ name: `${"d/".repeat(1 + (i % 30))}n${i}.yaml`, head: "openapi: [unclosed\n", body: "", repeat: 0 })),
  );
  return [
    { name: "1.2 MB gzip of one 63 MB JSON file", body: bigJson },
    { name: "tar.gz of eight 7 MB YAML roots", body: eightRoots },
    { name: "tar.gz of a deep tree of candidate roots", body: deepTree },
  ];
}
