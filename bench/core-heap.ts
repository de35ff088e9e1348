// Runs the publish core (buildReference + every slice serialised, as the publisher does) on one file and
// prints one JSON line: {"ms", "peakHeapMB"}. Run it under --max-old-space-size=128 to prove the 128 MB bound.
import { readFileSync } from "node:fs";
import { buildReference } from "../worker/openapi/build";

const file = process.argv[2];
let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage().heapUsed);
};
const timer = setInterval(sample, 5);
const t0 = performance.now();
const body = new Uint8Array(readFileSync(file));
sample();
const outcome = buildReference({ body, contentType: file.endsWith(".json") ? "application/json" : "application/yaml" });
sample();
if (!outcome.ok) throw new Error(`${outcome.status} ${outcome.message}`);
let bytes = 0;
for (const op of outcome.operations) {
  bytes += JSON.stringify(outcome.slice(op.slug)).length;
  sample();
}
bytes += JSON.stringify(outcome.header).length;
const ms = performance.now() - t0;
sample();
clearInterval(timer);
console.log(JSON.stringify({ ms, peakHeapMB: peak / 1048576, sliceBytes: bytes, operations: outcome.operations.length }));
