/**
 * @module Minimal tar reader (POSIX ustar, pax and GNU long names). `nanotar`'s parseTar ignores the ustar
 * `prefix` field, which node-tar (npm) and `tar --format=ustar` use for paths of 100 to 255 characters, so
 * those files would be renamed; it also reads `data.buffer` from offset 0, which is wrong for a subarray.
 * @see https://pubs.opengroup.org/onlinepubs/9699919799/utilities/pax.html#tag_20_92_13_06
 */

export interface TarEntry {
  name: string;
  /** "file" for regular files; other entry kinds are listed so callers can skip them explicitly. */
  type: "file" | "directory" | "link" | "other";
  size: number;
  data: Uint8Array;
}

const BLOCK = 512;
const utf8 = new TextDecoder("utf-8");
/** Header fields are ASCII; decoded by hand because not every runtime's TextDecoder knows "latin1". */
const ascii = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/** Lists the entries of an uncompressed tar; throws an Error on a malformed header (the caller reports it). */
export function readTar(tar: Uint8Array): TarEntry[] {
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) break;
    if (!checksumOk(header)) throw new Error(`bad tar header checksum at byte ${offset}`);
    const size = readSize(header.subarray(124, 136));
    const typeFlag = String.fromCharCode(header[156] || 0x30);
    const start = offset + BLOCK;
    if (start + size > tar.length) throw new Error(`tar entry at byte ${offset} runs past the end of the archive`);
    const data = tar.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    if (typeFlag === "x") {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (typeFlag === "g") continue;
    if (typeFlag === "L") {
      longName = utf8.decode(data).replace(/\0+$/, "");
      continue;
    }
    const magic = ascii(header.subarray(257, 262));
    const prefix = magic === "ustar" ? cString(header.subarray(345, 500)) : "";
    const name = longName ?? (prefix ? `${prefix}/${cString(header.subarray(0, 100))}` : cString(header.subarray(0, 100)));
    longName = undefined;
    const type = typeFlag === "0" || typeFlag === "7" ? "file" : typeFlag === "5" ? "directory" : typeFlag === "1" || typeFlag === "2" ? "link" : "other";
    entries.push({ name, type, size, data });
  }
  return entries;
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return utf8.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/** Octal, or base-256 when the high bit of the first byte is set (GNU, for sizes ≥ 8 GiB). */
function readSize(field: Uint8Array): number {
  if (field[0] & 0x80) {
    let n = field[0] & 0x7f;
    for (let i = 1; i < field.length; i++) n = n * 256 + field[i];
    return n;
  }
  const text = ascii(field).replace(/\0.*$/s, "").trim();
  return text ? parseInt(text, 8) : 0;
}

function checksumOk(header: Uint8Array): boolean {
  const stored = parseInt(ascii(header.subarray(148, 156)).replace(/\0.*$/s, "").trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i];
  return stored === sum;
}

/** The `path` record of a pax extended header: "<length> <key>=<value>\n" records, lengths in bytes. */
function paxPath(data: Uint8Array): string | undefined {
  let path: string | undefined;
  for (let i = 0; i < data.length; ) {
    const space = data.indexOf(0x20, i);
    const len = space === -1 ? NaN : parseInt(ascii(data.subarray(i, space)), 10);
    if (!(len > 0)) break;
    const record = utf8.decode(data.subarray(space + 1, i + len - 1));
    if (record.startsWith("path=")) path = record.slice(5);
    i += len;
  }
  return path;
}
