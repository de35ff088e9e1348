/**
 * @module The demo's Git repository (docs/git.md): `main` holds the demo definition as
 * `openapi/parcel.yaml` and the demo content as `docs/`; `addFeatureBranch` commits the change `npm run demo:git`
 * and the Git sync tests replay: a new `POST /returns` with no description nor guide link, a `GET
 * /returns/{returnId}` whose path parameter is not declared (a lint error), a new required query parameter on
 * `GET /shipments` (a breaking change), and a guide link to a page that does not exist.
 * Node only; runs `git` (no network).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The repository paths a portal connects (`PUT /v1/portal/git` `paths`). */
export const DEMO_PATHS = { definitions: [{ api: "parcel-logistics-api", file: "openapi/parcel.yaml" }], content: "docs/" };

function git(dir, ...args) {
  return execFileSync("git", args, {
    cwd: dir, stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_AUTHOR_NAME: "Portico Demo", GIT_AUTHOR_EMAIL: "demo@example.com", GIT_COMMITTER_NAME: "Portico Demo", GIT_COMMITTER_EMAIL: "demo@example.com" },
  }).toString().trim();
}

/** Creates (or reuses) the repository in `dir` with `main` committed; returns main's sha. */
export function createDemoRepository(dir) {
  if (existsSync(join(dir, ".git"))) return git(dir, "rev-parse", "main");
  mkdirSync(join(dir, "openapi"), { recursive: true });
  cpSync(join(root, "demo/definition.yaml"), join(dir, "openapi/parcel.yaml"));
  cpSync(join(root, "demo/content"), join(dir, "docs"), { recursive: true });
  writeFileSync(join(dir, "README.md"), "# Parcel Logistics docs\n\nThe definition and guides Portico syncs (docs/git.md).\n");
  git(dir, "init", "-q", "-b", "main");
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Parcel Logistics API and guides");
  return git(dir, "rev-parse", "main");
}

/**
 * Commits the feature change on `branch` (from main; an existing branch is reset to main first) and returns its
 * sha and where the findings are: the definition's and the guide's text after the change.
 */
export function addFeatureBranch(dir, branch = "feature/returns") {
  git(dir, "checkout", "-q", "-B", branch, "main");
  const defPath = join(dir, "openapi/parcel.yaml");
  const doc = parseDocument(readFileSync(defPath, "utf8"));
  doc.setIn(["paths", "/returns"], doc.createNode({
    post: { operationId: "createReturn", summary: "Create a return", tags: ["Shipments"], responses: { 201: { description: "The return was created." } } },
  }));
  doc.setIn(["paths", "/returns/{returnId}"], doc.createNode({
    get: { operationId: "getReturn", summary: "Get a return", description: "Reads one return.", tags: ["Shipments"], responses: { 200: { description: "The return." } } },
  }));
  const params = doc.getIn(["paths", "/shipments", "get", "parameters"]);
  const carrier = doc.createNode({ name: "carrier", in: "query", required: true, description: "Only shipments of this carrier.", schema: { type: "string" } });
  if (params) params.add(carrier);
  else doc.setIn(["paths", "/shipments", "get", "parameters"], doc.createNode([carrier.toJSON()]));
  const definition = String(doc);
  writeFileSync(defPath, definition);
  const guidePath = join(dir, "docs/guides/tracking.md");
  const guide = readFileSync(guidePath, "utf8").replace(/\n*$/, "\n") + "\nTo send a parcel back, see [returns](returns.md).\n";
  writeFileSync(guidePath, guide);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "Returns (draft)");
  const sha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-q", "main");
  return { sha, branch, definition, guide };
}

/** Commits `files` (path → text, or a Buffer) on `branch` from main and returns the commit's sha. */
export function commitOnBranch(dir, branch, files, message = "change") {
  git(dir, "checkout", "-q", "-B", branch, "main");
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), data);
  }
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", message);
  const sha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-q", "main");
  return sha;
}

/** Commits a symbolic link `link` → `target` on `branch` (a hostile repository). */
export function commitSymlink(dir, branch, link, target) {
  git(dir, "checkout", "-q", "-B", branch, "main");
  execFileSync("ln", ["-s", target, join(dir, link)]);
  git(dir, "add", "-A");
  git(dir, "commit", "-q", "-m", "a link");
  const sha = git(dir, "rev-parse", "HEAD");
  git(dir, "checkout", "-q", "main");
  return sha;
}

/** Tags `ref` (an annotated tag is not needed: GitHub's tarball takes any ref). */
export function tag(dir, name, ref = "main") {
  git(dir, "tag", "-f", name, ref);
  return git(dir, "rev-parse", `${name}^{commit}`);
}
