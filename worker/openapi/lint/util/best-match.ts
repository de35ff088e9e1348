/** @module "Did you mean" suggestions, as Spectral and better-ajv-errors make them (Levenshtein distance). */

/** The allowed string closest to `value`, when close enough (or when it is the only choice); else null. */
export function bestMatch(value: string, allowed: readonly unknown[]): string | null {
  const matches = allowed
    .filter((v): v is string => typeof v === "string")
    .map((v) => ({ value: v, weight: levenshtein(v, value) }))
    .sort((a, b) => a.weight - b.weight);
  if (!matches.length) return null;
  const best = matches[0];
  return allowed.length === 1 || best.weight < best.value.length ? best.value : null;
}

/** Edit distance between two strings (UTF-16 code units). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length];
}
