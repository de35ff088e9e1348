// The assistant dev set in-process (no server), for iterating on retrieval and the decline in seconds: the documents
// bench/search-documents.mjs builds (the same definitions and content bundle bench/search.mjs publishes), indexed by
// the engine, then worker/assistant's retrieve + extractive answer per turn (follow-ups carry the previous turn).
// Questions are split into two fixed halves by a hash of the item id (FNV-1a, even = tune, odd = check): a change
// is kept only when it helps the check half too. bench/assistant.mjs (over HTTP) is the measurement.
// A second, small set of our own (bench/assistant-devset3: 30 questions in the same shape over bench/search-devset3's
// Billbee, Traccar and Netlify corpus) is printed beside it as a held-out check: nothing is tuned on it.
//   node bench/assistant-documents.mjs [--fails] [--dump out.json] [--set main|held-out]
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tsImport } from "tsx/esm/api";
import { devsetDocuments, readJsonl } from "./lib/devset-documents.mjs";
import { documentVectors, loadWordVectors } from "./lib/word-vectors.mjs";
const ROOT = new URL("..", import.meta.url).pathname;
const { buildSearchIndex, loadSearchIndex } = await tsImport(join(ROOT, "worker/search/index.ts"), import.meta.url);
const { retrieve, RETRIEVAL_TUNING, MAX_PASSAGES } = await tsImport(join(ROOT, "worker/assistant/retrieve.ts"), import.meta.url);
const { extractiveAnswer, ANSWER_TUNING } = await tsImport(join(ROOT, "worker/assistant/embedded.ts"), import.meta.url);
const { isInjection } = await tsImport(join(ROOT, "worker/assistant/question.ts"), import.meta.url);
// SEMANTIC=1 adds the embedded semantic experiment's ranking (bench/lib/word-vectors.mjs; docs/assistant.md): each
// turn's question is embedded, its 50 nearest documents (centred cosine at least SEMANTIC_MIN, default none) are
// passed to retrieve as `semantic`, fused with RETRIEVAL_TUNING.semantic (0 unless TRY sets it); it also prints the
// semantic ranking's own single-question top 3.
const SEMANTIC = process.env.SEMANTIC === "1";
const model = SEMANTIC ? await loadWordVectors() : undefined;
const enc = new TextEncoder();
const SETS = [
  { name: "main", corpus: "../shared/search-devset/corpus.jsonl", questions: "../shared/assistant-devset/questions.jsonl" },
  { name: "held-out", corpus: "bench/search-devset3/corpus.jsonl", questions: "bench/assistant-devset3/questions.jsonl", definitions: "bench/search-devset3/definitions.json" },
];
const baseR = structuredClone(RETRIEVAL_TUNING), baseA = structuredClone(ANSWER_TUNING);
const only = process.argv.includes("--set") ? process.argv[process.argv.indexOf("--set") + 1] : undefined;
for (const set of SETS.filter((s) => !only || s.name === only)) {
const docs = readJsonl(join(ROOT, set.corpus));
const items = readJsonl(join(ROOT, set.questions));
const definitions = set.definitions ? JSON.parse(readFileSync(join(ROOT, set.definitions), "utf8")) : undefined;
const published = await devsetDocuments(docs, { definitions });
const all = published.all;
const idOf = (d) => published.idOf(d) ?? d.url;
const vt = SEMANTIC ? await documentVectors(model, all) : undefined;
const index = loadSearchIndex(buildSearchIndex(all, vt ? { vectors: vt.vectors } : {}));
const byId = new Map(all.map((d) => [d.id, d]));
const semanticOf = (q) => vt?.query(q, 50, Number(process.env.SEMANTIC_MIN ?? -1));
console.log(`== ${set.name} set: ${set.questions} (${items.length} questions, ${all.length} documents)`);
function half(text) { let h = 0x811c9dc5; for (const c of enc.encode(text)) h = Math.imul(h ^ c, 0x01000193) >>> 0; return h % 2 ? "check" : "tune"; }
const canRead = () => true;
// TRY='[{"retrieval": {...}, "answer": {...}}, ...]': each variant of the tuning objects in turn (one index build).
const variants = process.env.TRY ? JSON.parse(process.env.TRY) : [{}];
for (const v of variants) {
Object.assign(RETRIEVAL_TUNING, baseR, v.retrieval ?? {});
Object.assign(ANSWER_TUNING, baseA, v.answer ?? {});
if (variants.length > 1) console.log("variant", JSON.stringify(v));
const rows = [], fails = [], dump = [], turnsFirst = [];
for (const it of items) {
  let previous;
  const got = [];
  for (const t of it.turns) {
    // The first 20 re-scored candidates (where a missing page ranked, for --fails); the answer gets the first six, as in the Worker.
    const deep = isInjection(t.q) ? { passages: [], confidence: 0, topConfidence: 0, words: [] } : retrieve(index, t.q, { canRead, previous, semantic: semanticOf(t.q), limit: 20 });
    const found = { ...deep, passages: deep.passages.slice(0, MAX_PASSAGES) };
    const deepIds = deep.passages.map((p) => idOf(p.doc));
    const out = extractiveAnswer({ question: t.q, history: [], passages: found.passages, confidence: found.confidence, topConfidence: found.topConfidence, fill: (s) => s });
    const ids = out.answered ? out.cited.map((n) => idOf(found.passages[n - 1].doc)) : [];
    const pids = found.passages.map((p) => idOf(p.doc));
    // search.json's own ranking for the turn alone (the baseline the assistant must not fall below).
    const sids = index.search(t.q.slice(0, 500), { canRead, limit: 3 }).results.map((h) => idOf(h.doc));
    const vids = SEMANTIC ? semanticOf(t.q).slice(0, 3).map((v) => idOf(byId.get(v.slice(2)))) : [];
    got.push({ answered: out.answered, ids, pids, sids, vids, deepIds });
    if (t.relevant.length && it.kind !== "multi-source") turnsFirst.push({ mine: t.relevant.includes(pids[0]), search: t.relevant.includes(sids[0]) });
    dump.push({ id: it.id, kind: it.kind, q: t.q, relevant: t.relevant, answered: out.answered, ids, pids, sids, confidence: found.confidence, top: found.topConfidence, words: (found.words ?? []).map((w) => [w.folded, w.df, +w.weight.toFixed(2), w.literal]), scores: found.passages.map((p) => +p.score.toFixed(4)), covers: found.passages.map((p) => p.covers), related: found.passages.map((p) => p.related ?? []) });
    if (out.answered) previous = { question: t.q, titles: out.cited.map((n) => found.passages[n - 1].doc.title) };
  }
  let ok, retrieved;
  if (it.kind === "unanswerable") { ok = got.every((g) => !g.answered); retrieved = true; }
  else if (it.kind === "multi-source") { ok = got[0].answered && it.turns[0].relevant.every((r) => got[0].ids.slice(0, 5).includes(r)); retrieved = it.turns[0].relevant.some((r) => got[0].pids.slice(0, 3).includes(r)); }
  else { ok = it.turns.every((t, i) => got[i].answered && t.relevant.some((r) => got[i].ids.slice(0, 3).includes(r))); retrieved = it.turns.every((t, i) => t.relevant.some((r) => got[i].pids.slice(0, 3).includes(r))); }
  const share = it.kind === "multi-source" && got[0].answered ? it.turns[0].relevant.filter((r) => got[0].ids.slice(0, 5).includes(r)).length / it.turns[0].relevant.length : 0;
  const search = it.kind === "single" || it.kind === "follow-up" ? it.turns.every((t, i) => t.relevant.some((r) => got[i].sids.includes(r))) : false;
  const search1 = it.kind === "single" ? it.turns[0].relevant.includes(got[0].sids[0]) : false;
  const vec3 = it.kind === "single" ? it.turns[0].relevant.some((r) => got[0].vids.includes(r)) : false;
  rows.push({ kind: it.kind, half: half(it.id), ok, retrieved, share, search, search1, vec3, answered: got.filter((g) => g.answered).length, turns: got.length });
  // The failure's class: which step lost it (the class list in docs/assistant.md).
  const cls = ok ? "" : it.kind === "unanswerable" ? "unanswerable-answered"
    : it.kind === "multi-source" ? (got[0].answered ? "multi-missing-source" : "multi-declined")
    : (() => { const i = it.turns.findIndex((t, j) => !(got[j].answered && t.relevant.some((r) => got[j].ids.slice(0, 3).includes(r)))); const g = got[i], t = it.turns[i];
        const pre = i > 0 ? "followup-turn2-" : "";
        return pre + (!g.answered ? (t.relevant.some((r) => g.pids.slice(0, 3).includes(r)) ? "declined-right-passage" : "declined-wrong-passage") : "answered-wrong-passage"); })();
  if (!ok) fails.push(`${cls} ${it.id} ${it.kind} ${retrieved ? "R" : "-"}${search ? "S" : "-"}: ${it.turns.map((t, i) => `"${t.q}" → ${got[i].answered ? "answered" : "declined"} [${got[i].ids.slice(0, 5).join(", ")}] passages [${got[i].pids.slice(0, 4).join(", ")}] want [${t.relevant.join(", ")}] rank of each wanted in the first 20 [${t.relevant.map((r) => `${got[i].deepIds.indexOf(r) + 1 || "-"}`).join(", ")}] search [${got[i].sids.join(", ")}]${SEMANTIC ? ` vectors [${got[i].vids.join(", ")}]` : ""}`).join(" | ")}`);
}
const pc = (a, b) => `${(100 * a / (b || 1)).toFixed(1)} (${a}/${b})`;
console.log("kind          ok (tune | check)                       retrieved@3 (answer or not)   search top 3 | top 1 (each turn alone)");
for (const k of ["single", "follow-up", "multi-source", "unanswerable"]) {
  const rs = rows.filter((r) => r.kind === k);
  const h = (x) => rs.filter((r) => r.half === x);
  console.log(k.padEnd(13), pc(rs.filter((r) => r.ok).length, rs.length).padEnd(14), `${pc(h("tune").filter((r) => r.ok).length, h("tune").length)} | ${pc(h("check").filter((r) => r.ok).length, h("check").length)}`.padEnd(30), pc(rs.filter((r) => r.retrieved).length, rs.length).padEnd(30), k === "single" || k === "follow-up" ? `${pc(rs.filter((r) => r.search).length, rs.length)} | ${k === "single" ? pc(rs.filter((r) => r.search1).length, rs.length) : "-"}` : "");
}
if (SEMANTIC) console.log("single: the embedded semantic ranking alone has a relevant page in its top 3:", pc(rows.filter((r) => r.vec3).length, rows.filter((r) => r.kind === "single").length));
const ms = rows.filter((r) => r.kind === "multi-source");
console.log("multi-source coverage", (100 * ms.reduce((n, r) => n + r.share, 0) / ms.length).toFixed(1));
const firsts = turnsFirst.filter(Boolean);
console.log("answerable turns: first passage relevant", pc(firsts.filter((f) => f.mine).length, firsts.length), "| search.json rank 1 relevant", pc(firsts.filter((f) => f.search).length, firsts.length));
const ans = rows.filter((r) => r.kind !== "unanswerable");
console.log("answerable turns answered", pc(ans.reduce((n, r) => n + r.answered, 0), ans.reduce((n, r) => n + r.turns, 0)));
if (process.argv.includes("--fails")) console.log(fails.sort().join("\n"));
const classes = {};
for (const f of fails) if (!f.startsWith(" ")) classes[f.split(" ")[0]] = (classes[f.split(" ")[0]] ?? 0) + 1;
console.log("failure classes", JSON.stringify(classes));
const d = process.argv.indexOf("--dump");
if (d > 0) writeFileSync(process.argv[d + 1].replace(/(\.json)?$/, set.name === "main" ? "$1" : `-${set.name}$1`), JSON.stringify(dump));
}
}
