/**
 * @module The semantic retrieval port (issue 9): what the search engine needs from an embedding model plus a vector
 * store, and the platform-free pieces both sides share (the text a document is embedded from, its access key, the
 * filter scope of a reader). The production adapter (Workers AI + Vectorize) is `worker/semantic/`; the embedded
 * default is none at all: without an adapter nothing here runs and search is lexical only.
 *
 * How a vector reaches a reader: the publisher embeds documents and stores vectors under content-addressed ids;
 * the live lexical index lists, per document, the id of its vector (`IndexData.vectors`). A query's vector matches
 * are mapped back to documents only through that table, so vectors of a publish that has not gone live, or of
 * documents that left, map to nothing; and every mapped document must pass the reader's filters (`allowed`) before
 * it is ranked or counted.
 */
import type { SearchDocument, SearchKind, SemanticScope } from "./types";

/** Reciprocal rank fusion constant (Cormack et al. 2009): 60 damps the head of each list without flattening it. */
export const RRF_K = 60;

/** Metadata stored with each vector. String fields the query filters on need Vectorize metadata indexes. */
export interface SemanticMetadata {
  /** Portal id (the namespace holds it too; kept for operators reading the index). */
  portal: number;
  /** `api:{slug}` or `content`. */
  source: string;
  kind: SearchKind;
  /** BCP 47 tag of the document. */
  locale: string;
  /** {@link accessKey} of the document's own labels: what the reader filter matches with `$in`. */
  access: string;
  /** The labels themselves, comma-separated (for people reading the index; filters use `access`). */
  labels: string;
  /** The search document's id (stable across versions: `op:{api}:{slug}`, `guide:{locale}:{slug}`, ...). */
  doc: string;
}

/** One vector to store: its id (content-addressed, at most 64 bytes), the text to embed and its metadata. */
export interface SemanticItem {
  id: string;
  text: string;
  metadata: SemanticMetadata;
}

// Defined with the search port's other types (the index computes it: SearchIndex.semanticScope); named here too,
// where the retriever that takes it is.
export type { SemanticScope } from "./types";

/** What {@link SemanticRetriever.store} managed: the ids now stored, and the error that stopped it, if any. */
export interface StoreOutcome {
  stored: string[];
  /** Items left unstored because the time ran out. */
  skipped: number;
  error?: unknown;
}

/**
 * The semantic port. `store` embeds and stores vectors (publish time only); `remove` deletes them; `query` embeds a
 * reader's query and answers vector ids, best first, within `scope`. Implementations bound their own batches.
 */
export interface SemanticRetriever {
  /** The embedding model's name: part of every vector id, so a model change re-embeds everything. */
  readonly model: string;
  /** Embeds and stores `items` in the portal's namespace, stopping (not failing) at epoch ms `until`. Never throws. */
  store(portalId: number, items: SemanticItem[], until: number): Promise<StoreOutcome>;
  /** Deletes vectors by id from the portal's namespace. */
  remove(portalId: number, ids: string[]): Promise<void>;
  /** The ids of the `topK` nearest vectors within `scope`, best first. */
  query(portalId: number, text: string, scope: SemanticScope, topK: number): Promise<string[]>;
}

/** Characters of body text embedded per document (bge-m3 reads far more; the opening says what a section is about). */
export const EMBED_BODY_CHARS = 1500;

/**
 * The text a document is embedded from: title, section, method + path, operationId and tag, then the body's
 * opening. Deterministic, so an unchanged document has an unchanged vector id.
 */
export function embeddingText(doc: SearchDocument): string {
  const f = doc.fields ?? {};
  const head = [doc.title, doc.section, f.method && f.path ? `${f.method.toUpperCase()} ${f.path}` : f.path, f.operationId, f.tag]
    .filter((s): s is string => typeof s === "string" && s.trim() !== "");
  const body = (doc.body ?? "").slice(0, EMBED_BODY_CHARS);
  return [...new Set(head)].join("\n") + (body ? `\n\n${body}` : "");
}

/** `api:{slug}` for definition documents, `content` for the content release's. */
export function semanticSource(doc: SearchDocument): string {
  return doc.api ? `api:${doc.api}` : "content";
}

/**
 * A short key for a label set, stable across builds: `public` for none, else `l` + 26 hex digits of two 53-bit
 * string hashes of the sorted, distinct labels. Vectorize indexes only the first 64 bytes of a string and has no
 * array membership or `$or`, so "public or one of the reader's labels" is expressed as `access $in [keys the
 * reader may open]`. A collision could only widen that filter; the engine's own check still decides.
 */
export function accessKey(labels: readonly string[] | undefined): string {
  if (!labels?.length) return "public";
  const canonical = [...new Set(labels)].sort().join("\u0000");
  return "l" + hash53(canonical, 0x9e3779b1).toString(16).padStart(14, "0").slice(-13) + hash53(canonical, 0x85ebca6b).toString(16).padStart(14, "0").slice(-13);
}

// cyrb53 (public domain): a fast, well-mixed 53-bit string hash; not cryptographic, and need not be (see accessKey).
function hash53(s: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
