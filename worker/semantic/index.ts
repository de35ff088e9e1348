/**
 * @module Which semantic retriever a deployment has: Workers AI + Vectorize when both bindings exist (wrangler.toml
 * binds them in `[env.production]` only), else none, and search is lexical only (local runs and tests, as before).
 */
import type { SemanticRetriever } from "../search/semantic";
import { workersAiVectorize, type EmbeddingModel, type VectorStore } from "./workers-ai-vectorize";

/** The bindings this needs, as optional as `wrangler types` makes them. */
export interface SemanticBindings {
  AI?: unknown;
  VECTORIZE?: unknown;
  /** Optional var: the least cosine similarity a semantic match needs (0-1; default DEFAULT_MIN_SCORE). */
  SEMANTIC_MIN_SCORE?: unknown;
}

/** The deployment's semantic retriever, or undefined (the embedded default: none). */
export function semanticFor(env: SemanticBindings): SemanticRetriever | undefined {
  if (!env.AI || !env.VECTORIZE) return undefined;
  const minScore = Number(env.SEMANTIC_MIN_SCORE);
  const valid = env.SEMANTIC_MIN_SCORE !== undefined && env.SEMANTIC_MIN_SCORE !== "" && Number.isFinite(minScore) && minScore >= 0 && minScore <= 1;
  return workersAiVectorize(env.AI as EmbeddingModel, env.VECTORIZE as VectorStore, valid ? { minScore } : {});
}
