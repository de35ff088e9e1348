/**
 * @module Isolation of the blast radius (issue 14): a publish that exceeds its deadline or budget is answered 422
 * alone, the portal's queue moves on to the next upload, and nothing of the refused publish becomes visible.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { expect, it } from "vitest";
import petstoreV3 from "../fixtures/petstore-v3.yaml?raw";
import { createPortal, getPage, ORIGIN, upload } from "../harness/client";
import { PortalPublisher, publisherFor } from "../../worker/publish/portal-publisher";
import { PublishAborted, PublishAttempt, settleWithin } from "../../worker/publish/deadline";
import type { PublishResponse } from "../../worker/publish/types";
import { denseGraphDoc } from "../../worker/openapi/schema-view/testing/hostile";

type Work = PortalPublisher["work"];

/** Replaces the next publish of `portal` with `first` (given the real work), with a short deadline for that one only. */
async function divertNextPublish(portal: string, deadlineMs: number, first: (real: Work, ...args: Parameters<Work>) => Promise<PublishResponse>) {
  await runInDurableObject(publisherFor(env.PUBLISHER, portal), (instance: PortalPublisher) => {
    const real = instance.work;
    const normal = instance.deadlineMs;
    instance.deadlineMs = deadlineMs;
    instance.work = (...args) => {
      instance.work = real;
      instance.deadlineMs = normal;
      return first(real, ...args);
    };
  });
}

async function versionsOf(token: string) {
  const list = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
  return list.apis.map((a: any) => [a.slug, a.liveVersion, a.versions.map((v: any) => v.label).sort()]);
}

it("a publish that never settles is answered 422 at its deadline and the next upload to the portal publishes", async () => {
  const token = await createPortal("stuck");
  expect((await upload(token, petstoreV3)).status).toBe(201);
  await divertNextPublish("stuck", 300, () => new Promise(() => undefined));
  const [stuck, next] = await Promise.all([upload(token, petstoreV3.replace("1.0.0", "9.9.9")), upload(token, petstoreV3.replace("1.0.0", "1.0.1"))]);
  expect(stuck.status).toBe(422);
  expect(stuck.json.error).toEqual({ code: "over-budget", message: expect.stringMatching(/did not finish within its 0.3 s deadline; nothing was published and the portal's other uploads go on/) });
  expect(next.status).toBe(201);
  expect(await versionsOf(token)).toEqual([["swagger-petstore", "1.0.1", ["1.0.0", "1.0.1"]]]);
  expect((await getPage("/p/stuck/reference/swagger-petstore/9.9.9/")).status).toBe(404);
  expect((await getPage("/p/stuck/reference/swagger-petstore/1.0.0/")).status).toBe(200);
});

it("a publish that resumes after its deadline writes nothing to D1: the refusal stays true", async () => {
  const token = await createPortal("late");
  expect((await upload(token, petstoreV3)).status).toBe(201);
  let resumed: Promise<unknown> = Promise.resolve();
  await divertNextPublish("late", 200, (real, ...args) => {
    const work = new Promise<void>((r) => setTimeout(r, 400)).then(() => real(...args));
    resumed = work.then(
      () => "committed",
      (e: Error) => e.name,
    );
    return work;
  });
  const late = await upload(token, petstoreV3.replace("1.0.0", "2.0.0"));
  expect(late.status).toBe(422);
  expect(await resumed).toBe("PublishAborted");
  expect(await versionsOf(token)).toEqual([["swagger-petstore", "1.0.0", ["1.0.0"]]]);
  expect((await upload(token, petstoreV3.replace("1.0.0", "1.0.1"))).status).toBe(201);
});

it("an over-budget definition (a dense $ref graph one page could not parse) is refused with 422 before anything is written; the next upload publishes", async () => {
  const token = await createPortal("dense");
  // 500 schemas × 20 refs with 9 KB descriptions: each operation reaches all 500, 4.5 MB of targets for one page.
  const dense = await upload(token, JSON.stringify(denseGraphDoc(500, 20, 10, 9000)), {}, "application/json");
  expect(dense.status).toBe(422);
  expect(dense.json.error.code).toBe("too-dense");
  expect(dense.json.error.message).toMatch(/one operation's page would need more than 4 MB of \$ref targets/);
  expect((await upload(token, petstoreV3)).status).toBe(201);
  expect(await versionsOf(token)).toEqual([["swagger-petstore", "1.0.0", ["1.0.0"]]]);
});

it("issue 14's dense graph (500 schemas × 20 refs, 2,000 operations) is bounded, not refused, once targets are stored once (issue 12): it publishes and its pages answer", async () => {
  const token = await createPortal("dense-once");
  const dense = await upload(token, JSON.stringify(denseGraphDoc(500, 20, 2000)), { api: "dense" }, "application/json");
  expect(dense.status, JSON.stringify(dense.json).slice(0, 300)).toBe(201);
  expect(dense.json.operations).toBe(2000);
  for (const slug of ["op0", "op777", "op1999"]) {
    const page = await Promise.race([getPage(`/p/dense-once/reference/dense/1/${slug}`), new Promise<{ status: string }>((r) => setTimeout(() => r({ status: "no answer within 5 s" }), 5000))]);
    expect(page.status, slug).toBe(200);
  }
});

it("settleWithin waits for a final D1 commit already under way at the deadline, so a 422 never hides a live version", async () => {
  const ok: PublishResponse = { status: 201, json: "{}", timings: {} };
  const committing = new PublishAttempt(50);
  const answer = await settleWithin(
    committing,
    (async () => {
      committing.committing = true;
      await new Promise((r) => setTimeout(r, 200));
      return ok;
    })(),
  );
  expect(answer).toBe(ok);
  const stuck = new PublishAttempt(50);
  const refused = await settleWithin(stuck, new Promise<PublishResponse>(() => undefined));
  expect(refused.status).toBe(422);
  expect(stuck.aborted).toBe(true);
  expect(() => stuck.checkpoint("making the version live")).toThrow(PublishAborted);
});
