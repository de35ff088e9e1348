// The dev set over the documents Portico itself derives, in-process (no server): the same definitions and content
// bundle bench/search.mjs publishes, built with worker/openapi + worker/content, turned into SearchDocuments by
// worker/search/documents*.ts, indexed and queried by the engine; results mapped back to corpus ids the same way.
// For iterating on document extraction in seconds; bench/search.mjs is the measurement (over HTTP).
// Queries are also split into two fixed halves by a hash of their text (FNV-1a, even = tune, odd = check): a
// ranking change is kept only when it helps the check half too, not just the half it was tuned on.
// Figures are also given per vendor of the target (DigitalOcean, Slack, Twilio, Bump.sh), and `--lovo` simulates a
// held-out vendor: the ranking's constants (RANK_TUNING, EXPAND_TUNING) are tuned on a grid with one vendor's
// queries and the choice is scored on the other vendors' queries, against the shipped defaults.
// NOCTX=1 leaves out the operations' tag descriptions (documents.ts `context`), to measure what they add.
// --github adds GitHub's REST description (@octokit/openapi, 1,223 operations) to the same index, as bench/search.mjs
// does for latency at issue 9's 2,000 documents: the engine's own cost per query on that index, and the dev set's hits
// with GitHub's operations beside them.
// --corpus FILE: another dev set (bench/search-devset2..4/corpus.jsonl); the definitions.json beside it names the APIs
// Portico publishes, as bench/search.mjs does over HTTP. --mini also runs MiniSearch (bench/search.mjs's settings: title
// ×2, fuzzy 0.2, prefix) on the corpus and prints its figures and, with --fails, the queries it finds and Portico does not.
//   node bench/search-documents.mjs [--fails] [--explain] [--lovo] [--github] [--queries FILE] [--corpus FILE] [--mini]
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import MiniSearch from "minisearch";
import { tsImport } from "tsx/esm/api";
import { devsetDocuments, readJsonl } from "./lib/devset-documents.mjs";
const ROOT = new URL("..", import.meta.url).pathname;
const { parseQuery } = await tsImport(join(ROOT, "worker/search/query.ts"), import.meta.url);
const { buildSearchIndex, loadSearchIndex, RANK_TUNING, EXPAND_TUNING } = await tsImport(join(ROOT, "worker/search/index.ts"), import.meta.url);
const corpusArg = process.argv.indexOf("--corpus");
const corpusPath = corpusArg > 0 ? process.argv[corpusArg + 1] : join(ROOT, "../shared/search-devset/corpus.jsonl");
const docs = readJsonl(corpusPath);
const defsPath = join(dirname(corpusPath), "definitions.json");
const definitions = corpusArg > 0 && existsSync(defsPath) ? JSON.parse(readFileSync(defsPath, "utf8")) : undefined;
// --queries FILE: other queries over the same documents (e.g. more seeds of gen_queries.mjs), same shape.
const queriesArg = process.argv.indexOf("--queries");
const queries = readJsonl(queriesArg > 0 ? process.argv[queriesArg + 1] : corpusArg > 0 ? join(dirname(corpusPath), "queries.jsonl") : join(ROOT, "../shared/search-devset/queries.jsonl"));
const enc = new TextEncoder();
const { all, idOf } = await devsetDocuments(docs, { github: process.argv.includes("--github"), tags: !process.env.NOCTX, definitions });
let t = performance.now();
const serialised = buildSearchIndex(all);
const index = loadSearchIndex(serialised);
// Index size, and how much of it the mined relations take (mine.ts: verb pairs, aliases, compounds).
const related = index.data.related;
const relations = Object.values(related).reduce((n, v) => n + v.length / 2, 0);
console.log(`${all.length} docs, build+load ${(performance.now() - t).toFixed(0)} ms, index ${(serialised.length / 1024).toFixed(0)} KB, mined relations ${relations} (${(JSON.stringify(related).length / 1024).toFixed(1)} KB)`);
/** The query's half: FNV-1a of its text, even → "tune", odd → "check". */
export function half(text) {
  let h = 0x811c9dc5;
  for (const c of new TextEncoder().encode(text)) h = Math.imul(h ^ c, 0x01000193) >>> 0;
  return h % 2 ? "check" : "tune";
}
// --why "query": each top document's best alternative per query word (weight × capped idf × stored saturation).
const why = process.argv.indexOf("--why");
if (why > 0) {
  const q = process.argv[why + 1];
  const data = index.data;
  const groups = index.expander.groups(parseQuery(q), (t) => data.postings(t).length / 2);
  const n = data.docs.length;
  const idf = (df) => Math.log(1 + (n - df + 0.5) / (df + 0.5));
  const postingOf = (t, doc) => { let d = 0; const l = data.postings(t); for (let i = 0; i < l.length; i += 2) { d += l[i]; if (d === doc) return l[i + 1]; if (d > doc) break; } return 0; };
  const res = index.search(q, { limit: Number(process.env.WHY_LIMIT ?? 8), canRead: () => true }).results;
  for (const h of res) {
    // The loaded index's documents are a DocTable (format.ts): found by id.
    const doc = Array.from({ length: n }, (_, i) => data.docs.get(i).id).indexOf(h.doc.id);
    const parts = groups.map((g) => {
      let cap = Infinity;
      for (const a of g.alts) if (a.how === "exact") cap = Math.min(cap, idf(data.postings(a.term).length / 2));
      let best = null;
      for (const a of g.alts) { const v = postingOf(a.term, doc); if (!v) continue; const sc = a.weight * Math.min(cap, idf(data.postings(a.term).length / 2)) * (v >> (data.titleBit ? 2 : 1)) / 1000; if (!best || sc > best.sc) best = { sc, a, head: v & 1, title: data.titleBit && (v >> 1) & 1 }; }
      return best ? `${g.word}→${data.terms[best.a.term]}(${best.a.how} ${best.a.weight.toFixed(2)}${best.title ? " T" : best.head ? " H" : ""}) ${best.sc.toFixed(2)}` : `${g.word}→∅`;
    });
    console.log(`${h.score.toFixed(2)} ${idOf(h.doc)} "${h.doc.title}" headLen ${data.headLen[doc]}\n    ${parts.join(" | ")}`);
  }
  process.exit(0);
}
/** The vendor whose documents a query's target is: do, do-guide → digitalocean; bump-guide, bump-changelog → bump; … */
function vendorOf(id) { const p = id.slice(0, id.indexOf(":")).split("-")[0]; return p === "do" ? "digitalocean" : p; }
const titleOf = new Map(docs.map((d) => [d.id, d.title]));
const rows = [];
const fails = [];
const t2 = performance.now();
for (const q of queries) {
  const res = index.search(q.q, { limit: 10, canRead: () => true }).results;
  const ids = [...new Set(res.map((h) => idOf(h.doc)).filter(Boolean))];
  const r = ids.findIndex((id) => q.relevant.includes(id)) + 1;
  rows.push({ kind: q.kind, half: half(q.q), vendor: vendorOf(q.target), r, q });
  const titled = (h) => `${idOf(h.doc)} "${h.doc.title}" ${h.score}`;
  if (r !== 1) fails.push(`${half(q.q)} ${q.kind} | ${q.q} | want ${q.target} "${titleOf.get(q.target)}" @${r || "-"} | got ${process.argv.includes("--explain") ? res.slice(0, 3).map(titled).join(", ") : ids.slice(0, 2).join(", ")}` +
    (process.argv.includes("--explain") ? `\n    ${index.explain(q.q).map((g) => `${g.word}[${g.alts.join(" ")}]`).join(" ")}` : ""));
}
const queryMs = performance.now() - t2;
// Engine time per query: the least of 5 runs each (the machine is shared; the least is the engine's own cost).
const least = queries.map((q) => { let m = Infinity; for (let i = 0; i < 5; i++) { const t0 = performance.now(); index.search(q.q, { limit: 10, canRead: () => true }); m = Math.min(m, performance.now() - t0); } return m; }).sort((a, b) => a - b);
const pctOf = (p) => least[Math.min(least.length - 1, Math.ceil((p / 100) * least.length) - 1)].toFixed(2);
const cell = (rs) => rs.length ? `${(100 * rs.filter((x) => x.r === 1).length / rs.length).toFixed(1)} / ${(100 * rs.filter((x) => x.r >= 1 && x.r <= 5).length / rs.length).toFixed(1)} (${rs.length})` : "-";
console.log("kind         all                  tune                 check");
const kinds = ["all", ...new Set(queries.map((q) => q.kind))];
const vendorList = [...new Set(rows.map((x) => x.vendor))];
for (const k of kinds) {
  const rs = k === "all" ? rows : rows.filter((x) => x.kind === k);
  console.log(k.padEnd(12), cell(rs).padEnd(20), cell(rs.filter((x) => x.half === "tune")).padEnd(20), cell(rs.filter((x) => x.half === "check")));
}
for (const v of vendorList) {
  const rs = rows.filter((x) => x.vendor === v);
  console.log(`vendor ${v}`.padEnd(20), cell(rs).padEnd(20), cell(rs.filter((x) => x.half === "tune")).padEnd(20), cell(rs.filter((x) => x.half === "check")));
}
console.log(`${queries.length} queries in ${queryMs.toFixed(0)} ms (first pass); engine per query, least of 5 runs: p50 ${pctOf(50)} ms, p95 ${pctOf(95)} ms, max ${least[least.length - 1].toFixed(2)} ms`);
if (process.argv.includes("--fails")) console.log(fails.join("\n"));
// MiniSearch on the corpus documents, as bench/search.mjs runs it beside the HTTP run: per kind, and the queries it
// ranks better than Portico (the classes to look at).
if (process.argv.includes("--mini")) {
  const mini = new MiniSearch({ idField: "id", fields: ["title", "body"], storeFields: [], searchOptions: { boost: { title: 2 }, fuzzy: 0.2, prefix: true } });
  mini.addAll(docs);
  const mrows = rows.map((x) => { const ids = mini.search(x.q.q).slice(0, 10).map((h) => h.id); return { ...x, r: ids.findIndex((id) => x.q.relevant.includes(id)) + 1, top: ids[0] }; });
  console.log("minisearch   all");
  for (const k of kinds) console.log(k.padEnd(12), cell(k === "all" ? mrows : mrows.filter((x) => x.kind === k)));
  const worse = rows.map((x, i) => [x, mrows[i]]).filter(([p, m]) => m.r && (!p.r || p.r > m.r));
  console.log(`queries MiniSearch ranks better (${worse.length}):`);
  for (const [p, m] of worse) console.log(`  ${p.kind} | ${p.q.q} | portico @${p.r || "-"} minisearch @${m.r} | want ${p.q.target}`);
  // --kind K: both engines' rank for every query of that kind.
  const kindArg = process.argv.indexOf("--kind");
  if (kindArg > 0) for (const [p, m] of rows.map((x, i) => [x, mrows[i]]).filter(([p]) => p.kind === process.argv[kindArg + 1])) console.log(`  ${p.q.q} | portico @${p.r || "-"} minisearch @${m.r || "-"} (top ${m.top})`);
}

// Leave one vendor out: tune the constants on a grid with one vendor's queries, score the others with that choice.
if (process.argv.includes("--lovo")) {
  const defaults = { ...RANK_TUNING, ...EXPAND_TUNING };
  const grid = { softFloor: [0.15, 0.25, 0.4], bodyCover: [0.35, 0.5, 0.7], headPreference: [1.5, 2, 3], headBonus: [0.5, 1, 1.5], synonymDamping: [0.35, 0.5, 0.65] };
  const keys = Object.keys(grid);
  const set = (c) => { for (const k of keys) (k in RANK_TUNING ? RANK_TUNING : EXPAND_TUNING)[k] = c[k]; };
  const combos = [{}];
  for (const k of keys) combos.splice(0, combos.length, ...combos.flatMap((c) => grid[k].map((v) => ({ ...c, [k]: v }))));
  // Rank of each query's first relevant result for every combination (0 = not in the top 10).
  const ranks = combos.map((c) => {
    set(c);
    return queries.map((q) => { const ids = [...new Set(index.search(q.q, { limit: 10, canRead: () => true }).results.map((h) => idOf(h.doc)).filter(Boolean))]; return ids.findIndex((id) => q.relevant.includes(id)) + 1; });
  });
  set(defaults);
  const vendors = queries.map((q) => vendorOf(q.target));
  const fit = (rs, pick) => { let s = 0; for (let i = 0; i < rs.length; i++) if (pick(i)) s += (rs[i] === 1 ? 1 : 0) + (rs[i] >= 1 && rs[i] <= 5 ? 1 : 0) + (rs[i] ? 1 / rs[i] : 0) / 100; return s; };
  const cellOf = (rs, pick) => { const xs = rs.filter((_, i) => pick(i)); return `${(100 * xs.filter((r) => r === 1).length / xs.length).toFixed(1)} / ${(100 * xs.filter((r) => r >= 1 && r <= 5).length / xs.length).toFixed(1)}`; };
  const base = combos.findIndex((c) => keys.every((k) => c[k] === defaults[k]));
  console.log(`leave one vendor out over ${combos.length} combinations (${keys.join(", ")}); s@1 / s@5`);
  console.log("tuned on".padEnd(14), "its own (tuned)".padEnd(18), "others: tuned".padEnd(18), "others: defaults".padEnd(18), "others: best for them", " choice");
  for (const v of vendorList) {
    const own = (i) => vendors[i] === v;
    const others = (i) => vendors[i] !== v;
    let best = base;
    for (let c = 0; c < combos.length; c++) if (fit(ranks[c], own) > fit(ranks[best], own) + 1e-9) best = c;
    let oracle = base;
    for (let c = 0; c < combos.length; c++) if (fit(ranks[c], others) > fit(ranks[oracle], others) + 1e-9) oracle = c;
    console.log(v.padEnd(14), cellOf(ranks[best], own).padEnd(18), cellOf(ranks[best], others).padEnd(18), cellOf(ranks[base], others).padEnd(18), cellOf(ranks[oracle], others).padEnd(21), JSON.stringify(combos[best]));
  }
}
