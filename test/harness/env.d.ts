/** @module Test-only bindings added by vitest.config.ts. */
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    PORTICO_ADMIN_TOKEN: string;
    CORPUS: Fetcher;
  }
}

declare module "*?raw" {
  const text: string;
  export default text;
}
