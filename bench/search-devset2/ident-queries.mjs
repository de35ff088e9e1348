// Identifier queries (issue 34, class 1): a reader types a code identifier that a document has in its body (a type
// a changelog entry adds, an operationId a guide names). gen_queries.mjs draws only from titles, so this adds four
// seeded kinds over the same corpus: `ident` (as written), `ident-prefix` (cut as it is typed), `ident-typo` (one
// QWERTY edit, never the first letter) and `ident-words` (its parts as words). Ground truth: every document whose
// title or body has the identifier as a whole word, case folded; only identifiers found in 1-3 documents are used.
// Never looks at an engine's output.
//   node bench/search-devset2/ident-queries.mjs [--seed 3434] [--per 20]  (appends to queries.jsonl's content)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const arg0 = (n, d) => (process.argv.includes(`--${n}`) ? process.argv[process.argv.indexOf(`--${n}`) + 1] : d);
const HERE = arg0("dir", new URL(".", import.meta.url).pathname);
const arg = (n, d) => (process.argv.includes(`--${n}`) ? process.argv[process.argv.indexOf(`--${n}`) + 1] : d);
let seed = Number(arg("seed", "3434"));
const PER = Number(arg("per", "20"));
const rng = () => { seed = (seed + 0x6d2b79f5) | 0; let t = Math.imul(seed ^ (seed >>> 15), 1 | seed); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
const randInt = (lo, hi) => lo + Math.floor(rng() * (hi - lo + 1));
const shuffle = (a) => { a = a.slice(); for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(rng() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; };

const docs = readFileSync(join(HERE, "corpus.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
// camelCase / PascalCase with two humps or more, or snake/dotted names of two letter parts or more; 8+ characters.
const IDENT = /(?<![\w.])(?:[a-z]+(?:[A-Z][a-z0-9]+)+|(?:[A-Z][a-z0-9]+){2,}|[a-z][a-z0-9]*(?:[_.][a-z][a-z0-9]*)+)(?![\w])/g;
const has = new Map();
docs.forEach((d, i) => {
  for (const m of `${d.title}\n${d.body}`.matchAll(IDENT)) if (m[0].length >= 8 && !/\.(com|io|pro|tv|json|md)$/.test(m[0])) (has.get(m[0].toLowerCase()) ?? has.set(m[0].toLowerCase(), new Set()).get(m[0].toLowerCase())).add(i);
});
const parts = (id) => id.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_.]+/g, " ").toLowerCase();
const KEYS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
const near = (c) => { const lower = c.toLowerCase(); for (const r of KEYS) { const i = r.indexOf(lower); if (i >= 0) { const n = r[i + (i > 0 && rng() < 0.5 ? -1 : 1)] ?? r[i - 1]; return c === lower ? n : n.toUpperCase(); } } return c; };
function typo(w) {
  const i = randInt(1, w.length - 2);
  const r = rng();
  if (r < 0.35 && w[i] !== w[i + 1]) return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
  if (r < 0.6) return w.slice(0, i) + w.slice(i + 1);
  if (r < 0.8) return w.slice(0, i) + w[i] + w.slice(i);
  return w.slice(0, i) + near(w[i]) + w.slice(i + 1);
}
const makers = {
  ident: (w) => w,
  "ident-prefix": (w) => w.slice(0, randInt(Math.max(6, Math.ceil(w.length * 0.5)), w.length - 2)),
  "ident-typo": (w) => typo(w),
  "ident-words": (w) => parts(w),
};
// Targets: body identifiers of changelog entries and guides first (the class the issue is about), then endpoints.
const cands = [];
for (const [low, set] of has) {
  if (set.size > 3) continue;
  const ids = [...set].map((i) => docs[i]);
  const target = ids.find((d) => d.kind !== "endpoint") ?? ids[0];
  const written = `${target.title}\n${target.body}`.match(IDENT).find((m) => m.toLowerCase() === low);
  cands.push({ written, target, relevant: ids.map((d) => d.id), body: !target.title.toLowerCase().includes(low) });
}
const pool = shuffle(cands.filter((c) => c.body));
const used = new Set();
const out = [];
let at = 0;
for (const kind of Object.keys(makers)) {
  let made = 0;
  const wantProse = Math.round(PER * 0.75);
  for (const c of pool.slice(at)) {
    at++;
    if (made >= PER) break;
    if (used.has(c.target.id) && c.target.kind !== "changelog") continue;
    if (made < wantProse ? c.target.kind === "endpoint" : false) continue;
    used.add(c.target.id);
    out.push({ q: makers[kind](c.written), kind, relevant: c.relevant, target: c.target.id, targetKind: c.target.kind, base: c.written });
    made++;
  }
}
const base = readFileSync(join(HERE, "queries.jsonl"), "utf8").split("\n").filter((l) => l && !/"kind":"ident/.test(l));
writeFileSync(join(HERE, "queries.jsonl"), [...base, ...out.map((q) => JSON.stringify(q))].join("\n") + "\n");
console.log(`${out.length} identifier queries (${Object.keys(makers).map((k) => `${k} ${out.filter((q) => q.kind === k).length}`).join(", ")}); targets: ${["changelog", "guide", "endpoint"].map((k) => `${k} ${out.filter((q) => q.targetKind === k).length}`).join(", ")}`);
