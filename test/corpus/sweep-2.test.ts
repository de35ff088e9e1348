import { expect, it } from "vitest";
import { runShard } from "./sweep";

it("corpus sweep shard 2: every root of the sweep (a CI slice; CORPUS_SWEEP=all: the corpus) publishes with the manifest's operation count or is refused with a 4xx and a reason", async () => {
  const report = await runShard(2);
  console.log(`shard 2: ${report.published} published, ${report.refused.length} refused`, report.refused);
  expect(report.published).toBeGreaterThan(0);
}, 900_000);
