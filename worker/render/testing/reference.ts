/** @module Test support: a real reference model (the publish core's buildReference) and page props around it. */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { CORPUS_DIR } from "../../../test/harness/corpus-files";
import { buildReference } from "../../openapi/build";
import type { OperationSlice, OperationSummary, ReferenceHeader } from "../../openapi/model/types";
import type { ApiRef, PageProps } from "../types";

/** A built reference, with slices round-tripped through JSON as the KV store would return them. */
export interface TestReference {
  header: ReferenceHeader;
  operations: OperationSummary[];
  slice(slug: string): OperationSlice;
  bySummary(method: string, path: string): OperationSummary;
}

/** Builds `text` (YAML or JSON, any supported version); throws with the refusal when the build fails. */
export function buildText(text: string): TestReference {
  const out = buildReference({ body: new TextEncoder().encode(text) });
  if (!out.ok) throw new Error(`build failed: ${out.code} ${out.message}`);
  return {
    header: JSON.parse(JSON.stringify(out.header)),
    operations: out.operations,
    slice: (slug) => JSON.parse(JSON.stringify(out.slice(slug))),
    bySummary: (method, path) => {
      const op = out.operations.find((o) => o.method === method && o.path === path);
      if (!op) throw new Error(`no ${method} ${path}`);
      return op;
    },
  };
}

/** Builds a corpus file (path relative to ../shared/corpus) or a project file (path starting with `./`). */
export function buildFile(path: string): TestReference {
  const full = path.startsWith("./") ? resolve(process.cwd(), path) : resolve(CORPUS_DIR, path);
  return buildText(readFileSync(full, "utf8"));
}

/** Page props for portal `acme`, API `pets` (two versions, 1.0 live). */
export function pageProps(layout: ApiRef["layout"] = "page-per-operation"): PageProps {
  const api: ApiRef = { slug: "pets", title: "Pets API", layout };
  return {
    portal: { slug: "acme", name: "Acme Docs" },
    basePath: "/p/acme",
    apis: [api, { slug: "billing", title: "Billing API", layout: "single-page" }],
    api,
    versions: [{ label: "1.0", live: true }, { label: "2.0-beta", live: false }],
    version: { label: "1.0", live: true },
    canonicalUrl: "https://docs.example/p/acme/reference/pets/1.0/",
  };
}

/** Operations sharing the first tag of `op` (what the routes pass as `nav`). */
export function sameTag(ref: TestReference, op: OperationSummary): OperationSummary[] {
  return ref.operations.filter((o) => o.kind === "operation" && (o.tags[0] ?? "") === (op.tags[0] ?? ""));
}

/** Reads a whole stream as text. */
export async function streamText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let out = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out + decoder.decode();
    out += decoder.decode(value, { stream: true });
  }
}
