/**
 * @module Fuzz cases as fast-check arbitraries: which corpus file, which mutations (one to three, byte-level ones
 * more often, heavy ones rarer), and the seed that places them. Shared by test/fuzz/fuzz.test.ts and bench/fuzz.mjs.
 */
import fc from "fast-check";
import { DATA_MUTATIONS, type MutationKind, TEXT_MUTATIONS } from "./mutations";

export interface FuzzCase {
  /** Index into the run's list of corpus files. */
  file: number;
  kinds: MutationKind[];
  seed: number;
  /** Post with ?version= (else the label comes from info.version). */
  label: boolean;
}

const HEAVY = new Set<MutationKind>(["many-paths", "dense-graph", "long-string", "ref-chain"]);

const kind: fc.Arbitrary<MutationKind> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...TEXT_MUTATIONS) },
  { weight: 6, arbitrary: fc.constantFrom(...DATA_MUTATIONS.filter((k) => !HEAVY.has(k))) },
  { weight: 1, arbitrary: fc.constantFrom(...DATA_MUTATIONS.filter((k) => HEAVY.has(k))) },
);

/** Cases over `files` corpus files. */
export function fuzzCase(files: number): fc.Arbitrary<FuzzCase> {
  return fc.record({
    file: fc.nat({ max: files - 1 }),
    kinds: fc.array(kind, { minLength: 1, maxLength: 3 }),
    seed: fc.nat(),
    label: fc.boolean(),
  });
}

/** A short description of a case, for failure messages and the long run's worst case. */
export function describeCase(c: FuzzCase, path: string): string {
  return `${path} ⟵ ${c.kinds.join(" + ")} (seed ${c.seed}${c.label ? ", ?version=v" : ""})`;
}

/** `n` cases over `files` corpus files, reproducibly for a seed (the long run's list). */
export function sampleCases(files: number, seed: number, n: number): FuzzCase[] {
  return fc.sample(fuzzCase(files), { seed, numRuns: n });
}
