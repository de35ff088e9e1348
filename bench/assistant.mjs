// Assistant benchmark (issue 28): publishes the search dev set's corpus into a local portal exactly as the search
// bench does (bench/search.mjs: DigitalOcean and Slack definitions, a Twilio definition generated from the dev set,
// guides and changelog as one content bundle), then asks ../shared/assistant-devset's 90 questions (105 turns)
// through POST /p/{portal}/assistant/ask over HTTP with `Accept: text/event-stream`, follow-ups in the same thread.
// Sources are mapped back to corpus ids as the search bench maps results. Prints per kind: cite@3, multi-source
// coverage (all relevant ids among the first 5; any among the first 3; share of relevant ids cited), declined rate on
// unanswerable items, answered rate on answerable turns, latency p50/p95 to the first `delta` and to `done`; beside
// it search.json's top 3 for the same turns (each question alone) as the baseline. Asserts nothing.
// Then the same for a second, small set of our own (bench/assistant-devset3: 30 questions over bench/search-devset3's
// Billbee, Traccar and Netlify corpus, published into its own portal), a held-out check nothing is tuned on.
//   node bench/assistant.mjs [--fails fails.txt] [--explain] [--set main|held-out]   (--explain: retrieval's figures per failed turn in the fails file)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { zipSync } from "fflate";
import { readFolder, uploadContent, zipFiles } from "../scripts/lib/content-bundle.mjs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";
import { contentBundle, contentIdsByUrl, twilioDefinition } from "./search.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const CORPUS = join(ROOT, "../shared/search-devset/corpus.jsonl");
const QUESTIONS = join(ROOT, "../shared/assistant-devset/questions.jsonl");
const CORPUS_DIR = join(ROOT, "../shared/corpus");
const SETS = [
  { name: "main", portal: "devset", corpus: CORPUS, questions: QUESTIONS },
  { name: "held-out", portal: "devset3", corpus: join(ROOT, "bench/search-devset3/corpus.jsonl"), questions: join(ROOT, "bench/assistant-devset3/questions.jsonl"), definitions: join(ROOT, "bench/search-devset3/definitions.json") },
];
const readJsonl = (path) => readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};
function arg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function post(url, token, body, type) {
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** Publishes the corpus as bench/search.mjs does; returns the source → corpus id mapper. */
async function publish(base, token, docs, set) {
  const PORTAL = set.portal;
  if (set.definitions) {
    // A dev set naming its definitions in a definitions.json beside the corpus, as bench/search.mjs reads it.
    for (const d of JSON.parse(readFileSync(set.definitions, "utf8"))) await post(`${base}/v1/apis/upload?api=${d.api}`, token, readFileSync(join(CORPUS_DIR, d.file)), d.type);
  } else {
    const zip = zipSync(readFolder(join(CORPUS_DIR, "digitalocean/specification")), { level: 6 });
    await post(`${base}/v1/apis/upload?api=digitalocean&root=DigitalOcean-public.v2.yaml`, token, zip, "application/zip");
    await post(`${base}/v1/apis/upload?api=slack`, token, readFileSync(join(CORPUS_DIR, "slack/web-api/slack_web_openapi_v2.json")), "application/json");
    await post(`${base}/v1/apis/upload?api=twilio`, token, JSON.stringify(twilioDefinition(docs.filter((d) => d.kind === "endpoint" && d.id.startsWith("twilio:")))), "application/json");
  }
  const bundle = contentBundle(docs);
  const content = await uploadContent(base, token, zipFiles(bundle.files), "?allowBrokenLinks=true");
  if (content.status >= 300) throw new Error(`content upload: ${content.status}`);
  const byUrl = await contentIdsByUrl(base, PORTAL, bundle);
  // Operations without an operationId (Traccar's): their page URL, found through search.json by method and path.
  for (const d of docs.filter((x) => x.kind === "endpoint" && !/^[\w-]+:[A-Za-z_][\w.]*$/.test(x.id))) {
    const line = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/m.exec(d.body);
    if (!line) continue;
    const found = await (await fetch(`${base}/p/${PORTAL}/search.json?q=${encodeURIComponent(`${line[1]} ${line[2]}`)}&limit=20`)).json();
    const hit = found.results.find((r) => r.kind === "operation" && r.api === d.id.split(":")[0] && String(r.method).toUpperCase() === line[1] && r.path === line[2]);
    if (hit) byUrl.set(hit.url, d.id);
  }
  return (r) => (r.kind === "operation" && r.operationId ? `${r.api === "digitalocean" ? "do" : r.api}:${r.operationId}` : byUrl.get(r.url.replace(/%[0-9A-F]{2}/g, (m) => decodeURIComponent(m))) ?? byUrl.get(r.url) ?? r.url);
}

/** One turn over HTTP as a stream: the `done` answer, ms to the first `delta` and to `done`. */
async function ask(base, jar, question, threadId, PORTAL) {
  const t0 = performance.now();
  const res = await fetch(`${base}/p/${PORTAL}/assistant/ask`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...(jar.cookie ? { cookie: jar.cookie } : {}) },
    body: JSON.stringify({ question, ...(threadId ? { threadId } : {}) }),
  });
  const set = res.headers.get("set-cookie");
  if (set) jar.cookie = set.split(";")[0];
  if (res.status !== 200) throw new Error(`ask ${JSON.stringify(question)}: ${res.status} ${await res.text()}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buf = "", first, done;
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    buf += decoder.decode(value, { stream: true });
    let at;
    while ((at = buf.indexOf("\n\n")) >= 0) {
      const block = buf.slice(0, at);
      buf = buf.slice(at + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = block.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).join("\n");
      if (event === "delta" && first === undefined) first = performance.now() - t0;
      if (event === "done") done = { answer: JSON.parse(data), ms: performance.now() - t0 };
    }
  }
  if (!done) throw new Error(`no done event for ${JSON.stringify(question)}`);
  return { ...done.answer, firstMs: first ?? done.ms, doneMs: done.ms };
}

export async function main() {
  const explain = process.argv.includes("--explain");
  const only = arg("set");
  const server = await startDevServer({ vars: { ASSISTANT_READER_LIMIT: "100000", ASSISTANT_PORTAL_LIMIT: "100000", ...(explain ? { ASSISTANT_EXPLAIN: "1" } : {}) } });
  try {
    for (const set of SETS.filter((x) => !only || x.name === only)) await runSet(server, set, explain);
  } finally {
    await server.stop();
  }
}

async function runSet(server, set, explain) {
  const PORTAL = set.portal;
  const docs = readJsonl(set.corpus);
  const items = readJsonl(set.questions);
  console.log(`Assistant (issue 28), ${set.name} set: ${items.length} questions (${items.reduce((n, i) => n + i.turns.length, 0)} turns) over ${docs.length} documents; embedded answerer over HTTP (POST /assistant/ask, text/event-stream)`);
  {
    const base = server.baseUrl;
    const token = await createPortal(base, server.adminToken, PORTAL);
    const idOf = await publish(base, token, docs, set);
    const jar = {};
    for (const it of items.slice(0, 3)) await ask(base, jar, it.turns[0].q, undefined, PORTAL); // warm-up
    const rows = {};
    const first = [], done = [], fails = [];
    const search = {};
    const dump = [];
    let answerable = 0, answeredTurns = 0;
    for (const it of items) {
      let threadId;
      const got = [];
      for (const t of it.turns) {
        const a = await ask(base, jar, t.q, threadId, PORTAL);
        threadId = a.threadId;
        first.push(a.firstMs);
        done.push(a.doneMs);
        got.push({ answered: a.answered, ids: a.sources.map(idOf), answer: a.answer, explain: a.explain ? { ...a.explain, passages: a.explain.passages.map(([url, score, covers]) => [idOf({ kind: url.startsWith("/reference/") ? "url" : "x", url: `/p/${PORTAL}${url}` }), score, covers.join(" ")]) } : undefined });
        dump.push({ id: it.id, kind: it.kind, q: t.q, relevant: t.relevant, answered: a.answered, ids: got.at(-1).ids, explain: got.at(-1).explain });
        if (it.kind !== "unanswerable") {
          answerable += 1;
          answeredTurns += a.answered ? 1 : 0;
        }
        const s = await (await fetch(`${base}/p/${PORTAL}/search.json?q=${encodeURIComponent(t.q.slice(0, 500))}&limit=5`)).json();
        const sIds = s.results.map(idOf);
        const sr = (search[it.kind] ??= { n: 0, ok: 0 });
        if (it.kind === "unanswerable") { sr.n += 1; sr.ok += 0; }
        else if (it.kind === "multi-source") { sr.n += 1; sr.ok += t.relevant.every((r) => sIds.slice(0, 5).includes(r)) ? 1 : 0; }
        else { sr.n += 1; sr.ok += t.relevant.some((r) => sIds.slice(0, 3).includes(r)) ? 1 : 0; }
      }
      const r = (rows[it.kind] ??= { n: 0, ok: 0, any: 0, share: 0 });
      r.n += 1;
      let ok;
      if (it.kind === "unanswerable") ok = got.every((g) => !g.answered && g.ids.length === 0);
      else if (it.kind === "multi-source") {
        const rel = it.turns[0].relevant;
        ok = got[0].answered && rel.every((x) => got[0].ids.slice(0, 5).includes(x));
        r.any += got[0].answered && rel.some((x) => got[0].ids.slice(0, 3).includes(x)) ? 1 : 0;
        r.share += got[0].answered ? rel.filter((x) => got[0].ids.slice(0, 5).includes(x)).length / rel.length : 0;
      } else ok = it.turns.every((t, i) => got[i].answered && t.relevant.some((x) => got[i].ids.slice(0, 3).includes(x)));
      r.ok += ok ? 1 : 0;
      if (!ok) fails.push(`${it.id} ${it.kind}: ${it.turns.map((t, i) => `"${t.q}" → ${got[i].answered ? "answered" : "declined"} [${got[i].ids.slice(0, 5).join(", ")}] want [${t.relevant.join(", ")}]${got[i].explain ? `\n    ${JSON.stringify(got[i].explain)}` : ""}`).join(" | ")}`);
    }
    const cell = (k) => (rows[k] ? `${((100 * rows[k].ok) / rows[k].n).toFixed(1)} (${rows[k].ok}/${rows[k].n})` : "-");
    const ms = rows["multi-source"];
    const scell = (k) => (search[k] ? `${((100 * search[k].ok) / search[k].n).toFixed(1)}` : "-");
    console.log("| engine | single cite@3 | follow-up cite@3 | multi all@5 | multi any@3 | multi coverage | unanswerable declined | answerable answered | p50 first delta ms | p95 first delta ms | p50 done ms | p95 done ms |");
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
    console.log(`| assistant (embedded) | ${cell("single")} | ${cell("follow-up")} | ${cell("multi-source")} | ${((100 * ms.any) / ms.n).toFixed(1)} | ${((100 * ms.share) / ms.n).toFixed(1)} | ${cell("unanswerable")} | ${((100 * answeredTurns) / answerable).toFixed(1)} (${answeredTurns}/${answerable}) | ${pct(first, 50).toFixed(1)} | ${pct(first, 95).toFixed(1)} | ${pct(done, 50).toFixed(1)} | ${pct(done, 95).toFixed(1)} |`);
    console.log(`| search.json top 3 (baseline, each turn alone) | ${scell("single")} | ${scell("follow-up")} (per turn) | ${scell("multi-source")} | - | - | 0.0 (never declines) | 100.0 | - | - | - | - |`);
    console.log(`  fails: ${fails.length}${arg("fails") ? ` (written to ${arg("fails")})` : ""}`);
    const suffix = (f) => (set.name === "main" ? f : f.replace(/(\.\w+)?$/, `-${set.name}$1`));
    if (arg("fails")) writeFileSync(suffix(arg("fails")), fails.join("\n") + "\n");
    if (arg("dump")) writeFileSync(suffix(arg("dump")), JSON.stringify(dump));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
