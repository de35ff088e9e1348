// Helpers the search dev sets of our own share (bench/search-devset2, bench/search-devset3): plain text from a
// definition's Markdown, headings split into sections, and an operation as an "endpoint" document in the first dev
// set's shape ({id, kind, title, body, url, locale}; body as ../shared/search-devset's build_corpus.mjs writes it).

/** The HTTP methods the dev sets read, in their order. */
export const METHODS = ["get", "put", "post", "delete", "patch"];

/** Markdown/HTML → plain text: tags dropped, entities decoded, links to their text; code kept verbatim. */
export function clean(md = "") {
  return String(md)
    .replace(/<details[\s\S]*?<\/details>/g, (m) => m.replace(/<[^>]+>/g, " "))
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/&(amp|lt|gt|quot);/g, (_, e) => ({ amp: "&", lt: "<", gt: ">", quot: '"' })[e])
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
}

/** The name a `$ref` (or an array of one) points at, else undefined. */
export const refName = (s) => (s?.$ref ? s.$ref.split("/").pop() : s?.items?.$ref ? s.items.$ref.split("/").pop() : undefined);

/** Lower-case words joined by "-". */
export const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** Splits markdown at headings (any level): [heading path, text] pairs; text before the first heading is the intro. */
export function sections(md) {
  const out = [];
  let head = "";
  let buf = [];
  let fence = false;
  const flush = () => { const t = clean(buf.join("\n")); if (t.length > 40) out.push([head, t]); buf = []; };
  for (const line of String(md).split("\n")) {
    if (/^\s*```/.test(line)) fence = !fence;
    const m = !fence && /^(#{1,4})\s+(.+?)\s*#*$/.exec(line);
    if (m) { flush(); head = clean(m[2]).replace(/\*+/g, ""); continue; }
    buf.push(line);
  }
  flush();
  return out;
}

/**
 * One operation of `spec` (OpenAPI 3.x or Swagger 2.0) as an endpoint document of vendor `v` ({key, name}), with its
 * operationId (else method + path) and request body schema (3.x requestBody or 2.0 `in: body`) for callers that
 * also write changelog lines from it.
 */
export function endpointDoc(v, spec, path, item, method, o) {
  const opId = o.operationId ?? `${method}${path}`;
  const all = [...(item.parameters ?? []), ...(o.parameters ?? [])];
  const params = all.map((p) => p.name ?? refName(p)).filter(Boolean);
  const bodySchema = Object.values(o.requestBody?.content ?? {})[0]?.schema ?? all.find((p) => p.in === "body")?.schema;
  const props = Object.keys(bodySchema?.properties ?? (spec.components?.schemas ?? spec.definitions)?.[refName(bodySchema)]?.properties ?? {});
  const body = [`${v.name} API › ${(o.tags ?? []).join(", ") || v.name}`, clean(o.description), `${method.toUpperCase()} ${path}`, `operationId: ${opId}`,
    params.length ? `Parameters: ${[...new Set(params)].join(", ")}` : "", props.length ? `Body: ${props.join(", ")}` : ""].filter(Boolean).join("\n");
  return { opId, bodySchema, doc: { id: `${v.key}:${opId}`, kind: "endpoint", title: clean(o.summary) || opId, body, url: `https://example.invalid/${v.key}/reference#operation/${opId}`, locale: "en" } };
}
