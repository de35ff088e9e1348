/**
 * @module The no-hit backlog (issue 29): no-hit queries of the search box and the assistant grouped by meaning with
 * the search engine's own normalisation, so one missing page is one item however readers spelled it. Two queries
 * share a group when (a) their words have the same stems once curated synonyms are mapped to one term, in any
 * order; (b) their stems run together are the same (`web hook` = `webhooks`); or (c) those run-together forms are
 * within the engine's typo distance (`webhok` ~ `webhook`: search/fuzzy.ts, optimal string alignment, one edit up
 * to 7 letters, two from 8), except that forms under {@link MIN_TYPO_CHARS} letters need an exact match: the engine
 * corrects a word towards a vocabulary it knows, whereas here both sides are unknown (`cat` and `car` stay apart). Typo candidates are found through single deletions (symmetric delete), so grouping is
 * near-linear in the number of queries, not quadratic. Platform-free.
 */
import { STOPWORDS, stem } from "../search/analyze";
import { deletions, editDistance, maxEdits } from "../search/fuzzy";
import { synonymsOf } from "../search/synonyms";
import { tokenize } from "../search/tokenize";
import type { NoHitQuery } from "./portal-analytics";
import type { AnalyticsKind } from "./query-id";

/** Curated synonyms weigh at least this to merge groups (the API vocabulary's near-equivalents: auth ~ authentication). */
const SYNONYM_WEIGHT = 0.8;
/** Shortest run-together form grouped by typo distance. */
export const MIN_TYPO_CHARS = 5;
const edits = (w: string) => (w.length < MIN_TYPO_CHARS ? 0 : maxEdits(w));

/** One backlog item: the queries that asked for the same missing thing. */
export interface BacklogGroup {
  /** Stable id of the group (from its keys' smallest form): what `POST /v1/analytics/backlog/{id}/draft` names. */
  id: string;
  /** The group's most asked query, as readers typed it (stored form). */
  label: string;
  count: number;
  lastSeen: string;
  kinds: AnalyticsKind[];
  /** Some of its queries came from readers of gated sections (writers only). */
  gated: boolean;
  queries: Array<{ q: string; kind: AnalyticsKind; count: number; lastSeen: string }>;
}

/** The meaning-bearing stems of a query, in order (stopwords dropped; split identifiers' joined forms left out). */
export function queryStems(q: string): string[] {
  return tokenize(q, 24).filter((t) => !t.joined && !STOPWORDS.has(t.word)).map((t) => stem(t.word));
}

/** A stem's representative among its curated synonyms (the smallest, so every member maps to the same one). */
function canonical(s: string): string {
  let best = s;
  for (const syn of synonymsOf(s, {}, [])) if (syn.curated && syn.weight >= SYNONYM_WEIGHT && syn.term < best && !syn.term.includes("_")) best = syn.term;
  return best;
}

/** A short stable id for a key (FNV-1a, 32 bits, base 36): ids only need to be unique within one portal's backlog. */
export function groupId(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36).padStart(7, "0");
}

/** Groups `rows` (no-hit queries, most frequent first); groups come out most asked first. */
export function groupNoHitQueries(rows: NoHitQuery[]): BacklogGroup[] {
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    // The more frequent query (lower index) stays the root, so it names the group.
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const byKey = new Map<string, number>();
  const joinedOf: string[] = [];
  const byDeletion = new Map<string, number[]>();
  rows.forEach((row, i) => {
    const stems = queryStems(row.q);
    const joined = stems.join("") || row.q;
    joinedOf.push(joined);
    for (const key of [`w:${stems.map(canonical).sort().join(" ")}`, `j:${joined}`]) {
      if (key.length <= 2) continue;
      const first = byKey.get(key);
      if (first === undefined) byKey.set(key, i);
      else union(first, i);
    }
    if (edits(joined) === 0) return;
    for (const d of [joined, ...deletions(joined)]) {
      const list = byDeletion.get(d);
      if (list) {
        for (const j of list) {
          const max = Math.min(edits(joinedOf[j]), edits(joined));
          if (find(j) !== find(i) && editDistance(joinedOf[j], joined, max) <= max) union(j, i);
        }
        if (list.length < 32) list.push(i);
      } else byDeletion.set(d, [i]);
    }
  });
  const groups = new Map<number, BacklogGroup>();
  rows.forEach((row, i) => {
    const root = find(i);
    let g = groups.get(root);
    if (!g) groups.set(root, (g = { id: groupId(joinedOf[root]), label: rows[root].q, count: 0, lastSeen: row.lastSeen, kinds: [], gated: false, queries: [] }));
    g.count += row.count;
    if (row.lastSeen > g.lastSeen) g.lastSeen = row.lastSeen;
    if (!g.kinds.includes(row.kind)) g.kinds.push(row.kind);
    g.gated ||= row.gated;
    g.queries.push({ q: row.q, kind: row.kind, count: row.count, lastSeen: row.lastSeen });
  });
  return [...groups.values()].sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}
