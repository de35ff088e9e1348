/**
 * @module Synonyms mined from the portal's own content (placeholder until the miner lands: returns none).
 */
import type { SearchDocument } from "./types";

/** Related terms per term, flattened `[term, weight%, ...]`; empty for now. */
export function mineRelated(_docs: SearchDocument[], _terms: Map<string, number>): Record<string, number[]> {
  return {};
}
