/**
 * @module Words to index terms: Porter stemming (the `stemmer` package) with a cache, and the stopword list.
 * Build and query share these so a word always maps to the same term.
 */
import { stemmer } from "stemmer";

/** English function words dropped from queries (and weighted to nothing in documents by being skipped). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ("a an and are as at be been being but by can could did do does doing for from had has have having he her his " +
    "how i if in into is it its itself me my of on or our ours she should so than that the their them then there " +
    "these they this those to too us was we were what when where which while who whom why will with would you " +
    "your yours s t am any some just about via also").split(" "),
);

/**
 * Inflections Porter's rules do not bring to their base's stem, as word → base (then stemmed): Latin and Greek
 * singulars in -us, -as, -is whose plural the rules cut differently (`status` → statu but `statuses` → status),
 * -ex/-ix plurals in -ices, irregular plurals, and irregular past forms of verbs API text uses. General English;
 * forms that are also common words of their own (found, left, bound, led, saw, bases, axes, data, media) are left out.
 */
const IRREGULAR: ReadonlyMap<string, string> = (() => {
  const map = new Map<string, string>();
  // -us / -as singulars: their -es plurals.
  for (const w of ("status bus virus bonus campus census corpus focus radius stimulus syllabus apparatus prospectus nexus " +
    "consensus surplus plus minus cactus fungus octopus chorus circus caucus hiatus impetus thesaurus terminus abacus " +
    "nucleus modulus locus calculus alumnus alias canvas atlas gas bias").split(" ")) map.set(w + "es", w);
  // -is singulars: their -es plurals.
  for (const w of ("analysis thesis crisis synopsis diagnosis hypothesis ellipsis parenthesis emphasis synthesis oasis " +
    "paralysis prognosis genesis nemesis").split(" ")) map.set(w.slice(0, -2) + "es", w);
  const pairs = (
    // Irregular and classical plurals.
    "indices index|vertices vertex|matrices matrix|appendices appendix|apices apex|helices helix|children child|" +
    "people person|men man|women woman|mice mouse|feet foot|teeth tooth|geese goose|criteria criterion|" +
    "phenomena phenomenon|schemata schema|corpora corpus|foci focus|radii radius|stimuli stimulus|alumni alumnus|" +
    "cacti cactus|fungi fungus|nuclei nucleus|syllabi syllabus|termini terminus|loci locus|moduli modulus|" +
    "genera genus|datum data|" +
    // Irregular past tenses and participles.
    "sent send|got get|gotten get|built build|rebuilt rebuild|wrote write|written write|rewrote rewrite|" +
    "rewritten rewrite|overwrote overwrite|overwritten overwrite|made make|ran run|chose choose|chosen choose|" +
    "took take|taken take|gave give|given give|began begin|begun begin|hid hide|hidden hide|overrode override|" +
    "overridden override|forbade forbid|forbidden forbid|froze freeze|frozen freeze|unfroze unfreeze|" +
    "unfrozen unfreeze|drew draw|drawn draw|withdrew withdraw|withdrawn withdraw|shown show|paid pay|prepaid prepay|" +
    "bought buy|sold sell|kept keep|held hold|spent spend|threw throw|thrown throw|knew know|known know|" +
    "broke break|broken break|went go|gone go|spoke speak|spoken speak|met meet|sought seek|caught catch|" +
    "taught teach|thought think|brought bring|undid undo|undone undo|arose arise|arisen arise|" +
    "forgot forget|forgotten forget|stole steal|stolen steal|woke wake|woken wake|wore wear|worn wear|" +
    "drove drive|driven drive|flew fly|flown fly|grew grow|grown grow|rode ride|ridden ride|" +
    "shook shake|shaken shake|swore swear|sworn swear|tore tear|torn tear|chose choose|fought fight|" +
    "dealt deal|felt feel|heard hear|meant mean|slept sleep|stuck stick|struck strike|understood understand|" +
    "misunderstood misunderstand|upheld uphold|became become|came come|mistook mistake|" +
    "mistaken mistake|outgrew outgrow|outgrown outgrow|redone redo|redid redo|remade remake|resent resend|" +
    "resold resell|retook retake|retaken retake"
  ).split("|");
  for (const p of pairs) {
    const [form, base] = p.split(" ");
    if (form !== base) map.set(form, base);
  }
  return map;
})();

const CACHE = new Map<string, string>();
/** 10,000 words (~0.5 MB): 50,000 kept an isolate's heap growing across hundreds of publishes (issue 37). */
const CACHE_LIMIT = 10_000;

/**
 * The term for a folded word: its Porter stem for alphabetic words of 3+ letters (an irregular form's base's:
 * {@link IRREGULAR}), else the word itself (numbers, versions, identifiers with digits). `repositories` →
 * `repositori`, `statuses` → `statu` like `status`, `sent` → `send`, `2.5.1` → `2.5.1`.
 */
export function stem(word: string): string {
  let s = CACHE.get(word);
  if (s !== undefined) return s;
  s = word.length > 2 && /^[a-z]+$/.test(word) ? stemmer(IRREGULAR.get(word) ?? word) : word;
  if (CACHE.size < CACHE_LIMIT) CACHE.set(word, s);
  return s;
}
