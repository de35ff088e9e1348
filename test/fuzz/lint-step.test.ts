/** @module The upload's lint block when lint cannot run: the publish goes on with the build's findings and a note. */
import { expect, it } from "vitest";
import petstoreV3 from "../fixtures/petstore-v3.yaml?raw";
import { buildReference } from "../../worker/openapi/build";
import { createBudget } from "../../worker/openapi/work-budget";
import { lintForUpload } from "../../worker/publish/lint-step";

it("a publish with no time left skips lint with a note instead of failing", () => {
  const outcome = buildReference({ body: new TextEncoder().encode(petstoreV3) });
  if (!outcome.ok) throw new Error(outcome.message);
  const full = lintForUpload(outcome);
  expect(full.note).toBeUndefined();
  const skipped = lintForUpload(outcome, createBudget({ deadline: 0 }));
  expect(skipped.note).toBe("lint stopped on this definition (the publish had no time left for it); only the build's own findings are listed");
  expect(skipped.issues.length).toBeLessThan(full.issues.length);
});
