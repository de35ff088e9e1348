/** The dashboard's "start from a sample" files are demo/ as it stands (scripts/build-sample.mjs). */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { sampleModule } from "../../scripts/build-sample.mjs";

describe("sample-files.generated.ts", () => {
  it("is what scripts/build-sample.mjs writes from demo/", () => {
    expect(readFileSync(new URL("../../worker/workspace/sample-files.generated.ts", import.meta.url), "utf8")).toBe(sampleModule());
  });
});
