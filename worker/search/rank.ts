/**
 * @module Scoring: for each query group, a document's best alternative (weight × idf × stored BM25F
 * saturation, a head match preferred); summed over groups, then scaled by coverage (share of query words matched,
 * a word found only in the body counting half), by the share of query words in the head (title, section), and by how
 * much of the document's own title the query accounts for; the best few whose titles have a typed word only in a form
 * sharing its stem (`customer` for "custom") are lowered a little. Only allowed documents are scored,
 * so filtered documents never reach ranks, totals or suggestions.
 */
import { STOPWORDS, stem } from "./analyze";
import { verbFamilyTable } from "./api-words";
import type { TermGroup } from "./expand";
import { SAT_SCALE, type IndexView } from "./format";
import { tokenize } from "./tokenize";

/** Share of a question-frame word's score that counts ("work" in "how does X work"). */
const OPTIONAL_WEIGHT = 0.3;
/**
 * The ranking's constants, read once per query. Mutable only so that bench/search-documents.mjs `--lovo` can
 * tune them on one vendor's queries and score the others (a leave-one-vendor-out check); nothing else writes it.
 */
export const RANK_TUNING = {
  /** Extra weight when the query's words are in the document's head (title, section, operationId), not just its body. */
  headBonus: 1,
  /**
   * How much of a query word a match through an alternative of weight w covers: softFloor + (1 - softFloor) w.
   * Low, so a loose thesaurus synonym (w ≈ 0.3) covers about half a word and an exact word elsewhere can outweigh it.
   */
  softFloor: 0.25,
  /**
   * How much of a query word a match only in the body covers, against one in the head (title or section): a word
   * somewhere in a long description says less about what the document is than the same word in its name.
   */
  bodyCover: 0.5,
  /** A head match of a query word is preferred to a body match of the same word unless that is worth this many times more. */
  headPreference: 2,
  /**
   * Extra weight, times the share of the query a typed identifier covers, for a document that has that identifier
   * whole (anywhere: a changelog entry adding `ParcelLabelVoidedEvent` names it as surely as a title would): an exact
   * identifier outranks documents sharing only its common parts ("parcel", "label", "event").
   */
  wholeBonus: 3,
  /**
   * How much less a document counts, times the share of the query concerned, when its title has a typed word only in
   * another form sharing its stem (`customer` for "custom", `attached` for "attach", `voiding` for "void"): Porter's
   * stems join them, but the title with the word as typed (up to a plural) is the better match.
   */
  siblingPenalty: 0.4,
  /**
   * How much less an operation counts, times 1 / the query's words, when its title leads with API verbs of none of
   * the families the query's verbs belong to ("Remove items from personal list" for "read items personal list"). Not
   * tuned: siblingPenalty's value, for the same reason (one word of the query counted through a weak form).
   */
  verbPenalty: 0.4,
};
/** The best hits whose titles are read for {@link RANK_TUNING}'s siblingPenalty: past them, no reordering matters. */
const SIBLING_CHECK = 32;
/** How much a whole-identifier match is preferred to any other alternative of the same word in a document. */
const WHOLE_PICK = 1e3;
/** A document in the reader's own locale beats an equally good one in another locale, not a better one. */
const PREFERRED_LOCALE_BOOST = 1.25;

/** A scored document: its index, score, and which alternative of each group matched it (-1 = none). */
export interface Scored {
  doc: number;
  score: number;
  matched: number;
  /** Every query word matched as typed (no completion, correction or synonym) and in the head: title, section, identifiers. */
  exact: boolean;
}

/** Best first: higher score, then the earlier document (a total order, so any sort of the same hits agrees). */
export function byScore(a: Scored, b: Scored): number {
  return b.score - a.score || a.doc - b.doc;
}

/** The best `k` of `hits` in {@link byScore} order: what sorting them all and taking `k` gives, in O(n k) at worst. */
export function topHits<T extends Scored>(hits: readonly T[], k: number): T[] {
  if (hits.length <= k) return hits.slice().sort(byScore);
  const best = hits.slice(0, k).sort(byScore);
  for (let i = k; i < hits.length; i++) {
    const h = hits[i];
    if (byScore(h, best[k - 1]) >= 0) continue;
    let j = k - 1;
    while (j > 0 && byScore(h, best[j - 1]) < 0) {
      best[j] = best[j - 1];
      j--;
    }
    best[j] = h;
  }
  return best;
}

/** A word without its English plural ending (`policies` → policy, `boxes` → box, `labels` → label): forms a reader types for one word. */
function singular(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (/(?:ch|sh|x|z|ss)es$/.test(w)) return w.slice(0, -2);
  if (w.length > 3 && w.endsWith("s") && !/(?:ss|us|is)$/.test(w)) return w.slice(0, -1);
  return w;
}

/**
 * Lowers the best hits whose title (with its section) has a query word only in a sibling form (same stem, another word: `customer` for
 * "custom"), by {@link RANK_TUNING}'s siblingPenalty times the share of the query's words concerned. Only the words the
 * reader finished typing are compared (the word being typed may be the start of its sibling: "log" of "logging",
 * "confer" of "conferences"), found as themselves (not a correction or a synonym); a title without
 * the stem at all is left alone (the head and coverage rules judge it). Scores only go down, so the best
 * {@link SIBLING_CHECK} stay a superset of the new best few.
 */
function penaliseSiblings(data: Pick<IndexView, "docs">, groups: TermGroup[], hits: Scored[]): void {
  const penalty = RANK_TUNING.siblingPenalty;
  if (!penalty || !hits.length) return;
  const words = groups.filter((g) => !g.optional && g.word.length >= 3 && /^\p{L}+$/u.test(g.word) && g.alts.some((a) => a.how === "exact" && !a.whole && a.word === g.word) && !g.alts.some((a) => a.how === "prefix")).map((g) => ({ stem: stem(g.word), form: singular(g.word) }));
  if (!words.length) return;
  const g = groups.filter((x) => !x.optional).length;
  for (const h of topHits(hits, SIBLING_CHECK)) {
    // Title and section together: a section's page title may say the word as typed ("… API Deprecation › Why Deprecate APIs?").
    const doc = data.docs.get(h.doc);
    const title = tokenize(doc.section ? `${doc.title} ${doc.section}` : doc.title).filter((t) => !t.joined);
    let siblings = 0;
    for (const w of words) {
      let typed = false;
      let sibling = false;
      for (const t of title) {
        if (singular(t.word) === w.form) typed = true;
        else if (stem(t.word) === w.stem) sibling = true;
      }
      if (sibling && !typed) siblings++;
    }
    if (siblings) h.score *= 1 - (penalty * siblings) / g;
  }
}

let verbFamilies: Map<string, number[]> | undefined;
/** Verb families by stem (and `stem_stem` for phrases), built on first use. */
function familiesOf(key: string): number[] | undefined {
  if (!verbFamilies) {
    verbFamilies = new Map();
    for (const [w, f] of verbFamilyTable()) verbFamilies.set(w.split("_").map(stem).join("_"), f);
  }
  return verbFamilies.get(key);
}

/**
 * Lowers the best hits whose title starts with an API verb of another family than every verb the query names
 * ("read items personal list": "Remove items from personal list" and "Add items to personal list" against "Get
 * items on a personal list"): operations on the same things differ by what they do, and the title's leading verb
 * says it. Same factor as a sibling form (RANK_TUNING.verbPenalty).
 */
function penaliseVerbs(data: Pick<IndexView, "docs">, groups: TermGroup[], hits: Scored[]): void {
  const penalty = RANK_TUNING.verbPenalty;
  if (!penalty || !hits.length) return;
  const words = groups.filter((x) => !x.optional);
  const wanted = new Set<number>();
  let verbs = 0;
  for (let i = 0; i < words.length; i++) {
    const f = familiesOf(stem(words[i].word)) ?? (i + 1 < words.length ? familiesOf(`${stem(words[i].word)}_${stem(words[i + 1].word)}`) : undefined);
    if (f?.length) {
      verbs++;
      for (const x of f) wanted.add(x);
    }
  }
  if (!verbs) return;
  for (const h of topHits(hits, SIBLING_CHECK)) {
    const doc = data.docs.get(h.doc);
    // Operations only: a changelog entry's "Added …" or a guide's "Creating …" tells news or a task, not the one thing it does.
    if (doc.kind !== "operation") continue;
    // The verbs the title leads with ("Add or edit customer attributes" does both).
    const f: number[] = [];
    for (const t of tokenize(doc.title, 8)) {
      if (t.joined || !/^\p{L}+$/u.test(t.word) || STOPWORDS.has(t.word)) continue;
      const v = familiesOf(stem(t.word));
      if (!v) break;
      f.push(...v);
    }
    if (!f.length || f.some((x) => wanted.has(x))) continue;
    h.score *= 1 - penalty / words.length;
  }
}

/** Inverse document frequency (BM25's, always positive). */
export function idf(df: number, n: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * Scores every allowed document matching at least one group; `df` counts a term's allowed documents.
 * `allowed[i]` = 1 when document i passed the
 * reader's filters (2 when it is in the reader's preferred locale). Returns the matches in no order ({@link byScore}
 * orders them: {@link topHits} for the best few), and the terms that matched (for snippets).
 */
export function rank(data: Pick<IndexView, "docs" | "postings" | "headLen" | "titleBit">, groups: TermGroup[], allowed: Uint8Array, df: (term: number) => number): { hits: Scored[]; termsHit: Set<number> } {
  const n = data.docs.length;
  // Format 3 postings: saturation * 4 + inTitle * 2 + inHead; format 2: saturation * 2 + inHead (a head match read as a title match, as it was ranked).
  const titleBit = data.titleBit;
  const shift = titleBit ? 2 : 1;
  const { headBonus: HEAD_BONUS, softFloor: SOFT_FLOOR, bodyCover: BODY_COVER, headPreference: HEAD_PREFERENCE, wholeBonus: WHOLE_BONUS } = RANK_TUNING;
  // idf from the reader's documents only, so even scores carry nothing about documents they may not open.
  let readable = 0;
  for (let i = 0; i < n; i++) if (allowed[i]) readable++;
  const score = new Float64Array(n);
  const matched = new Uint8Array(n);
  const headMatched = new Uint8Array(n);
  const best = new Float64Array(n);
  const bestHead = new Uint8Array(n);
  const bestTitle = new Uint8Array(n);
  const titleMatched = new Uint8Array(n);
  const bestPick = new Float64Array(n);
  const bestWeight = new Float64Array(n);
  const covered = new Float64Array(n);
  const bestWhole = new Float64Array(n);
  const wholeMatched = new Float64Array(n);
  const touched: number[] = [];
  const termsHit = new Set<number>();
  const g = groups.filter((x) => !x.optional).length;
  for (const group of groups) {
    const local: number[] = [];
    // Completions, corrections and synonyms are worth at most what the typed word itself is worth: a rare
    // completion must not outrank the common word the reader actually typed.
    // A typed identifier's whole form is the more specific match: neither capped nor a cap.
    let cap = Infinity;
    for (const alt of group.alts) if (alt.how === "exact" && alt.whole !== "typed") cap = Math.min(cap, idf(df(alt.term), readable));
    for (const alt of group.alts) {
      const list = data.postings(alt.term);
      const typed = alt.whole === "typed";
      // Typed words that are one identifier of the portal ("device time" → `deviceTime`), found whole: the document
      // names that compound thing, wherever (a changelog entry's body), so it covers the words as a title would.
      const run = alt.whole === "run";
      const w = alt.weight * (typed ? idf(df(alt.term), readable) : Math.min(cap, idf(df(alt.term), readable)));
      let doc = 0;
      for (let i = 0; i < list.length; i += 2) {
        doc += list[i];
        if (!allowed[doc]) continue;
        const v = list[i + 1];
        const s = (w * (v >> shift)) / SAT_SCALE;
        if (best[doc] === 0) local.push(doc);
        // Which alternative stands for the word in this document: the one in its head unless a body match is
        // worth HEAD_PREFERENCE times more ("insert" → "add" in `calls_add`, not "register" in its description).
        // A typed identifier found whole stands for the word wherever it is, before any part match.
        const pick = typed ? s * WHOLE_PICK : v & 1 || run ? s * HEAD_PREFERENCE : s;
        if (pick > bestPick[doc]) {
          bestPick[doc] = pick;
          best[doc] = s;
          bestHead[doc] = typed || run ? 1 : v & 1;
          bestTitle[doc] = titleBit ? (v >> 1) & 1 : v & 1;
          bestWeight[doc] = alt.weight;
          bestWhole[doc] = typed ? alt.weight : 0;
        }
        termsHit.add(alt.term);
      }
    }
    for (const doc of local) {
      if (group.optional) {
        score[doc] += OPTIONAL_WEIGHT * best[doc];
      } else {
        if (matched[doc] === 0) touched.push(doc);
        score[doc] += best[doc];
        matched[doc]++;
        covered[doc] += (SOFT_FLOOR + (1 - SOFT_FLOOR) * bestWeight[doc]) * (bestHead[doc] ? 1 : BODY_COVER);
        headMatched[doc] += bestHead[doc];
        titleMatched[doc] += bestTitle[doc];
        wholeMatched[doc] += bestWhole[doc];
      }
      bestWhole[doc] = 0;
      bestTitle[doc] = 0;
      best[doc] = 0;
      bestPick[doc] = 0;
      bestHead[doc] = 0;
      bestWeight[doc] = 0;
    }
  }
  const hits: Scored[] = [];
  for (const doc of touched) {
    // Soft coverage: a word matched only through a synonym or a correction covers the query less than itself.
    const coverage = covered[doc] / g;
    const head = headMatched[doc] / g;
    // How much of the document's own title the query accounts for: words matched only in its section (the page a
    // guide section belongs to, an operation's tag) are not its title, or every section of a page whose title the
    // query repeats would be as tight as the page, and as each other, whatever their own headings say.
    const tightness = titleMatched[doc] / Math.max(data.headLen[doc], titleMatched[doc], 1);
    const s = score[doc] * coverage * coverage * (1 + HEAD_BONUS * head) * (1 + 0.3 * tightness) * (1 + (WHOLE_BONUS * wholeMatched[doc]) / g);
    const exact = g > 0 && matched[doc] === g && covered[doc] >= g - 1e-9 && headMatched[doc] === g;
    hits.push({ doc, score: allowed[doc] === 2 ? s * PREFERRED_LOCALE_BOOST : s, matched: matched[doc], exact });
  }
  penaliseSiblings(data, groups, hits);
  penaliseVerbs(data, groups, hits);
  // The tail that matches less than half as much of the query as the best match is noise, not a result: it
  // would only inflate the total ("500 results" for two words).
  let most = 0;
  for (const h of hits) most = Math.max(most, h.matched);
  // Not sorted here: a query shows at most 100 of what may be thousands of matches (load.ts takes the best with
  // topHits, or sorts them all for fusion), and sorting every match was most of a common word's cost on a big portal.
  return { hits: hits.filter((h) => 2 * h.matched >= most), termsHit };
}
