/**
 * @module Synonyms mined from the portal's own (public) content at build time, from four kinds of evidence:
 * - verbs: an operation names its action twice, in its operationId (`droplets_destroy`, `DeleteParticipant`,
 *   `stars_add`) and in its summary ("Delete a Droplet", "Kick a participant", "Save an item for later"). When the
 *   two verbs differ, and the same pair recurs across operations, the portal uses them interchangeably;
 * - names: prose that says two names are one thing ("OpenAPI (formerly known as Swagger)", "An API key, also
 *   known as a token, …", "Protocol Buffers (a.k.a. Protobuf)"). One such sentence is enough: it is a definition;
 * - definitions: "A tag is a label that …", "A Droplet is a DigitalOcean virtual machine": the portal's own name
 *   for a thing and the general word it defines it by (tag, label; droplet, machine);
 * - compounds: a closed compound of the vocabulary is a kind of its head (`namespace` → space), one way.
 */
import { STOPWORDS, stem } from "./analyze";
import { tokenize, isWholeIdentifier } from "./tokenize";
import type { SearchDocument } from "./types";

/** A pair must recur this often to count; one-off pairs are mostly noise ("list" vs "retrieve" once). */
const MIN_PAIR_COUNT = 2;
/** Weight (percent) of a mined relation, by how often it recurred. */
const weightFor = (count: number) => (count >= 4 ? 75 : count >= 3 ? 65 : 55);
/** Weight (percent) of a name the content itself gives as another name of a thing. */
const ALIAS_WEIGHT = 75;
/** Aliases read per document, and characters of its text scanned: a hostile body cannot make mining expensive. */
const MAX_ALIASES_PER_DOC = 16;
const MAX_ALIAS_TEXT = 20_000;
/** Weight (percent) of a definition's class ("A tag is a label …": tag, label): a kind of, stated by the portal. */
const DEFINITION_WEIGHT = 60;
/** Weight (percent) of a compound word's head standing for it ("space" → namespace): a kind of, loosely. */
const COMPOUND_WEIGHT = 50;
/** Shortest compound, first part and head read; compounds kept per head (the shortest first). */
const MIN_COMPOUND = 7;
const MIN_MODIFIER = 4;
const MIN_HEAD = 4;
const MAX_COMPOUNDS_PER_HEAD = 8;
/** Content words of an alias after its marker; a longer phrase is a clause ("an API contract because …"). */
const MAX_ALIAS_NAME = 2;
/** Content words read before a marker (the name it renames). */
const MAX_ALIAS_WORDS = 3;

const words = (text: string) => tokenize(text, 64).filter((t) => !t.joined && !STOPWORDS.has(t.word) && /^\p{L}+$/u.test(t.word)).map((t) => t.word);

/** The summary of an operation: its title unless the title is just the operationId, else the body's first sentence. */
function summaryOf(d: SearchDocument, opId: string): string {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  if (norm(d.title) !== norm(opId)) return d.title;
  return d.body.split(/(?<=[.!?])\s|\n/)[0] ?? "";
}

/** The markers of another name: "formerly known as", "also called", "a.k.a.", … (case-insensitive). */
const ALIAS_MARKER =
  /\b(?:(?:formerly|previously|also|otherwise|sometimes)\s+(?:known\s+as|called|named|referred\s+to\s+as)|formerly|a\.k\.a\b\.?|aka)\b[\s:]*/giu;
/**
 * Words one of which every {@link ALIAS_MARKER} match contains: a text whose lower case has none has no marker, and
 * is not scanned by the marker's slower pattern (most texts: 39 of GitHub's 1,223 have one). Looked for in
 * `toLowerCase()`, which maps every character the marker's `iu` flags fold to one of these letters (both cases, and
 * the Kelvin sign to `k`) to that letter, one character each (a `u`-flag test of the words was as slow as the marker).
 */
const ALIAS_HINTS = ["formerly", "a.k.a", "aka", "called", "named", "known", "referred"];
/** What ends a name: punctuation, or a full stop that ends a sentence (not the one in `2.x`). */
const ALIAS_END = /[()\n,;:!?"“”]|\.(?!\S)/u;

/** Content words of a short phrase, an identifier as one word (`OpenAPI` → openapi), version-like chunks dropped. */
function nameWords(phrase: string): string[] {
  const out: string[] = [];
  for (const chunk of phrase.replace(/["'“”‘’_*`]/g, " ").split(/\s+/)) {
    if (!chunk || /\p{N}/u.test(chunk)) continue;
    const tokens = tokenize(chunk, 16);
    const word = tokens.length > 1 ? (tokens.find((t) => t.joined && !isWholeIdentifier(t.word)) ?? tokens[tokens.length - 1]).word : tokens[0]?.word;
    if (word && !STOPWORDS.has(word) && /^\p{L}+$/u.test(word)) out.push(word);
  }
  return out;
}

/**
 * Pairs of terms a text names as one thing: "OpenAPI (formerly known as Swagger)" → openapi, swagger; "The API
 * key, also known as a token, …" → key, token. Each side stands for its head, its last word ("a.k.a API
 * description" → description); when both heads are the same word ("OpenAPI Specification, formerly the Swagger
 * Specification") their modifiers are paired instead. The name before the marker must end just before it (a
 * comma or an opening parenthesis between) on the same line; an alias of more than {@link MAX_ALIAS_NAME} content words
 * is a clause, not a name, and gives nothing. Terms are stems; at most `limit` pairs.
 */
export function aliasPairs(text: string, limit = MAX_ALIASES_PER_DOC): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const scanned = text.slice(0, MAX_ALIAS_TEXT);
  const lower = scanned.toLowerCase();
  if (!ALIAS_HINTS.some((word) => lower.includes(word))) return out;
  for (const m of scanned.matchAll(ALIAS_MARKER)) {
    const at = m.index ?? 0;
    const line = scanned.slice(Math.max(0, at - 60), at).split("\n").pop() ?? "";
    // Only spaces, a comma or an opening parenthesis may sit between the name and the marker.
    const gap = /[\s,(]*$/u.exec(line)?.[0] ?? "";
    const beforeText = line.slice(0, line.length - gap.length).split(ALIAS_END).pop() ?? "";
    const afterText = scanned.slice(at + m[0].length, at + m[0].length + 80).replace(/^["“'‘_*`]+/u, "").split(ALIAS_END)[0].replace(/^\s*(?:the|an?)\s+/i, "");
    const before = nameWords(beforeText).slice(-MAX_ALIAS_WORDS);
    const after = nameWords(afterText);
    if (!before.length || !after.length || after.length > MAX_ALIAS_NAME) continue;
    let a = stem(before[before.length - 1]);
    let b = stem(after[after.length - 1]);
    if (a === b && before.length > 1 && after.length > 1) [a, b] = [stem(before[before.length - 2]), stem(after[after.length - 2])];
    if (a !== b) out.push([a, b]);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * "A|An <name> is a|an <class>": a sentence (capital A) defining a name of at most two words by a noun phrase of at
 * most four, which ends at punctuation or at a word that starts a clause or a complement ("of", "that", "for", …).
 * Group 1 is the name, group 2 the class.
 */
const DEFINITION =
  /(?:^|\s)(?:A|An)\s+((?:\p{L}[\p{L}-]*\s+)?\p{L}[\p{L}-]*)\s+is\s+an?\s+((?:\p{L}[\p{L}-]*\s+){0,3}?\p{L}[\p{L}-]*)(?=\s+(?:of|that|which|who|whose|for|to|with|in|on|from|by|used|you|where|and|or|than|as|at|is|can|will|may|should|must)\b|\s*[.,;:()!?]|\s*$)/gu;

/**
 * Pairs of a name and the class a definition gives it: "A tag is a label that can be applied to resources" →
 * tag, label; "A Droplet is a DigitalOcean virtual machine." → droplet, machine (each side stands for its last
 * word). Only indefinite definitions ("is a", "is an") at a capitalised article: "the X is the Y" identifies,
 * it does not classify. Terms are stems; at most `limit` pairs, from the first {@link MAX_ALIAS_TEXT} characters.
 */
export function definitionPairs(text: string, limit = MAX_ALIASES_PER_DOC): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const scanned = text.slice(0, MAX_ALIAS_TEXT);
  // Every match has " is a" between runs of spaces once spaces are collapsed, so the text has it with its own
  // spaces: one that has not (most: 91 of GitHub's 1,223 have it) is neither collapsed nor scanned.
  if (!/\sis\s+an?\s/.test(scanned)) return out;
  for (const m of scanned.replace(/\s+/g, " ").matchAll(DEFINITION)) {
    const name = nameWords(m[1]);
    const cls = nameWords(m[2]);
    if (!name.length || !cls.length) continue;
    const a = stem(name[name.length - 1]);
    const b = stem(cls[cls.length - 1]);
    if (a !== b) out.push([a, b]);
    if (out.length >= limit) break;
  }
  return out;
}

/**
 * Closed compounds of the portal's vocabulary and their heads: `namespace` = name + space, `filesystem` = file +
 * system, `usergroup` = user + group (the first part needs 4 letters: 3-letter parts are mostly prefixes, as in
 * per + cent, pre + sent). English puts a compound's head last, so a reader's "space" may mean the
 * portal's namespace: head stem → compound stems, one way (a namespace is a kind of space, not the reverse). Both
 * parts must be words of `vocabulary` (surface word → stem), which keeps `monkey` away from `key`.
 */
export function compoundHeads(vocabulary: Vocabulary): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const words = [...vocabulary.keys()].filter((w) => w.length >= MIN_COMPOUND && /^\p{L}+$/u.test(w)).sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  for (const w of words) {
    for (let k = MIN_MODIFIER; k + MIN_HEAD <= w.length; k++) {
      const head = vocabulary.get(w.slice(k));
      const compound = vocabulary.get(w)!;
      // The compound's stem must keep its head ("mapping" stems to map: -ping is an inflection, not a head), and
      // the head's own stem needs 4+ letters.
      if (head === undefined || head.length < MIN_HEAD || compound.length < k + MIN_HEAD - 1 || !vocabulary.has(w.slice(0, k)) || STOPWORDS.has(w.slice(0, k))) continue;
      const list = out.get(head) ?? [];
      if (list.length < MAX_COMPOUNDS_PER_HEAD && compound !== head && !list.includes(compound)) out.set(head, [...list, compound]);
      break;
    }
  }
  return out;
}

/**
 * Mines relations from documents added one at a time (the index builder streams them; pass public documents
 * only): keeps per operation only its candidate verbs and its summary's stems, and per document the names and
 * definitions its prose states (bounded per document).
 */
export class RelatedMiner {
  private readonly summaryVerbs = new Set<string>();
  private readonly seen: Array<{ candidates: Set<string>; verb: string; summary: string[] }> = [];
  /** Pairs the prose states ("a b", sorted) → weight: the strongest statement wins. */
  private readonly stated = new Map<string, number>();

  /** Reads one document (its verbs count when it is an operation with an operationId). */
  add(d: SearchDocument): void {
    const text = `${d.title}\n${d.body}`;
    for (const [a, b] of aliasPairs(text)) this.state(a, b, ALIAS_WEIGHT);
    for (const [a, b] of definitionPairs(text)) this.state(a, b, DEFINITION_WEIGHT);
    const opId = d.fields?.operationId;
    if (d.kind !== "operation" || !opId) return;
    const opWords = words(opId).map(stem);
    const segments = opId.split(/[_.\/\-]+/).filter(Boolean);
    const candidates = new Set([words(segments[0] ?? "")[0], words(segments[segments.length - 1] ?? "")[0]].filter(Boolean).map((w) => stem(w!)));
    const summary = words(summaryOf(d, opId)).map(stem);
    const verb = summary[0];
    if (!verb) return;
    this.summaryVerbs.add(verb);
    if (!opWords.includes(verb)) this.seen.push({ candidates, verb, summary });
  }

  private state(a: string, b: string, weight: number): void {
    const key = a < b ? `${a} ${b}` : `${b} ${a}`;
    this.stated.set(key, Math.max(this.stated.get(key) ?? 0, weight));
  }

  /**
   * What this miner learnt, in a form that adds up across document sets (search shards, shard.ts): the verbs
   * summaries start with, each operation's (operationId verb, summary verb) candidate pairs counted, and the pairs
   * the prose states with their weight. {@link relatedOf} over several states equals one miner over all their documents.
   */
  evidence(): MinedState {
    const pairs: Record<string, number> = {};
    for (const { candidates, verb, summary } of this.seen) {
      for (const x of candidates) {
        if (x === verb || summary.includes(x)) continue;
        pairs[`${x} ${verb}`] = (pairs[`${x} ${verb}`] ?? 0) + 1;
      }
    }
    return { verbs: [...this.summaryVerbs].sort(), pairs, stated: Object.fromEntries(this.stated) };
  }

  /** Mined relations of the documents read: see {@link relatedOf}. */
  related(termIndex: (term: string) => number | undefined, vocabulary?: ReadonlyMap<string, string>): Record<string, number[]> {
    return relatedOf([this.evidence()], termIndex, vocabulary);
  }
}

/** A {@link RelatedMiner}'s evidence: summary verbs, directed candidate pairs (`"opIdVerb summaryVerb"` → count), stated pairs (`"a b"` sorted → weight%). */
/** Surface words → stems, as compounds read them (a Map, or merged shards' sorted vocabulary: shard-vocabulary.ts). */
export interface Vocabulary {
  get(word: string): string | undefined;
  has(word: string): boolean;
  keys(): Iterable<string>;
}

export interface MinedState {
  verbs: string[];
  pairs: Record<string, number>;
  stated: Record<string, number>;
}

/**
 * Mined relations, by stem: `stem → [termIndex, weight%, ...]`, symmetric but for compounds (head → compound,
 * from `vocabulary`: the public documents' surface word → stem), restricted to terms `termIndex` knows (the
 * index's term → position). Deterministic for a given set of documents, however they are split into `states`.
 */
export function relatedOf(states: readonly MinedState[], termIndex: (term: string) => number | undefined, vocabulary?: Vocabulary): Record<string, number[]> {
  const verbs = new Set(states.flatMap((s) => s.verbs));
  const pairs = new Map<string, number>();
  // Only operationId words that some summary also starts with are verbs; the rest are resources (`genai`, `apps`).
  for (const state of states) {
    for (const [directed, count] of Object.entries(state.pairs)) {
      const [x, verb] = directed.split(" ");
      if (!verbs.has(x)) continue;
      const key = x < verb ? `${x} ${verb}` : `${verb} ${x}`;
      pairs.set(key, (pairs.get(key) ?? 0) + count);
    }
  }
  const weights = new Map<string, number>();
  for (const [key, count] of pairs) if (count >= MIN_PAIR_COUNT) weights.set(key, weightFor(count));
  for (const state of states) for (const [key, weight] of Object.entries(state.stated)) weights.set(key, Math.max(weights.get(key) ?? 0, weight));
  const related: Record<string, number[]> = {};
  for (const [key, weight] of [...weights].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const [a, b] = key.split(" ");
    const ta = termIndex(a);
    const tb = termIndex(b);
    if (ta === undefined || tb === undefined) continue;
    (related[a] ??= []).push(tb, weight);
    (related[b] ??= []).push(ta, weight);
  }
  // One way: head → compound, unless a stronger relation already links them.
  for (const [head, compounds] of vocabulary ? [...compoundHeads(vocabulary)].sort((a, b) => (a[0] < b[0] ? -1 : 1)) : []) {
    if (termIndex(head) === undefined) continue;
    for (const c of compounds) {
      const tc = termIndex(c);
      const own = related[head] ?? [];
      if (tc === undefined || own.some((t, i) => i % 2 === 0 && t === tc)) continue;
      (related[head] ??= []).push(tc, COMPOUND_WEIGHT);
    }
  }
  return related;
}

/**
 * Mined relations of `docs` (public documents), by stem: see {@link RelatedMiner.related}; `termIndex` is the
 * index's term → position map. Deterministic for a given document list.
 */
export function mineRelated(docs: SearchDocument[], termIndex: Map<string, number>, vocabulary?: ReadonlyMap<string, string>): Record<string, number[]> {
  const miner = new RelatedMiner();
  for (const d of docs) miner.add(d);
  return miner.related((t) => termIndex.get(t), vocabulary);
}
