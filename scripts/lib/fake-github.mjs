/**
 * @module A stand-in for GitHub's (and GitLab's) REST API, for the Git sync tests, the demo (`npm run demo:git`)
 * and the benchmark: the one third-party service they cannot reach. Node only; listens on 127.0.0.1.
 *
 * GitHub: `POST /app/installations/:id/access_tokens` (checks the app JWT's RS256 signature with the app's public
 * key and its `iss`), `GET /repos/:owner/:repo/tarball/:ref` (302 to `/_codeload/…`, as GitHub answers, which
 * serves `git archive --format=tar.gz` of the real repository), `POST/PATCH /repos/:o/:r/check-runs[/:id]`,
 * `POST /repos/:o/:r/issues/:n/comments`, `PATCH /repos/:o/:r/issues/comments/:id`. GitLab (`/api/v4`):
 * `GET /projects/:id/repository/archive.tar.gz?sha=`, `POST /projects/:id/statuses/:sha`,
 * `POST/PUT /projects/:id/merge_requests/:iid/notes[/:id]`. Every call is recorded: `GET /__log`, `DELETE /__log`.
 * A backlog draft's pull request (GitHub: `GET /repos/:o/:r/git/ref/heads/:b`, `GET /repos/:o/:r/contents/:path?ref=`,
 * `POST /repos/:o/:r/git/refs`, `PUT /repos/:o/:r/contents/:path`, `POST /repos/:o/:r/pulls`,
 * `DELETE /repos/:o/:r/git/refs/heads/:b`; GitLab: `GET /projects/:id/repository/files/:path?ref=`,
 * `POST /projects/:id/repository/commits`, `POST /projects/:id/merge_requests`, `DELETE /projects/:id/repository/branches/:b`):
 * refs and files of the real repository are read with git; branches, commits and requests made are kept in memory
 * (`GET /__state`), and an opened request is a page at its `html_url`/`web_url`. `POST /__fail` `{ method, path
 * (a regular expression), status, times? }` makes the next matching calls answer `status` (errors in tests).
 * Node only (tests, `npm run demo:git`, the git benchmark). Refs `hostile-dotdot` and `hostile-absolute` answer hand-made tarballs with a `../` and an absolute entry name.
 */
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { importSPKI, jwtVerify } from "jose";

export const INSTALLATION_TOKEN = "ghs_portico_test_installation_token";
export const GITLAB_TOKEN = "glpat-portico-test";
/** Commit ids (as webhooks carry them) whose tarballs are the hand-made hostile ones. */
export const HOSTILE_DOTDOT_SHA = "d".repeat(40);
export const HOSTILE_ABSOLUTE_SHA = "a".repeat(40);

/**
 * @typedef {{ repoDir: string, appId: string, publicKey: string, port?: number }} FakeGitHubOptions repoDir: the git
 *   repository served for every owner/name; publicKey: SPKI PEM of the app's key (the JWT is checked with it);
 *   port: 0 (any free port) unless given.
 * @typedef {{ method: string, path: string, authorization?: string, body?: unknown }} LoggedCall
 */

/** A minimal ustar header + data block for hand-made hostile archives. */
function tarEntry(name, data, type = "0") {
  const header = Buffer.alloc(512);
  header.write(name.slice(0, 100), 0, "utf8");
  header.write("0000644\0", 100);
  header.write("0000000\0", 108);
  header.write("0000000\0", 116);
  header.write(Buffer.byteLength(data).toString(8).padStart(11, "0") + "\0", 124);
  header.write("00000000000\0", 136);
  header.write("        ", 148);
  header.write(type, 156);
  header.write("ustar\0", 257);
  header.write("00", 263);
  let sum = 0;
  for (const b of header) sum += b;
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148);
  const body = Buffer.alloc(Math.ceil(Buffer.byteLength(data) / 512) * 512);
  body.write(data);
  return Buffer.concat([header, body]);
}

/** A gzipped tar whose entries are `[name, text]`. */
/** @param {[string, string][]} entries */
export function handMadeTarball(entries) {
  return gzipSync(Buffer.concat([...entries.map(([n, d]) => tarEntry(n, d)), Buffer.alloc(1024)]));
}

async function bodyOf(req) {
  const parts = [];
  for await (const part of req) parts.push(part);
  return Buffer.concat(parts).toString("utf8");
}

/** Starts the stand-in; `close()` stops it. */
/**
 * @param {FakeGitHubOptions} options
 * @returns {Promise<{ origin: string, server: import("node:http").Server, log: LoggedCall[] }>}
 */
export async function startFakeGitHub(options) {
  const key = await importSPKI(options.publicKey, "RS256");
  /** @type {LoggedCall[]} */
  const log = [];
  let nextId = 1000;
  const archive = (ref) => {
    if (ref === "hostile-dotdot" || ref === HOSTILE_DOTDOT_SHA) return handMadeTarball([["acme-docs-0000000/openapi/parcel.yaml", "openapi: 3.1.0\n"], ["acme-docs-0000000/../../escape.md", "# out\n"]]);
    if (ref === "hostile-absolute" || ref === HOSTILE_ABSOLUTE_SHA) return handMadeTarball([["acme-docs-0000000/openapi/parcel.yaml", "openapi: 3.1.0\n"], ["/etc/cron.d/evil", "* * * * * root sh\n"]]);
    let sha;
    try {
      sha = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], { cwd: options.repoDir, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    } catch {
      return undefined;
    }
    return execFileSync("git", ["archive", "--format=tar.gz", `--prefix=acme-parcel-docs-${sha.slice(0, 7)}/`, sha], { cwd: options.repoDir, maxBuffer: 256 * 1024 * 1024 });
  };
  const json = (res, status, body) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  /** Branches made through the API (name → { sha, files: { path: text } }), requests opened, failures to inject. */
  const branches = new Map();
  const pulls = [];
  /** @type {{ method: string, path: RegExp, status: number, times: number }[]} */
  const failures = [];
  const revParse = (ref) => {
    try {
      return execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], { cwd: options.repoDir, stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
    } catch {
      return undefined;
    }
  };
  const fileAt = (ref, file) => {
    const made = branches.get(ref);
    if (made?.files[file] !== undefined) return made.files[file];
    const sha = made?.sha ?? revParse(ref);
    if (!sha) return undefined;
    try {
      return execFileSync("git", ["show", `${sha}:${file}`], { cwd: options.repoDir, stdio: ["ignore", "pipe", "ignore"] }).toString();
    } catch {
      return undefined;
    }
  };
  const escapeHtml = (t) => String(t).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
  const pullPage = (pull) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(pull.title)} · Pull request #${pull.number}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f6f8fa;padding:1rem;overflow:auto;white-space:pre-wrap}.state{background:#1f883d;color:#fff;border-radius:2em;padding:.2em .8em}</style></head>
<body><p><small>Local stand-in for ${pull.gitlab ? "GitLab" : "GitHub"} (scripts/lib/fake-github.mjs)</small></p>
<h1>${escapeHtml(pull.title)} <small>#${pull.number}</small></h1>
<p><span class="state">Open</span> wants to merge <code>${escapeHtml(pull.head)}</code> into <code>${escapeHtml(pull.base)}</code></p>
<h2>Description</h2><pre>${escapeHtml(pull.body)}</pre>
<h2>Files changed</h2>${Object.entries(branches.get(pull.head)?.files ?? {}).map(([f, t]) => `<h3><code>${escapeHtml(f)}</code> (new file)</h3><pre>${escapeHtml(t)}</pre>`).join("")}
</body></html>`;
  const handle = async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    let m;
    if (path === "/__log") {
      if (req.method === "DELETE") log.length = 0;
      return json(res, 200, log);
    }
    if (path === "/__state") return json(res, 200, { branches: Object.fromEntries(branches), pulls });
    if (path === "/__fail" && req.method === "POST") {
      const f = JSON.parse(await bodyOf(req));
      failures.push({ method: f.method, path: new RegExp(f.path), status: f.status, times: f.times ?? 1 });
      return json(res, 200, { failing: failures.length });
    }
    if (req.method === "GET" && (m = /^\/([^/_][^/]*)\/([^/]+)\/(?:pull|-\/merge_requests)\/(\d+)$/.exec(path))) {
      const pull = pulls.find((p) => p.repo === `${m[1]}/${m[2]}` && p.number === Number(m[3]));
      if (!pull) return res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
      return res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(pullPage(pull));
    }
    const text = await bodyOf(req);
    let body;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    log.push({ method: req.method ?? "", path: path + url.search, authorization: req.headers.authorization ?? req.headers["private-token"], body });
    const auth = req.headers.authorization ?? "";
    const failing = failures.find((f) => f.method === req.method && f.path.test(path));
    if (failing) {
      if (--failing.times <= 0) failures.splice(failures.indexOf(failing), 1);
      return json(res, failing.status, { message: `Injected failure (HTTP ${failing.status})` });
    }
    if (req.method === "POST" && (m = /^\/app\/installations\/(\d+)\/access_tokens$/.exec(path))) {
      try {
        const { payload } = await jwtVerify(auth.replace(/^Bearer /, ""), key, { algorithms: ["RS256"], issuer: options.appId });
        if (typeof payload.exp !== "number" || payload.exp - Math.floor(Date.now() / 1000) > 600) throw new Error("exp");
      } catch (error) {
        return json(res, 401, { message: `A JSON web token could not be decoded (${error.message})` });
      }
      return json(res, 201, { token: INSTALLATION_TOKEN, expires_at: new Date(Date.now() + 3600_000).toISOString() });
    }
    if ((m = /^\/_codeload\/([^/]+)\/([^/]+)\/(.+)$/.exec(path))) {
      if (url.searchParams.get("token") !== "signed") return json(res, 403, { message: "bad link" });
      const tar = archive(decodeURIComponent(m[3]));
      if (!tar) return json(res, 404, { message: "Not Found" });
      return res.writeHead(200, { "content-type": "application/x-gzip", "content-length": tar.length }).end(tar);
    }
    if (path.startsWith("/repos/") && auth !== `Bearer ${INSTALLATION_TOKEN}`) return json(res, 401, { message: "Bad credentials" });
    if (req.method === "GET" && (m = /^\/repos\/([^/]+)\/([^/]+)\/tarball\/(.+)$/.exec(path))) {
      // Another origin, as codeload.github.com is: the installation token must not follow the redirect.
      const codeload = `http://localhost:${server.address().port}`;
      return res.writeHead(302, { location: `${codeload}/_codeload/${m[1]}/${m[2]}/${m[3]}?token=signed` }).end();
    }
    if (req.method === "POST" && /^\/repos\/[^/]+\/[^/]+\/check-runs$/.test(path)) return json(res, 201, { id: nextId++, status: "in_progress" });
    if (req.method === "PATCH" && (m = /^\/repos\/[^/]+\/[^/]+\/check-runs\/(\d+)$/.exec(path))) {
      const annotations = body?.output?.annotations ?? [];
      if (annotations.length > 50) return json(res, 422, { message: "Only 50 annotations per request" });
      return json(res, 200, { id: Number(m[1]) });
    }
    if (req.method === "POST" && /^\/repos\/[^/]+\/[^/]+\/issues\/\d+\/comments$/.test(path)) return json(res, 201, { id: nextId++ });
    // A backlog draft's pull request: refs, contents, pulls.
    if (req.method === "GET" && (m = /^\/repos\/[^/]+\/[^/]+\/git\/ref\/heads\/(.+)$/.exec(path))) {
      const name = decodeURIComponent(m[1]);
      const sha = branches.get(name)?.sha ?? revParse(name);
      if (!sha) return json(res, 404, { message: "Not Found" });
      return json(res, 200, { ref: `refs/heads/${name}`, object: { sha, type: "commit" } });
    }
    if (req.method === "GET" && (m = /^\/repos\/[^/]+\/[^/]+\/contents\/(.+)$/.exec(path))) {
      const file = m[1].split("/").map(decodeURIComponent).join("/");
      const text = fileAt(url.searchParams.get("ref") ?? "HEAD", file);
      if (text === undefined) return json(res, 404, { message: "Not Found" });
      return json(res, 200, { type: "file", path: file, content: Buffer.from(text).toString("base64"), encoding: "base64" });
    }
    if (req.method === "POST" && /^\/repos\/[^/]+\/[^/]+\/git\/refs$/.test(path)) {
      const name = String(body?.ref ?? "").replace(/^refs\/heads\//, "");
      if (!name || branches.has(name) || revParse(name)) return json(res, 422, { message: "Reference already exists" });
      branches.set(name, { sha: body.sha, files: {} });
      return json(res, 201, { ref: body.ref, object: { sha: body.sha, type: "commit" } });
    }
    if (req.method === "PUT" && (m = /^\/repos\/[^/]+\/[^/]+\/contents\/(.+)$/.exec(path))) {
      const file = m[1].split("/").map(decodeURIComponent).join("/");
      const branch = branches.get(body?.branch);
      if (!branch) return json(res, 404, { message: "Branch not found" });
      // Without the blob's sha GitHub refuses to replace a file.
      if (fileAt(body.branch, file) !== undefined && !body.sha) return json(res, 422, { message: "Invalid request. \"sha\" wasn't supplied." });
      branch.files[file] = Buffer.from(String(body.content ?? ""), "base64").toString("utf8");
      return json(res, 201, { content: { path: file }, commit: { sha: `c${nextId++}`, message: body.message } });
    }
    if (req.method === "POST" && (m = /^\/repos\/([^/]+)\/([^/]+)\/pulls$/.exec(path))) {
      if (!branches.has(body?.head)) return json(res, 422, { message: "Validation Failed: head" });
      const number = pulls.filter((p) => p.repo === `${m[1]}/${m[2]}`).length + 1;
      const pull = { repo: `${m[1]}/${m[2]}`, number, title: body.title, body: body.body, head: body.head, base: body.base, html_url: `http://localhost:${server.address().port}/${m[1]}/${m[2]}/pull/${number}` };
      pulls.push(pull);
      return json(res, 201, { number, html_url: pull.html_url, state: "open" });
    }
    if (req.method === "DELETE" && (m = /^\/repos\/[^/]+\/[^/]+\/git\/refs\/heads\/(.+)$/.exec(path))) {
      if (!branches.delete(decodeURIComponent(m[1]))) return json(res, 422, { message: "Reference does not exist" });
      return res.writeHead(204).end();
    }
    if (req.method === "PATCH" && (m = /^\/repos\/[^/]+\/[^/]+\/issues\/comments\/(\d+)$/.exec(path))) return json(res, 200, { id: Number(m[1]) });
    // GitLab v4
    if (path.startsWith("/api/v4/") && req.headers["private-token"] !== GITLAB_TOKEN) return json(res, 401, { message: "401 Unauthorized" });
    if (req.method === "GET" && /^\/api\/v4\/projects\/[^/]+\/repository\/archive\.tar\.gz$/.test(path)) {
      const tar = archive(url.searchParams.get("sha") ?? "");
      if (!tar) return json(res, 404, { message: "404 Not Found" });
      return res.writeHead(200, { "content-type": "application/x-gzip" }).end(tar);
    }
    if (req.method === "POST" && /^\/api\/v4\/projects\/[^/]+\/statuses\/[0-9a-f]{40}$/.test(path)) return json(res, 201, { id: nextId++ });
    if (req.method === "POST" && /^\/api\/v4\/projects\/[^/]+\/merge_requests\/\d+\/notes$/.test(path)) return json(res, 201, { id: nextId++ });
    if (req.method === "PUT" && (m = /^\/api\/v4\/projects\/[^/]+\/merge_requests\/\d+\/notes\/(\d+)$/.exec(path))) return json(res, 200, { id: Number(m[1]) });
    if (req.method === "GET" && (m = /^\/api\/v4\/projects\/[^/]+\/repository\/files\/([^/]+)$/.exec(path))) {
      const text = fileAt(url.searchParams.get("ref") ?? "HEAD", decodeURIComponent(m[1]));
      if (text === undefined) return json(res, 404, { message: "404 File Not Found" });
      return json(res, 200, { file_path: decodeURIComponent(m[1]), content: Buffer.from(text).toString("base64"), encoding: "base64" });
    }
    if (req.method === "POST" && /^\/api\/v4\/projects\/[^/]+\/repository\/commits$/.test(path)) {
      const start = branches.get(body?.start_branch)?.sha ?? revParse(body?.start_branch ?? "");
      if (!start) return json(res, 400, { message: "You can only create or edit files when you are on a branch" });
      if (branches.has(body.branch) || revParse(body.branch)) return json(res, 400, { message: "A branch called this already exists" });
      const files = {};
      for (const a of body.actions ?? []) {
        if (a.action === "create" && fileAt(body.start_branch, a.file_path) !== undefined) return json(res, 400, { message: "A file with this name already exists" });
        files[a.file_path] = a.content;
      }
      branches.set(body.branch, { sha: start, files });
      return json(res, 201, { id: `c${nextId++}`, message: body.commit_message });
    }
    if (req.method === "POST" && (m = /^\/api\/v4\/projects\/([^/]+)\/merge_requests$/.exec(path))) {
      if (!branches.has(body?.source_branch)) return json(res, 400, { message: "Source branch does not exist" });
      const repo = decodeURIComponent(m[1]);
      const iid = pulls.filter((p) => p.repo === repo).length + 1;
      const pull = { repo, number: iid, title: body.title, body: body.description, head: body.source_branch, base: body.target_branch, gitlab: true, html_url: `http://localhost:${server.address().port}/${repo}/-/merge_requests/${iid}` };
      pulls.push(pull);
      return json(res, 201, { iid, web_url: pull.html_url, state: "opened" });
    }
    if (req.method === "DELETE" && (m = /^\/api\/v4\/projects\/[^/]+\/repository\/branches\/([^/]+)$/.exec(path))) {
      if (!branches.delete(decodeURIComponent(m[1]))) return json(res, 404, { message: "404 Branch Not Found" });
      return res.writeHead(204).end();
    }
    json(res, 404, { message: "Not Found" });
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error) => json(res, 500, { message: String(error) }));
  });
  await new Promise((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, server, log };
}
