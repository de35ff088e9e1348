/** @module "Did you mean" suggestions, as Spectral and better-ajv-errors make them (Levenshtein distance). */

/**
 * Strings longer than this (UTF-16 code units) get no distance-based suggestion: a distance costs the product of
 * the two lengths, and a hostile definition puts megabyte strings beside enums (issue 14: a 2 MB string against a
 * 6-value enum took 24 s). No useful "did you mean" is that long.
 */
export const SUGGEST_MAX_CHARS = 256;
/** At most this many allowed values are compared (enums of tens of thousands of values exist). */
export const SUGGEST_MAX_CANDIDATES = 1_000;

/**
 * The allowed string closest to `value`, when close enough (distance below the candidate's length) or when it is
 * the only choice; else null. Values or candidates past `SUGGEST_MAX_CHARS`, and candidates past the first
 * `SUGGEST_MAX_CANDIDATES`, are never suggested by distance (a sole allowed string still is).
 */
export function bestMatch(value: string, allowed: readonly unknown[]): string | null {
  const strings = allowed.filter((v): v is string => typeof v === "string");
  if (!strings.length) return null;
  if (allowed.length === 1) return strings[0];
  if (value.length > SUGGEST_MAX_CHARS) return null;
  const candidates = strings.slice(0, SUGGEST_MAX_CANDIDATES).filter((v) => v.length <= SUGGEST_MAX_CHARS);
  // A candidate qualifies only below its own length, so distances are needed only up to the longest candidate's:
  // a distance past that bound loses to every qualifying candidate whatever its exact value.
  const bound = Math.max(0, ...candidates.map((v) => v.length));
  let best: { value: string; weight: number } | null = null;
  for (const v of candidates) {
    const weight = levenshtein(v, value, bound);
    if (!best || weight < best.weight) best = { value: v, weight };
  }
  return best && best.weight < best.value.length ? best.value : null;
}

/**
 * Edit distance between two strings (UTF-16 code units). With `max`, answers `max + 1` as soon as the distance
 * is known to exceed it (the length difference alone, or a whole row past it), so a long string costs O(1) or
 * one row rather than the full product of lengths.
 */
export function levenshtein(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (row[j] < rowMin) rowMin = row[j];
    }
    if (rowMin > max) return max + 1;
    prev = row;
  }
  return prev[b.length];
}
