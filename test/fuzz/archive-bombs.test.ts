/**
 * @module Issue 14's archives that expand to big definitions: each is refused with a 4xx naming the limit, and the
 * portal's live reference and its next upload are unaffected.
 */
import { expect, it } from "vitest";
import petstoreV3 from "../fixtures/petstore-v3.yaml?raw";
import { createPortal, getPage, upload } from "../harness/client";
import { issueArchives } from "./archive-bombs";

it("big-expanding archives are refused with a 4xx and a reason; the live reference and later uploads are fine", async () => {
  const token = await createPortal("bombs");
  expect((await upload(token, petstoreV3)).status).toBe(201);
  const live = await getPage("/p/bombs/reference/swagger-petstore/");
  const archives = issueArchives();
  const refused: Record<string, [number, string]> = {};
  for (const { name, body } of archives) {
    const res = await upload(token, body, {}, "application/gzip");
    refused[name] = [res.status, res.json.error?.message];
  }
  expect(refused).toEqual({
    "1.2 MB gzip of one 63 MB JSON file": [413, "the archive inflates to more than 33554432 bytes"],
    "tar.gz of eight 7 MB YAML roots": [413, "the archive inflates to more than 33554432 bytes"],
    "tar.gz of a deep tree of candidate roots": [422, expect.stringMatching(/too many candidate root files.*\?root=/)],
  });
  expect((await getPage("/p/bombs/reference/swagger-petstore/")).html).toBe(live.html);
  expect((await upload(token, petstoreV3.replace("version: 1.0.0", "version: 1.0.1"))).status).toBe(201);
});
