/**
 * `GET /v1/apis` reads D1 in a fixed number of statements whatever the number of APIs and versions, and lists
 * each label once (its newest publication) with the right live flag and publication count.
 */
import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { listApiSummaries } from "../worker/store/api-listing";
import { getDb } from "../worker/store/db";
import { createPortal, upload } from "./harness/client";

/** A D1 binding that counts the statements prepared through it (batched or not). */
function countingD1(d1: D1Database): { d1: D1Database; statements: () => number } {
  let statements = 0;
  const d1Counted = new Proxy(d1, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key === "prepare") return (query: string) => (statements++, target.prepare(query));
      if (key === "exec") return (query: string) => (statements++, target.exec(query));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1: d1Counted, statements: () => statements };
}

const definition = (title: string, version: string) => `openapi: 3.1.0
info: { title: ${title}, version: "${version}" }
paths:
  /things:
    get:
      responses: { "200": { description: ok } }
`;

async function portalId(slug: string): Promise<number> {
  const row = await env.DB.prepare("select id from portals where slug = ?").bind(slug).first<{ id: number }>();
  return row!.id;
}

describe("GET /v1/apis", () => {
  it("costs the same statements for one API with one version as for four APIs with three labels each", async () => {
    const small = await createPortal("listing-small");
    expect((await upload(small, definition("Solo", "1.0"))).status).toBe(201);
    const large = await createPortal("listing-large");
    for (const name of ["Alpha", "Beta", "Gamma", "Delta"]) {
      for (const version of ["1.0", "1.1", "2.0"]) expect((await upload(large, definition(name, version))).status).toBe(201);
    }
    // A label re-posted with new content adds a publication but no listed version.
    expect((await upload(large, definition("Alpha", "2.0").replace("/things", "/stuff"))).status).toBe(201);

    const one = countingD1(env.DB);
    const smallList = await listApiSummaries(getDb(one.d1), await portalId("listing-small"));
    const many = countingD1(env.DB);
    const largeList = await listApiSummaries(getDb(many.d1), await portalId("listing-large"));

    expect(smallList).toHaveLength(1);
    expect(largeList.map((a) => a.api.slug)).toEqual(["alpha", "beta", "delta", "gamma"]);
    expect(one.statements()).toBeGreaterThan(0);
    expect(many.statements()).toBe(one.statements());

    const alpha = largeList[0];
    expect(alpha.versions.map((v) => v.label)).toEqual(["2.0", "1.1", "1.0"]);
    expect(alpha.publications).toBe(4);
    expect(alpha.liveLabel).toBe("2.0");
    expect(alpha.versions[0].id).toBe(alpha.api.liveVersionId);
  });

  it("answers with labels, live flags and counts through the service API", async () => {
    const token = await createPortal("listing-http");
    await upload(token, definition("Pets", "1.0"));
    await upload(token, definition("Pets", "2.0"));
    const res = await SELF.fetch("http://portico.test/v1/apis", { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json()) as any;
    expect(res.status).toBe(200);
    expect(body.apis).toHaveLength(1);
    expect(body.apis[0]).toMatchObject({ slug: "pets", liveVersion: "2.0", publications: 2 });
    expect(body.apis[0].versions.map((v: any) => [v.label, v.live, v.operations])).toEqual([
      ["2.0", true, 1],
      ["1.0", false, 1],
    ]);
  });
});
