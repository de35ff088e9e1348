/** @module Test-only bindings added by vitest.config.ts. */
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    PORTICO_ADMIN_TOKEN: string;
    CORPUS: Fetcher;
    /** `all`: the corpus sweeps take every root, not the CI slice (test/harness/corpus-slice.ts). */
    CORPUS_SWEEP: string;
  }
}

declare module "*?raw" {
  const text: string;
  export default text;
}
