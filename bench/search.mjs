// Search benchmark (issue 9): publishes a search dev set's corpus into a local portal as it really arrives and
// runs every query through GET /p/{portal}/search.json over HTTP, beside MiniSearch (the dev set's baseline
// settings: fuzzy 0.2, prefix, title ×2) in the same run. Endpoints arrive as OpenAPI uploads: DigitalOcean's
// multi-file definition (a .zip of ../shared/corpus/digitalocean/specification) and Slack's from ../shared/corpus,
// and a definition generated from the dev set's Twilio endpoint documents (Twilio's 2010 API is not in the
// corpus); guides (one page per source page, one `##` section per document) and changelog entries as one content
// bundle. Results are mapped back to corpus ids: operations by API + operationId, guide sections by their URL
// (anchors read from each published page's table of contents), changelog entries by their URL.
// Prints success@1 / success@5 / MRR@10 per query kind and per target kind, zero-result rate, p50/p95 latency,
// publish times, and the index build of GitHub's REST description (@octokit/openapi) from the upload's
// Server-Timing. Then GitHub's description joins the dev-set portal (one index of ~3,000 documents) and the query
// set runs again over HTTP for latency at issue 9's "2,000 documents" (beside the HTTP floor measured right
// after). Asserts nothing.
//   node bench/search.mjs [--corpus corpus.jsonl] [--queries queries.jsonl] [--json out.json] [--no-github]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { zipSync } from "fflate";
import MiniSearch from "minisearch";
import { readFolder, uploadContent, zipFiles } from "../scripts/lib/content-bundle.mjs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";

const ROOT = new URL("..", import.meta.url).pathname;
const DEVSET = join(ROOT, "../shared/search-devset");
const CORPUS_DIR = join(ROOT, "../shared/corpus");
const PORTAL = "devset";

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}
const readJsonl = (path) => readFileSync(path, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
};

/** An OpenAPI 3.0 definition of the dev set's Twilio endpoint documents (method, path, summary, parameters, form fields). */
export function twilioDefinition(docs) {
  const paths = {};
  for (const d of docs) {
    const lines = d.body.split("\n");
    const tag = (lines[0].split(" › ")[1] ?? "Twilio").trim();
    const at = lines.findIndex((l) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(l));
    if (at < 0) continue;
    const [method, path] = lines[at].split(" ");
    const field = (name) => (lines.find((l) => l.startsWith(`${name}: `)) ?? "").slice(name.length + 2).split(", ").filter(Boolean);
    const operationId = field("operationId")[0] ?? d.id.split(":")[1];
    const description = lines.slice(1, at).join("\n").trim();
    const summary = d.title !== operationId ? d.title : undefined;
    const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const parameters = field("Parameters").map((name) => ({ name, in: pathParams.includes(name) ? "path" : "query", required: pathParams.includes(name), schema: { type: "string" } }));
    for (const name of pathParams) if (!parameters.some((p) => p.name === name)) parameters.push({ name, in: "path", required: true, schema: { type: "string" } });
    const body = field("Body");
    const op = { operationId, tags: [tag], ...(summary ? { summary } : {}), ...(description && description !== summary ? { description } : {}), parameters, responses: { 200: { description: "OK" } } };
    if (body.length) op.requestBody = { content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties: Object.fromEntries(body.map((b) => [b, { type: "string" }])) } } } };
    (paths[path] ??= {})[method.toLowerCase()] = op;
  }
  return { openapi: "3.0.3", info: { title: "Twilio - Api", version: "1.0.0" }, servers: [{ url: "https://api.twilio.com" }], paths };
}

const yamlString = (s) => JSON.stringify(s);

/** The content bundle: guides grouped into pages (`##` per section document), one changelog entry per document. */
export function contentBundle(docs) {
  const files = {};
  const pages = new Map();
  for (const d of docs.filter((x) => x.kind === "guide")) {
    const [page, section] = d.id.startsWith("do-guide:") ? [d.id.split(":").slice(0, 2).join(":"), d.id] : [d.id.split("#")[0], d.id.includes("#") ? d.id : undefined];
    // A document that is a page of its own (no `#section` in its id: dev set 2's "Budgea Development Guides › Errors
    // management") keeps its whole title: cut at " › ", every such page was titled by its site's name alone.
    if (!pages.has(page)) pages.set(page, { title: section ? d.title.split(" › ")[0] : d.title, intro: undefined, sections: [] });
    const p = pages.get(page);
    if (!section || (!d.title.includes(" › ") && !p.intro)) p.intro = d;
    else p.sections.push(d);
  }
  const guideSlugs = new Map();
  for (const [key, p] of pages) {
    const slug = key.replace(/^(bump-guide|do-guide):/, "").replace(/[^a-z0-9/-]+/gi, "-").toLowerCase();
    guideSlugs.set(slug, p);
    const clean = (t) => t.replace(/\r/g, "").replace(/^(#{1,2}) /gm, "### ");
    const body = [p.intro ? clean(p.intro.body) : "", ...p.sections.map((s) => `## ${s.title.split(" › ").slice(1).join(" › ").replace(/\n/g, " ")}\n\n${clean(s.body)}`)].join("\n\n");
    files[`guides/${slug}.md`] = `---\ntitle: ${yamlString(p.title)}\n---\n${body}\n`;
  }
  const changelogIds = new Map();
  docs.filter((x) => x.kind === "changelog").forEach((d, i) => {
    const twilio = /Version (\d+\.\d+\.\d+) \((\d{4}-\d{2}-\d{2})\)/.exec(d.title);
    const dated = /^(\d{4}-\d{2}-\d{2})/.exec(d.body);
    const month = /› (\w+) (\d{4})$/.exec(d.title);
    const monthNo = month ? String(new Date(`${month[1]} 1, ${month[2]}`).getMonth() + 1).padStart(2, "0") : "01";
    const date = twilio?.[2] ?? dated?.[1] ?? (month ? `${month[2]}-${monthNo}-01` : "2020-01-01");
    const slug = `${date}-${d.id.split(":")[0]}-${i}`;
    changelogIds.set(slug, d.id);
    files[`changelog/${slug}.md`] = `---\ntitle: ${yamlString(d.title)}\ntype: Improved\nversion: v${twilio?.[1] ?? `0.0.${i}`}\ndate: ${date}\n---\n${d.body.replace(/\r/g, "")}\n`;
  });
  files["portico.yaml"] = `name: Dev set docs\nnavigation:\n  - title: Guides\n    items: [${[...guideSlugs.keys()].map((s) => `guides/${s}`).join(", ")}]\n`;
  return { files, guideSlugs, changelogIds };
}

/**
 * Documents in a portal's live search index (`search_live.documents`), read from the dev server's local D1 with
 * `wrangler d1 execute --local` (read-only). Returns undefined when it cannot be read.
 */
function liveDocuments(server, portal) {
  try {
    const out = execFileSync(process.execPath, [join(ROOT, "node_modules/.bin/wrangler"), "d1", "execute", "portico", "--local", "--persist-to", server.stateDir, "--json", "--command", `SELECT s.documents AS n FROM search_live s JOIN portals p ON p.id = s.portal_id WHERE p.slug = '${portal.replace(/'/g, "")}'`], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], env: { ...process.env, CI: "true" } });
    return JSON.parse(out)[0]?.results?.[0]?.n;
  } catch {
    return undefined;
  }
}

async function post(url, token, body, type) {
  const t0 = performance.now();
  const res = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return { ms: performance.now() - t0, json, timing: res.headers.get("server-timing") ?? "" };
}
const timingOf = (header, name) => Number(new RegExp(`${name};dur=([\\d.]+)`).exec(header)?.[1] ?? NaN);

/** success@1, success@5 and MRR@10 (percent) of ranked id lists against queries' relevant ids. */
function score(rows) {
  const n = rows.length || 1;
  const rank = (r) => r.ids.slice(0, 10).findIndex((id) => r.relevant.includes(id)) + 1;
  const ranks = rows.map(rank);
  const f = (x) => (100 * x / n).toFixed(1);
  return { n: rows.length, s1: f(ranks.filter((k) => k === 1).length), s5: f(ranks.filter((k) => k >= 1 && k <= 5).length), mrr: f(ranks.reduce((s, k) => s + (k ? 1 / k : 0), 0)), zero: f(rows.filter((r) => r.ids.length === 0).length) };
}

function table(title, engines, queries) {
  const kinds = [...new Set(queries.map((q) => q.kind))];
  const targets = [...new Set(queries.map((q) => q.targetKind))];
  console.log(`\n${title}: success@1 / success@5 / MRR@10 in % (n = ${queries.length})`);
  console.log(`| engine | overall | ${kinds.map((k) => `${k} (n=${queries.filter((q) => q.kind === k).length})`).join(" | ")} | ${targets.map((t) => `target ${t}`).join(" | ")} | p50 ms | p95 ms | zero-result |`);
  console.log(`|---|---|${kinds.map(() => "---|").join("")}${targets.map(() => "---|").join("")}---|---|---|`);
  for (const e of engines) {
    const cell = (rows) => {
      const s = score(rows);
      return `${s.s1} / ${s.s5} / ${s.mrr}`;
    };
    const all = score(e.rows);
    console.log(`| ${e.name} | ${cell(e.rows)} | ${kinds.map((k) => cell(e.rows.filter((r) => r.kind === k))).join(" | ")} | ${targets.map((t) => cell(e.rows.filter((r) => r.targetKind === t))).join(" | ")} | ${pct(e.ms, 50).toFixed(2)} | ${pct(e.ms, 95).toFixed(2)} | ${all.zero}% |`);
  }
}

/**
 * URL path → corpus id of what a content bundle of {@link contentBundle} became in `portal`: each guide section by the
 * anchor its published page's table of contents gives it (the intro, else the first section, by the page's own
 * URL), each changelog entry by its slug.
 */
/**
 * A page's HTML, asked again (up to 3 times, a second apart) when `wrangler dev` closes the connection: on the shared
 * machine under load it did so mid-run while the bench read guide pages, and a run that stopped there printed no figures.
 */
async function pageText(url) {
  return (await getRetrying(url)).text();
}

/** `fetch(url)` (a GET), asked again up to twice, a second apart, when the connection closes (see pageText). */
async function getRetrying(url) {
  for (let i = 0; ; i++) {
    try {
      return await fetch(url);
    } catch (err) {
      if (i >= 2) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

export async function contentIdsByUrl(base, portal, bundle) {
  const byUrl = new Map();
  for (const [slug, p] of bundle.guideSlugs) {
    const html = await pageText(`${base}/p/${portal}/guides/${slug}`);
    const toc = [...html.matchAll(/<li class="l([23])"><a href="#([^"]+)"/g)];
    if (p.intro) byUrl.set(`/p/${portal}/guides/${slug}`, p.intro.id);
    let section = -1;
    for (const [, level, id] of toc) {
      if (level === "2") section++;
      const doc = p.sections[section];
      if (doc) byUrl.set(`/p/${portal}/guides/${slug}#${id}`, doc.id);
    }
    if (!p.intro && p.sections[0]) byUrl.set(`/p/${portal}/guides/${slug}`, p.sections[0].id);
  }
  for (const [slug, id] of bundle.changelogIds) byUrl.set(`/p/${portal}/changelog#${slug}`, id);
  return byUrl;
}

export async function main() {
  const corpusPath = arg("corpus", join(DEVSET, "corpus.jsonl"));
  const queriesPath = arg("queries", join(DEVSET, "queries.jsonl"));
  const docs = readJsonl(corpusPath);
  const queries = readJsonl(queriesPath);
  console.log(`Search (issue 9): ${docs.length} documents, ${queries.length} queries; published into a local portal over HTTP, queried through search.json`);
  const server = await startDevServer();
  try {
    const base = server.baseUrl;
    const token = await createPortal(base, server.adminToken, PORTAL);
    const published = [];
    if (docs.some((d) => d.id.startsWith("do:"))) {
      const zip = zipSync(readFolder(join(CORPUS_DIR, "digitalocean/specification")), { level: 6 });
      published.push(["DigitalOcean (multi-file .zip)", await post(`${base}/v1/apis/upload?api=digitalocean&root=DigitalOcean-public.v2.yaml`, token, zip, "application/zip")]);
    }
    if (docs.some((d) => d.id.startsWith("slack:"))) {
      published.push(["Slack (Swagger 2.0 JSON)", await post(`${base}/v1/apis/upload?api=slack`, token, readFileSync(join(CORPUS_DIR, "slack/web-api/slack_web_openapi_v2.json")), "application/json")]);
    }
    // Other dev sets (bench/search-devset2, -3) name their definitions in a definitions.json beside the corpus:
    // [{api, file (under ../shared/corpus), type}], each uploaded as its own API.
    const defsPath = join(dirname(corpusPath), "definitions.json");
    const definitions = existsSync(defsPath) ? JSON.parse(readFileSync(defsPath, "utf8")) : [];
    for (const d of definitions) published.push([`${d.api} (${d.file})`, await post(`${base}/v1/apis/upload?api=${d.api}`, token, readFileSync(join(CORPUS_DIR, d.file)), d.type)]);
    const twilio = docs.filter((d) => d.kind === "endpoint" && d.id.startsWith("twilio:"));
    if (twilio.length) published.push(["Twilio (generated from the dev set)", await post(`${base}/v1/apis/upload?api=twilio`, token, JSON.stringify(twilioDefinition(twilio)), "application/json")]);
    const bundle = contentBundle(docs);
    const t0 = performance.now();
    // The sources link to pages outside the dev set (6 links): published as a writer would, despite them.
    const content = await uploadContent(base, token, zipFiles(bundle.files), "?allowBrokenLinks=true");
    if (content.status >= 300) throw new Error(`content upload: ${content.status} ${JSON.stringify(content.json).slice(0, 400)}`);
    published.push(["Guides + changelog (content bundle)", { ms: performance.now() - t0, json: content.json, timing: content.serverTiming ?? "" }]);
    console.log(`  dev-set portal's live index: ${liveDocuments(server, PORTAL) ?? "?"} documents`);
    for (const [name, p] of published) console.log(`  publish ${name}: ${p.ms.toFixed(0)} ms (search index build ${timingOf(p.timing, "search").toFixed(0)} ms)${p.json.operations !== undefined ? `, ${p.json.operations} operations` : ""}`);

    // URL → corpus id: guide anchors from each published page's table of contents, changelog by slug.
    const byUrl = await contentIdsByUrl(base, PORTAL, bundle);
    // Operations without an operationId (Traccar's): by API, method and path, as the corpus body states them.
    const byPath = new Map();
    for (const d of docs.filter((x) => x.kind === "endpoint")) {
      const line = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/m.exec(d.body);
      if (line) byPath.set(`${d.id.split(":")[0]} ${line[1]} ${line[2]}`, d.id);
    }
    const idOf = (r) => (r.kind === "operation" ? (r.operationId ? `${r.api === "digitalocean" ? "do" : r.api}:${r.operationId}` : byPath.get(`${r.api} ${r.method} ${r.path}`)) : byUrl.get(r.url.replace(/%[0-9A-F]{2}/g, (m) => decodeURIComponent(m))) ?? byUrl.get(r.url));

    const ask = async (q) => {
      const t = performance.now();
      const res = await getRetrying(`${base}/p/${PORTAL}/search.json?q=${encodeURIComponent(q)}&limit=10`);
      const body = await res.json();
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`search ${JSON.stringify(q)}: ${res.status} ${JSON.stringify(body)}`);
      return { ms, ids: [...new Set(body.results.map(idOf).filter(Boolean))], results: body.results, timing: res.headers.get("server-timing") ?? "" };
    };
    for (const q of queries.slice(0, 10)) await ask(q.q);
    const portico = { name: "portico (search.json over HTTP)", rows: [], ms: [], server: [] };
    const misses = [];
    for (const q of queries) {
      const r = await ask(q.q);
      portico.ms.push(r.ms);
      portico.server.push(timingOf(r.timing, "d1") + (timingOf(r.timing, "index") || 0) + (timingOf(r.timing, "search") || 0));
      portico.rows.push({ ...q, ids: r.ids });
      if (!r.ids.includes(q.target)) misses.push({ q: q.q, kind: q.kind, target: q.target, got: r.ids.slice(0, 3) });
    }

    const mini = { name: "minisearch (baseline, in-process)", rows: [], ms: [] };
    const t1 = performance.now();
    const ms = new MiniSearch({ idField: "id", fields: ["title", "body"], storeFields: [], searchOptions: { boost: { title: 2 }, fuzzy: 0.2, prefix: true } });
    ms.addAll(docs);
    const miniIndexMs = performance.now() - t1;
    for (const q of queries.slice(0, 10)) ms.search(q.q);
    for (const q of queries) {
      const t = performance.now();
      const ids = ms.search(q.q).slice(0, 10).map((r) => r.id);
      mini.ms.push(performance.now() - t);
      mini.rows.push({ ...q, ids });
    }
    // The floor of any answer over HTTP on this machine: GET /healthz, timed the same way.
    const floor = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await (await getRetrying(`${base}/healthz`)).text();
      floor.push(performance.now() - t);
    }
    table("Dev set", [portico, mini], queries);
    console.log(`  HTTP floor (GET /healthz through wrangler dev, same run): p50 ${pct(floor, 50).toFixed(2)} ms, p95 ${pct(floor, 95).toFixed(2)} ms`);
    console.log(`  minisearch index: ${miniIndexMs.toFixed(0)} ms in-process; portico latency includes HTTP, D1 (pointer) and the reader filter; inside the Worker (Server-Timing d1 + index + search) p50 ${pct(portico.server, 50).toFixed(1)} ms, p95 ${pct(portico.server, 95).toFixed(1)} ms`);
    const out = arg("json");
    if (out) writeFileSync(out, JSON.stringify({ portico: portico.rows.map((r) => ({ q: r.q, kind: r.kind, target: r.target, ids: r.ids })), misses, latency: { p50: pct(portico.ms, 50), p95: pct(portico.ms, 95) } }, null, 1));
    console.log(`  misses at rank 1-10 (first 12 of ${misses.length}): ${misses.slice(0, 12).map((m) => `${m.kind}: "${m.q}" → ${m.got[0] ?? "none"} (want ${m.target})`).join("; ")}`);

    if (!process.argv.includes("--no-github")) {
      const gh = await createPortal(base, server.adminToken, "github");
      const path = join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json");
      const body = readFileSync(path);
      const p = await post(`${base}/v1/apis/upload?api=github`, gh, body, "application/json");
      const q = await (await fetch(`${base}/p/github/search.json?q=${encodeURIComponent("get repository content")}&limit=3`)).json();
      console.log(`\nGitHub REST description (${(body.length / 1e6).toFixed(1)} MB, ${p.json.operations} operations): publish ${p.ms.toFixed(0)} ms in all, search index build ${timingOf(p.timing, "search").toFixed(0)} ms (Server-Timing: ${p.timing}); publish budget 30,000 ms`);
      console.log(`  "get repository content" → ${q.results.map((r) => `${r.method} ${r.path}`).join(", ")}`);

      // Latency on a bigger index (issue 9: "query p95 <= 30 ms over HTTP on 2,000 documents"; the dev set alone
      // has fewer): GitHub's description published into the dev-set portal itself, after the relevance run above,
      // so one index holds both and every query walks every document. The relevance table stays the dev-set
      // portal's alone; the figures here are latency, and the hits with GitHub's operations as distractors.
      const big = await post(`${base}/v1/apis/upload?api=github`, token, body, "application/json");
      const documents = liveDocuments(server, PORTAL);
      const bigRun = { rows: [], ms: [], server: [] };
      // The floor is sampled between the queries (one GET /healthz before each), so both see the same load on a
      // shared machine.
      const bigFloor = [];
      for (const q of queries.slice(0, 10)) await ask(q.q);
      for (const q of queries) {
        const t = performance.now();
        await (await getRetrying(`${base}/healthz`)).text();
        bigFloor.push(performance.now() - t);
        const r = await ask(q.q);
        bigRun.ms.push(r.ms);
        bigRun.server.push(timingOf(r.timing, "d1") + (timingOf(r.timing, "index") || 0) + (timingOf(r.timing, "search") || 0));
        bigRun.rows.push({ ...q, ids: r.ids });
      }
      const s = score(bigRun.rows);
      console.log(`\nDev set + GitHub in one portal (${documents ?? "?"} documents, index build ${timingOf(big.timing, "search").toFixed(0)} ms): ${queries.length} queries over HTTP p50 ${pct(bigRun.ms, 50).toFixed(2)} ms, p95 ${pct(bigRun.ms, 95).toFixed(2)} ms; inside the Worker p50 ${pct(bigRun.server, 50).toFixed(1)} ms, p95 ${pct(bigRun.server, 95).toFixed(1)} ms; HTTP floor (GET /healthz, one before each query) p50 ${pct(bigFloor, 50).toFixed(2)} ms, p95 ${pct(bigFloor, 95).toFixed(2)} ms`);
      console.log(`  the same queries' hits with GitHub's operations beside them (not the dev-set table): s@1 ${s.s1} / s@5 ${s.s5} / MRR@10 ${s.mrr}`);
    }
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
