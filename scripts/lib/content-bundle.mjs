// Packs a content folder (demo/content, a generated benchmark bundle) into a .zip body for POST /v1/content/upload.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { zipSync } from "fflate";

/** Every file under `dir`, keyed by its POSIX path relative to `dir`. */
export function readFolder(dir) {
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[relative(dir, full).split("\\").join("/")] = new Uint8Array(readFileSync(full));
    }
  };
  walk(dir);
  return files;
}

/** A .zip of `files` (path → bytes or text). */
export function zipFiles(files) {
  const enc = new TextEncoder();
  return zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === "string" ? enc.encode(v) : v])));
}

/** POST /v1/content/upload; returns `{ status, json, serverTiming }`. */
export async function uploadContent(origin, token, body, query = "") {
  const res = await fetch(`${origin}/v1/content/upload${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" },
    body,
  });
  return { status: res.status, json: await res.json(), serverTiming: res.headers.get("server-timing") };
}
