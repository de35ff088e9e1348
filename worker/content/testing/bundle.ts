/** @module Test helper: a content bundle (path → text or bytes) as a .tar.gz or .zip body. */
import { gzipSync, zipSync } from "fflate";
import { createTar } from "nanotar";

export type BundleSpec = Record<string, string | Uint8Array>;

/** The bundle as a gzipped tar. */
export function tarGz(spec: BundleSpec): Uint8Array {
  return gzipSync(createTar(Object.entries(spec).map(([name, data]) => ({ name, data }))));
}

/** The bundle as a zip. */
export function zip(spec: BundleSpec): Uint8Array {
  const enc = new TextEncoder();
  return zipSync(Object.fromEntries(Object.entries(spec).map(([k, v]) => [k, typeof v === "string" ? enc.encode(v) : v])));
}

/** The bundle as the file map readContentArchive returns. */
export function fileMap(spec: BundleSpec): Map<string, Uint8Array> {
  const enc = new TextEncoder();
  return new Map(Object.entries(spec).map(([k, v]) => [k, typeof v === "string" ? enc.encode(v) : v]));
}
