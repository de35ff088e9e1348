// Starts the Worker under `wrangler dev` on 127.0.0.1 with a throw-away local state (D1 migrated), for the
// browser tests and the benchmarks. Returns { baseUrl, adminToken, stop() }.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../..", import.meta.url).pathname;

/** A free TCP port on 127.0.0.1 (asked of the OS, then released). */
export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Polls `${baseUrl}/healthz` until it answers 200; throws if `child` exits first or `timeoutMs` passes. */
export async function waitForHealthy(child, baseUrl, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`wrangler dev did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * @param {{ quiet?: boolean, inspectorPort?: number }} [options] inspectorPort: also serve the Worker isolate's V8
 *   inspector (Chrome DevTools Protocol) on 127.0.0.1 at that port (`wrangler dev --inspector-port`; see
 *   bench/lib/isolate-heap.mjs), else none.
 * `vars`: extra `--var NAME:VALUE` pairs (the assistant bench raises the assistant's rate limits).
 * @returns {Promise<{ baseUrl: string, adminToken: string, pid: number, stateDir: string, stop: () => Promise<void> }>} stateDir: the local state (D1, KV, R2) the server persists to, for read-only inspection.
 */
export async function startDevServer({ quiet = true, inspectorPort, vars = {} } = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), "portico-dev-"));
  const node = process.execPath;
  const wrangler = join(ROOT, "node_modules/.bin/wrangler");
  execFileSync(node, [wrangler, "d1", "migrations", "apply", "portico", "--local", "--persist-to", stateDir], { cwd: ROOT, stdio: "ignore" });
  const port = await freePort();
  const adminToken = "adm_" + randomBytes(24).toString("base64url");
  const sessionSecret = randomBytes(32).toString("base64url");
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(
    node,
    [wrangler, "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", stateDir, "--var", `PORTICO_ADMIN_TOKEN:${adminToken}`, "--var", `SESSION_SECRET:${sessionSecret}`, "--var", `PORTICO_BASE_URL:${baseUrl}`, "--show-interactive-dev-session=false", ...Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]), ...(inspectorPort ? ["--inspector-port", String(inspectorPort)] : [])],
    { cwd: ROOT, stdio: ["ignore", quiet ? "ignore" : "inherit", quiet ? "ignore" : "inherit"], env: { ...process.env, CI: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" }, detached: true },
  );
  await waitForHealthy(child, baseUrl, 90_000);
  return {
    baseUrl,
    adminToken,
    pid: child.pid,
    stateDir,
    async stop() {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {}
      await new Promise((r) => setTimeout(r, 500));
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/** Creates a portal; returns its token. */
export async function createPortal(baseUrl, adminToken, slug) {
  const res = await fetch(`${baseUrl}/v1/portals`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ slug, name: `Portal ${slug}` }),
  });
  if (res.status !== 201) throw new Error(`createPortal ${slug}: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}
