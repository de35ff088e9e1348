// Dev-set adapter for Portico's engine (copied beside the bundled engine.mjs by bench/search-devset.mjs).
// Dev-set documents are {id, kind: endpoint|guide|changelog, title, body, url, locale}; endpoint bodies carry
// `METHOD /path`, `operationId: x`, `Parameters: a, b` and `Body: a, b` lines and a breadcrumb first line,
// which become the fields the integration fills from the model.
import { buildSearchIndex, loadSearchIndex } from "./engine.mjs";

export const name = "portico";
let engine;
const KIND = { endpoint: "operation", guide: "guide", changelog: "changelog" };

export function toSearchDocument(d) {
  const doc = { id: d.id, kind: KIND[d.kind] ?? "guide", title: d.title, body: d.body, url: d.url, locale: d.locale || "en", labels: [] };
  // PORTICO_SPLIT_TITLES=1: guides as the integration may send them, page title + section heading apart.
  if (d.kind !== "endpoint" && process.env.PORTICO_SPLIT_TITLES && d.title.includes(" › ")) {
    const parts = d.title.split(" › ");
    doc.section = parts.pop();
    doc.title = parts.join(" › ");
  }
  if (d.kind !== "endpoint") return doc;
  const fields = {};
  const lines = d.body.split("\n");
  const crumb = lines[0].split(" › ");
  if (crumb.length > 1) { doc.api = crumb[0]; fields.tag = crumb.slice(1).join(" "); }
  for (const line of lines) {
    let m;
    if ((m = /^(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS) (\/\S*)$/.exec(line))) { fields.method = m[1]; fields.path = m[2]; }
    else if ((m = /^operationId: (.+)$/.exec(line))) fields.operationId = m[1];
    else if ((m = /^Parameters: (.+)$/.exec(line))) fields.parameters = m[1].split(", ");
    else if ((m = /^Body: (.+)$/.exec(line))) fields.properties = m[1].split(", ");
  }
  // The body keeps only the prose: the identifier lines are now fields.
  doc.body = lines.slice(1).filter((l) => !/^(GET|PUT|POST|DELETE|PATCH|HEAD|OPTIONS) \/|^operationId: |^Parameters: |^Body: /.test(l)).join("\n");
  doc.fields = fields;
  return doc;
}

export function index(docs) {
  engine = loadSearchIndex(buildSearchIndex(docs.map(toSearchDocument)));
}

export function search(q) {
  return engine.search(q, { limit: 10, canRead: () => true }).results.map((r) => r.doc.id);
}

/** For debugging: the full response, with the query's groups when the engine exposes them. */
export function debug(q) {
  return { groups: engine.explain?.(q), ...engine.search(q, { limit: 10, canRead: () => true }) };
}
