// The Worker isolate's JS heap under `wrangler dev --inspector-port` (Chrome DevTools Protocol through the inspector
// proxy wrangler serves on 127.0.0.1): forced full GC, then Runtime.getHeapUsage, and heap snapshots on demand.
// Locally the Worker and its Durable Objects (the PortalPublisher) are one workerd isolate (one script), so this one
// heap holds both the reader's per-isolate caches and the publisher's build state. miniflare's KV, R2 and D1 are
// other workers (other isolates, and native storage) of the same workerd process: not in this figure.
//
// Through wrangler's proxy, not workerd's own inspector port: workerd serves one session per isolate, which the
// proxy holds; a second WebSocket opened to workerd directly is accepted and never answered.

/**
 * Connects to the Worker's inspector through wrangler's proxy at `ws://127.0.0.1:{port}/ws` (it wants an allowed
 * Origin). `poke()` must make a request to the Worker: V8 runs the inspector's GC (and some other commands) as a
 * task, and workerd's isolate runs such tasks only while it handles something, so those answers wait for one.
 * Returns `{ heap() → { usedMB, totalMB }, snapshot(write), close() }`. Throws when the proxy does not accept the
 * connection within `timeoutMs`.
 */
export async function connectIsolate(port, poke, { timeoutMs = 30_000 } = {}) {
  const url = `ws://127.0.0.1:${port}/ws`;
  const deadline = Date.now() + timeoutMs;
  let ws;
  for (;;) {
    ws = new WebSocket(url, { headers: { origin: "http://127.0.0.1" } });
    const opened = await new Promise((resolve) => {
      ws.addEventListener("open", () => resolve(true), { once: true });
      ws.addEventListener("error", () => resolve(false), { once: true });
    });
    if (opened) break;
    if (Date.now() > deadline) throw new Error(`inspector ${url} did not accept a connection`);
    await new Promise((r) => setTimeout(r, 500));
  }
  let next = 1;
  const pending = new Map();
  const listeners = new Map();
  ws.addEventListener("message", (event) => {
    const msg = JSON.parse(String(event.data));
    if (msg.id !== undefined && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${msg.error.message} (${msg.error.code})`));
      else p.resolve(msg.result);
    } else if (msg.method) listeners.get(msg.method)?.(msg.params);
  });
  ws.addEventListener("close", () => {
    for (const p of pending.values()) p.reject(new Error("inspector connection closed"));
    pending.clear();
  });
  /** `method`'s answer, poking the Worker until it comes. */
  const call = async (method, params = {}) => {
    const id = next++;
    let result;
    const done = new Promise((resolve, reject) => pending.set(id, { resolve, reject })).then((r) => (result = { r }));
    ws.send(JSON.stringify({ id, method, params }));
    while (!result) await Promise.race([done, poke().then(() => new Promise((r) => setTimeout(r, 100)))]);
    return result.r;
  };
  await call("HeapProfiler.enable");
  const mb = (n) => Math.round((n / 1048576) * 10) / 10;
  return {
    /**
     * After two full GCs (the second collects what the first's finalizers freed): the JS heap in use and allocated
     * (MB), and ArrayBuffer backing stores (MB: outside the JS heap, e.g. a loaded search index's bytes, yet counted by
     * an isolate's memory limit); `liveMB` is used + backing stores.
     */
    async heap() {
      await call("HeapProfiler.collectGarbage");
      await call("HeapProfiler.collectGarbage");
      const { usedSize, totalSize, backingStorageSize = 0 } = await call("Runtime.getHeapUsage");
      return { usedMB: mb(usedSize), totalMB: mb(totalSize), buffersMB: mb(backingStorageSize), liveMB: mb(usedSize + backingStorageSize) };
    },
    /** Streams a heap snapshot (.heapsnapshot JSON, for DevTools' Memory tab) through `write(chunk)` (V8 collects first). */
    async snapshot(write) {
      listeners.set("HeapProfiler.addHeapSnapshotChunk", (p) => write(p.chunk));
      await call("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
      listeners.delete("HeapProfiler.addHeapSnapshotChunk");
    },
    /**
     * Starts V8's sampling CPU profiler (interval µs); `stop()` answers the profile's CPU time split by function
     * (`{ totalMs, idleMs, gcMs, byFunction: [[name, selfMs]], profile }`, most first; `profile` the CDP profile as is): what the isolate itself spent,
     * apart from storage (miniflare's KV, D1 and R2 run in other isolates) and the HTTP path to it.
     */
    async startProfile(intervalUs = 200) {
      await call("Profiler.enable");
      await call("Profiler.setSamplingInterval", { interval: intervalUs });
      await call("Profiler.start");
      return {
        async stop() {
          const { profile } = await call("Profiler.stop");
          const byId = new Map(profile.nodes.map((n) => [n.id, n]));
          const self = new Map();
          profile.samples.forEach((id, i) => {
            const n = byId.get(id);
            const name = n.callFrame.functionName || "(anonymous)";
            const key = name.startsWith("(") ? name : `${name} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber + 1}`;
            self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
          });
          const idleMs = self.get("(idle)") ?? 0;
          const gcMs = self.get("(garbage collector)") ?? 0;
          const totalMs = [...self.values()].reduce((a, b) => a + b, 0) - idleMs;
          return { totalMs, idleMs, gcMs, byFunction: [...self.entries()].filter(([k]) => k !== "(idle)").sort((a, b) => b[1] - a[1]), profile };
        },
      };
    },
    close: () => ws.close(),
  };
}
