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

const CACHE = new Map<string, string>();
const CACHE_LIMIT = 50_000;

/**
 * The term for a folded word: its Porter stem for alphabetic words of 3+ letters, else the word itself (numbers,
 * versions, identifiers with digits). `repositories` → `repositori`, `2.5.1` → `2.5.1`.
 */
export function stem(word: string): string {
  let s = CACHE.get(word);
  if (s !== undefined) return s;
  s = word.length > 2 && /^[a-z]+$/.test(word) ? stemmer(word) : word;
  if (CACHE.size < CACHE_LIMIT) CACHE.set(word, s);
  return s;
}
