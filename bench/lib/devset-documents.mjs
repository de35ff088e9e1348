// The search dev set (../shared/search-devset) as the documents Portico itself publishes, in-process: DigitalOcean,
// Slack and Twilio's endpoints built into reference models, the guides and changelog compiled as a content release;
// and the map from a published document back to the dev set's id. Shared by bench/search-documents.mjs (ranking) and
// bench/assistant-documents.mjs (the assistant's retrieval), so both tune on the very same documents.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { zipSync } from "fflate";
import { tsImport } from "tsx/esm/api";
import { contentBundle, twilioDefinition } from "../search.mjs";

const ROOT = new URL("../..", import.meta.url).pathname;
const { buildReference } = await tsImport(join(ROOT, "worker/openapi/build.ts"), import.meta.url);
const { operationDocument } = await tsImport(join(ROOT, "worker/search/documents.ts"), import.meta.url);
const { releaseDocuments } = await tsImport(join(ROOT, "worker/search/documents-content.ts"), import.meta.url);
const { compileBundle } = await tsImport(join(ROOT, "worker/content/compile.ts"), import.meta.url);

/** Lines of a JSON Lines file, parsed. */
export const readJsonl = (p) => readFileSync(p, "utf8").trim().split("\n").map((l) => JSON.parse(l));

function folderFiles(dir) {
  const files = {};
  const walk = (d) => { for (const n of readdirSync(d)) { const f = join(d, n); if (statSync(f).isDirectory()) walk(f); else files[relative(dir, f)] = new Uint8Array(readFileSync(f)); } };
  walk(dir);
  return files;
}

/**
 * The dev set's corpus `docs` as Portico's documents: `{ all, idOf }`, `idOf(document)` the dev set's id of a
 * published document (undefined for one it has no id for). `github`: GitHub's REST description joins as a fourth
 * API; `tags: false` builds operation documents without their tag context (an ablation).
 */
export async function devsetDocuments(docs, { github = false, tags = true, definitions } = {}) {
  const enc = new TextEncoder();
  // `definitions` ([{api, file (under ../shared/corpus), type}], a dev set's definitions.json, as bench/search.mjs
  // reads it) replaces the first dev set's three APIs.
  const sources = definitions
    ? definitions.map((d) => [d.api, readFileSync(join(ROOT, "../shared/corpus", d.file)), d.type])
    : [
        ["digitalocean", zipSync(folderFiles(join(ROOT, "../shared/corpus/digitalocean/specification"))), "application/zip", "DigitalOcean-public.v2.yaml"],
        ["slack", readFileSync(join(ROOT, "../shared/corpus/slack/web-api/slack_web_openapi_v2.json")), "application/json"],
        ["twilio", enc.encode(JSON.stringify(twilioDefinition(docs.filter((d) => d.id.startsWith("twilio:") && d.kind === "endpoint")))), "application/json"],
      ];
  if (github) sources.push(["github", readFileSync(join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.json")), "application/json"]);
  const all = [];
  for (const [api, body, contentType, root] of sources) {
    const out = buildReference({ body: new Uint8Array(body), contentType, root });
    if (!out.ok) throw new Error(api + out.message);
    for (const op of out.operations) all.push(operationDocument(out.slice(op.slug), { api, version: "1", layout: "page-per-operation", locale: "en", tags: tags ? out.header.tags : undefined }));
  }
  const bundle = contentBundle(docs);
  const files = new Map(Object.entries(bundle.files).map(([k, v]) => [k, enc.encode(v)]));
  const release = await compileBundle(files, new Map());
  all.push(...releaseDocuments(release.pages, release.glossary, release.config));
  const byUrl = new Map();
  for (const [slug, p] of bundle.guideSlugs) {
    const page = release.pages.find((x) => x.meta.slug === slug && x.meta.kind === "guide");
    if (p.intro) byUrl.set(`/guides/${slug}`, p.intro.id); else if (p.sections[0]) byUrl.set(`/guides/${slug}`, p.sections[0].id);
    let s = -1;
    for (const t of page.page.toc) { if (t.level === 2) s++; if (p.sections[s]) byUrl.set(`/guides/${slug}#${t.id}`, p.sections[s].id); }
  }
  for (const [slug, id] of bundle.changelogIds) byUrl.set(`/changelog#${slug}`, id);
  // Operations without an operationId in their definition (Traccar's): by API, method and path, as the corpus states them.
  const byPath = new Map();
  for (const d of docs.filter((x) => x.kind === "endpoint")) {
    const line = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/m.exec(d.body);
    if (line) byPath.set(`${d.id.split(":")[0]} ${line[1]} ${line[2]}`, d.id);
  }
  const idOf = (d) => {
    if (d.kind !== "operation") return byUrl.get(d.url);
    const api = d.api === "digitalocean" ? "do" : d.api;
    return d.fields.operationId ? `${api}:${d.fields.operationId}` : byPath.get(`${api} ${String(d.fields.method).toUpperCase()} ${d.fields.path}`);
  };
  return { all, idOf };
}
