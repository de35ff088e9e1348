// The demo API's "Local mock": `prism mock` (@stoplight/prism-cli) serving demo/definition.yaml on 127.0.0.1 with
// request validation on (prism's default: a request that breaks the definition gets 422, a missing credential
// 401), for `npm start`, the browser tests and the playground benchmark. Also adds the mock to the definition's
// servers at publish time, so demo/definition.yaml itself names no machine address.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { parseDocument } from "yaml";

const ROOT = new URL("../..", import.meta.url).pathname;

/** The port `npm start` runs the mock on (README, docs/playground.md). */
export const LOCAL_MOCK_PORT = 4010;

/** The definition `text` (YAML) with `http://127.0.0.1:{port}` "Local mock" appended to its root servers. */
export function withLocalMock(text, port = LOCAL_MOCK_PORT) {
  const doc = parseDocument(text);
  const servers = doc.get("servers");
  const entry = doc.createNode({ url: `http://127.0.0.1:${port}`, description: "Local mock" });
  if (servers && typeof servers.add === "function") servers.add(entry);
  else doc.set("servers", doc.createNode([entry.toJSON()]));
  return doc.toString({ lineWidth: 0 });
}

/**
 * Starts `prism mock` for `definition` (a path) on 127.0.0.1:`port` and waits until it answers.
 * @returns {Promise<{ url: string, pid: number, stop: () => Promise<void> }>}
 * @throws when prism exits or does not answer within `timeoutMs`.
 */
export async function startLocalMock({ port = LOCAL_MOCK_PORT, definition = join(ROOT, "demo/definition.yaml"), quiet = true, timeoutMs = 60_000 } = {}) {
  const prism = join(ROOT, "node_modules/@stoplight/prism-cli/dist/index.js");
  const child = spawn(process.execPath, [prism, "mock", "-h", "127.0.0.1", "-p", String(port), definition], {
    cwd: ROOT, stdio: ["ignore", quiet ? "ignore" : "inherit", quiet ? "ignore" : "inherit"], detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    try { process.kill(-child.pid, "SIGTERM"); } catch {}
    await new Promise((r) => { child.once("exit", r); setTimeout(r, 2000); });
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`prism mock exited with ${child.exitCode} (is port ${port} taken?)`);
    try {
      await fetch(`${url}/`); // any answer (404 included) means it listens
      return { url, pid: child.pid, stop };
    } catch {}
    if (Date.now() > deadline) { await stop(); throw new Error(`prism mock did not answer on ${url} within ${timeoutMs / 1000} s`); }
    await new Promise((r) => setTimeout(r, 250));
  }
}
