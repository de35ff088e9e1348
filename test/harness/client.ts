/** @module Test helpers that talk to the Worker through its HTTP interface, as a real client would. */
import { env, SELF } from "cloudflare:test";

export const ORIGIN = "http://portico.test";

/** POST /v1/portals with the admin token; returns the portal token. */
export async function createPortal(slug: string, name = `Portal ${slug}`): Promise<string> {
  const res = await SELF.fetch(`${ORIGIN}/v1/portals`, {
    method: "POST",
    headers: { authorization: `Bearer ${env.PORTICO_ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ slug, name }),
  });
  if (res.status !== 201) throw new Error(`createPortal ${slug}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** POST /v1/apis/upload with a raw body; `query` becomes the query string. */
export async function upload(
  token: string,
  body: BodyInit,
  query: Record<string, string> = {},
  contentType = "application/yaml",
): Promise<{ status: number; json: any }> {
  const qs = new URLSearchParams(query).toString();
  const res = await SELF.fetch(`${ORIGIN}/v1/apis/upload${qs ? `?${qs}` : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    body,
  });
  return { status: res.status, json: await jsonOrRaw(res) };
}

/** A response's body as JSON, or `{raw: text}` when it is not JSON (an HTML error page, say). */
export async function jsonOrRaw(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return { raw: text };
  }
}

/** GET a reader page; returns status and HTML. */
export async function getPage(path: string): Promise<{ status: number; html: string }> {
  const res = await SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

/** A corpus definition as served by the test-only CORPUS binding; see test/harness/corpus-files.ts. */
export interface CorpusBody {
  body: Uint8Array<ArrayBuffer>;
  /** Operations behind local path-item `$ref`s, which MANIFEST.tsv's operation_count leaves out. */
  pathItemRefOperations: number;
}

async function corpusFetch(url: string): Promise<{ res: Response } & CorpusBody> {
  const res = await env.CORPUS.fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return { res, body: new Uint8Array(await res.arrayBuffer()), pathItemRefOperations: Number(res.headers.get("x-path-item-ref-operations") ?? 0) };
}

/** One corpus file's bytes (served from ../shared/corpus by the test-only CORPUS binding). */
export async function corpusFile(path: string): Promise<CorpusBody> {
  const { res: _res, ...file } = await corpusFetch(`http://corpus/file?path=${encodeURIComponent(path)}`);
  return file;
}

/** A .tar.gz of a multi-file corpus definition and the root's name inside it. */
export async function corpusArchive(root: string): Promise<CorpusBody & { root: string }> {
  const { res, ...archive } = await corpusFetch(`http://corpus/archive?root=${encodeURIComponent(root)}`);
  return { ...archive, root: res.headers.get("x-archive-root")! };
}

/** MANIFEST.tsv rows as objects keyed by its header. */
export async function corpusManifest(): Promise<Record<string, string>[]> {
  const text = await (await env.CORPUS.fetch("http://corpus/manifest")).text();
  const [head, ...lines] = text.trimEnd().split("\n");
  const cols = head.split("\t");
  return lines.map((line) => Object.fromEntries(line.split("\t").map((v, i) => [cols[i], v])));
}
