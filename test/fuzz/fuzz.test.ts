/**
 * @module The CI-sized fuzz run (issue 14): a few hundred mutations of real corpus definitions, fixed seed, in
 * workerd against miniflare's storage. Property: the upload answers 201/200 or a 4xx with a message (never a
 * 5xx, never no answer), an accepted one serves its index and an operation page with 200, and the Worker still
 * answers its health check afterwards. The 10,000-case run is `BENCH_ONLY=fuzz npm run bench` (bench/fuzz.mjs).
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { corpusFile, corpusManifest, createPortal, getPage, ORIGIN, upload } from "../harness/client";
import { describeCase, fuzzCase } from "./cases";
import { CI_SCALE, mutate } from "./mutations";
import { operationLinks } from "./pages";
import { SELF } from "cloudflare:test";

/** Fixed seed and size of the CI run. */
const SEED = 14;
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** No answer within this long counts as a hang (a liveness bound, not a performance assertion). */
const HANG_MS = 30_000;

function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms / 1000} s`)), ms)));
  return Promise.race([p, hang]).finally(() => clearTimeout(timer));
}

it(`fuzz: ${RUNS} mutated corpus definitions never get a 5xx, a hang or a dead Worker`, async () => {
  // Single-file roots up to 300 KB keep the CI run within a couple of minutes; the long run takes them all.
  const rows = (await corpusManifest()).filter((r) => r.kind === "root" && r.multi_file !== "yes" && Number(r.bytes) < 300_000);
  const texts = new Map<number, string>();
  const textOf = async (i: number) => texts.get(i) ?? texts.set(i, new TextDecoder().decode((await corpusFile(rows[i].local_path)).body)).get(i)!;
  const token = await createPortal("fuzz");
  const counts: Record<string, number> = {};
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fuzzCase(rows.length), async (c) => {
      const what = describeCase(c, rows[c.file].local_path);
      const { body, contentType } = mutate(await textOf(c.file), c.kinds, c.seed, CI_SCALE);
      const api = `f${++n}`;
      const res = await within(HANG_MS, what, upload(token, body as Uint8Array<ArrayBuffer>, { api, ...(c.label ? { version: "v" } : {}) }, contentType));
      counts[res.status] = (counts[res.status] ?? 0) + 1;
      expect(res.status, `${what}: ${JSON.stringify(res.json).slice(0, 300)}`).toBeLessThan(500);
      if (res.status >= 400) expect(res.json.error?.message, what).toBeTruthy();
      else {
        const versionPath = new URL(res.json.url).pathname;
        const index = await within(HANG_MS, `${what} index`, getPage(versionPath));
        expect(index.status, `${what} index`).toBe(200);
        const [first] = operationLinks(index.html, versionPath);
        if (first) expect((await within(HANG_MS, `${what} ${first}`, getPage(first))).status, `${what} ${first}`).toBe(200);
      }
      expect((await SELF.fetch(`${ORIGIN}/healthz`)).status, `${what}: health afterwards`).toBe(200);
    }),
    { seed: SEED, numRuns: RUNS, endOnFailure: true },
  );
  console.log(`fuzz (seed ${SEED}): ${RUNS} cases, answers by status`, counts);
}, 600_000);
