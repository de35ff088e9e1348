// `node bench/lib/heap-growth.mjs before.heapsnapshot after.heapsnapshot`: where an isolate's heap grew between two
// V8 heap snapshots of the same session (node ids are stable within a session). Every object of the second snapshot
// that the first lacks is charged to the nearest object that existed before which (through its first strong
// retainer) holds it: a module-level Map that keeps filling, a closure's context, a cache. Prints the anchors that
// gained the most bytes, each with the path by which it is itself held (context variable names say which module
// variable). Used on `SCALE_SNAPSHOTS=<dir>` of bench/portal-scale.mjs (issue 37: isolate memory flat).
import { readFileSync } from "node:fs";

function load(file) {
  const s = JSON.parse(readFileSync(file, "utf8"));
  const m = s.snapshot.meta;
  const nf = m.node_fields.length;
  const ef = m.edge_fields.length;
  const nodeTypes = m.node_fields.indexOf("type") >= 0 ? m.node_types[0] : [];
  const edgeTypes = m.edge_types[0];
  const at = (name) => m.node_fields.indexOf(name);
  const [T, N, ID, SIZE, EC] = [at("type"), at("name"), at("id"), at("self_size"), at("edge_count")];
  const [ET, EN, TO] = ["type", "name_or_index", "to_node"].map((x) => m.edge_fields.indexOf(x));
  const count = s.nodes.length / nf;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0; i < count; i++) firstEdge[i + 1] = firstEdge[i] + s.nodes[i * nf + EC] * ef;
  return { s, nf, ef, count, nodeTypes, edgeTypes, T, N, ID, SIZE, ET, EN, TO, firstEdge };
}

const [a, b] = process.argv.slice(2);
const before = load(a);
const oldIds = new Set();
for (let i = 0; i < before.count; i++) oldIds.add(before.s.nodes[i * before.nf + before.ID]);
before.s = undefined;
const h = load(b);
const { s, nf, ef, count } = h;
const node = (i) => ({ type: h.nodeTypes[s.nodes[i * nf + h.T]], name: s.strings[s.nodes[i * nf + h.N]], id: s.nodes[i * nf + h.ID], size: s.nodes[i * nf + h.SIZE] });
// First strong retainer of each node (weak and shortcut edges do not keep anything alive).
const retainer = new Int32Array(count).fill(-1);
const retainerEdge = new Array(count);
for (let i = 0; i < count; i++) {
  for (let e = h.firstEdge[i]; e < h.firstEdge[i + 1]; e += ef) {
    const type = h.edgeTypes[s.edges[e + h.ET]];
    if (type === "weak" || type === "shortcut") continue;
    const to = s.edges[e + h.TO] / nf;
    if (retainer[to] !== -1) continue;
    retainer[to] = i;
    const n = s.edges[e + h.EN];
    retainerEdge[to] = type === "element" || type === "hidden" ? `[${n}]` : s.strings[n];
  }
}
const isOld = (i) => oldIds.has(s.nodes[i * nf + h.ID]);
const gained = new Map();
let total = 0;
for (let i = 0; i < count; i++) {
  if (isOld(i)) continue;
  const size = s.nodes[i * nf + h.SIZE];
  total += size;
  let j = i;
  for (let steps = 0; steps < 50 && j !== -1 && !isOld(j); steps++) j = retainer[j];
  const key = j === -1 ? -1 : j;
  gained.set(key, (gained.get(key) ?? 0) + size);
}
const path = (i) => {
  const out = [];
  for (let steps = 0; steps < 8 && i !== -1; steps++) {
    const n = node(i);
    out.push(`${n.type}:${String(n.name).slice(0, 40)}${retainerEdge[i] !== undefined ? ` .${String(retainerEdge[i]).slice(0, 30)}` : ""}`);
    i = retainer[i];
  }
  return out.join(" <- ");
};
console.log(`new objects: ${(total / 1048576).toFixed(2)} MB (self size); by the old object holding them:`);
for (const [i, bytes] of [...gained.entries()].sort((x, y) => y[1] - x[1]).slice(0, Number(process.env.TOP ?? 15))) {
  console.log(`${(bytes / 1048576).toFixed(2).padStart(7)} MB  ${i === -1 ? "(unreachable from old objects)" : path(i)}`);
}
