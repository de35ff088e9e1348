/** @module Summaries of a CDP CPU profile (`Profiler.stop`'s `profile`) that the editor and lint-session benchmarks print. */

/**
 * The `count` functions with the most samples in a CDP profile, as "share name (file:line)" lines: self samples,
 * or (`inclusive`) self and callees, each function counted once per sample's stack (recursion counted once).
 */
export function topFunctions(profile, inclusive, count = 25) {
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (n) => `${n.callFrame.functionName || "(anonymous)"} (${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber})`;
  const score = new Map();
  for (const [id, n] of counts) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = inclusive ? parent.get(at) : undefined) {
      const key = label(byId.get(at));
      if (!seen.has(key)) score.set(key, (score.get(key) ?? 0) + n), seen.add(key);
    }
  }
  const total = profile.samples.length;
  return [...score].sort((a, b) => b[1] - a[1]).slice(0, count).map(([k, n]) => `${((100 * n) / total).toFixed(1)}% ${k}`);
}
