import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";

/** `count` operations with summaries long enough that the model spans several KV chunks. */
function bigDefinition(count: number, idPrefix = "op"): string {
  const filler = "x".repeat(2000);
  const paths = Array.from(
    { length: count },
    (_, i) => `  /items/${i}:\n    get:\n      operationId: ${idPrefix}${i}\n      tags: [t${i % 3}]\n      summary: item ${i}\n      description: "${filler} end-of-${i}"\n      responses:\n        "200":\n          description: ok\n`,
  ).join("");
  return `openapi: 3.0.3\ninfo:\n  title: Big\n  version: "1"\npaths:\n${paths}`;
}

const patch = (token: string, api: string, body: unknown) =>
  SELF.fetch(`${ORIGIN}/v1/apis/${api}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("reader routes", () => {
  it("serves every operation of a model spread over several KV chunks", async () => {
    const token = await createPortal("chunky");
    const { status } = await upload(token, bigDefinition(120), { api: "big" });
    expect(status).toBe(201);
    for (const i of [0, 33, 64, 119]) {
      const page = await getPage(`/p/chunky/reference/big/1/op${i}`);
      expect(page.status).toBe(200);
      expect(page.html).toContain(`end-of-${i}`);
    }
  });

  it("single-page layout streams every operation with its slug as anchor; page-per-operation pages stay", async () => {
    const token = await createPortal("single");
    expect((await upload(token, bigDefinition(60), { api: "big" })).status).toBe(201);
    expect((await patch(token, "big", { layout: "sideways" })).status).toBe(400);
    const ok = await patch(token, "big", { layout: "single-page" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ api: "big", layout: "single-page" });
    const page = await getPage("/p/single/reference/big/1/");
    expect(page.status).toBe(200);
    for (let i = 0; i < 60; i++) {
      expect(page.html).toContain(`id="op${i}"`);
      expect(page.html).toContain(`end-of-${i}`);
    }
    expect(page.html.trimEnd().endsWith("</html>")).toBe(true);
    expect((await getPage("/p/single/reference/big/1/op7")).status).toBe(200);
  });

  it("a renamed operationId answers 301 to the new slug; an operation missing from a version goes to its tag", async () => {
    const token = await createPortal("renames");
    expect((await upload(token, petstoreV3, { api: "pets", version: "v1" })).status).toBe(201);
    const renamed = petstoreV3.replace("operationId: showPetById", "operationId: getPet").replace(/  \/pets:\n    get:[\s\S]*?(?=    post:)/, "  /pets:\n");
    expect((await upload(token, renamed, { api: "pets", version: "v2" })).status).toBe(201);
    const moved = await SELF.fetch(`${ORIGIN}/p/renames/reference/pets/v2/showpetbyid`, { redirect: "manual" });
    expect(moved.status).toBe(301);
    expect(moved.headers.get("location")).toBe("/p/renames/reference/pets/v2/getpet");
    const gone = await SELF.fetch(`${ORIGIN}/p/renames/reference/pets/v2/listpets`, { redirect: "manual" });
    expect(gone.status).toBe(302);
    expect(gone.headers.get("location")).toBe("/p/renames/reference/pets/v2/#tag-pets");
    expect((await getPage("/p/renames/reference/pets/v2/never-existed")).status).toBe(404);
    expect((await getPage("/p/renames/reference/pets/v1/showpetbyid")).status).toBe(200);
  });

  it("sitemap.xml lists the live version's operation pages, and only the index in single-page layout", async () => {
    const token = await createPortal("mapped");
    expect((await upload(token, petstoreV3, { api: "pets", version: "1.0" })).status).toBe(201);
    const res = await SELF.fetch(`${ORIGIN}/p/mapped/sitemap.xml`);
    expect(res.headers.get("content-type")).toContain("application/xml");
    const xml = await res.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([
      `${ORIGIN}/p/mapped/`,
      `${ORIGIN}/p/mapped/reference/pets/1.0/`,
      `${ORIGIN}/p/mapped/reference/pets/1.0/listpets`,
      `${ORIGIN}/p/mapped/reference/pets/1.0/createpets`,
      `${ORIGIN}/p/mapped/reference/pets/1.0/showpetbyid`,
    ]);
    await patch(token, "pets", { layout: "single-page" });
    const single = await (await SELF.fetch(`${ORIGIN}/p/mapped/sitemap.xml`)).text();
    expect([...single.matchAll(/<loc>/g)]).toHaveLength(2);
  });

  it("a page served warm (the head kept per isolate) follows a new live version, an API's settings and unknown labels", async () => {
    const token = await createPortal("warmhead");
    expect((await upload(token, petstoreV3, { api: "pets", version: "v1" })).status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const page = await getPage("/p/warmhead/reference/pets/v1/showpetbyid");
      expect(page.status).toBe(200);
      expect(page.html).toContain("Info for a specific pet");
    }
    // A new live version moves the head: the next page reads it afresh and shows the new version as live.
    const v2 = petstoreV3.replace("summary: Info for a specific pet", "summary: Details of one pet");
    expect((await upload(token, v2, { api: "pets", version: "v2" })).status).toBe(201);
    const fresh = await getPage("/p/warmhead/reference/pets/v2/showpetbyid");
    expect(fresh.status).toBe(200);
    expect(fresh.html).toContain("Details of one pet");
    const old = await getPage("/p/warmhead/reference/pets/v1/showpetbyid");
    expect(old.status).toBe(200);
    expect(old.html).toContain("Info for a specific pet");
    // The API's row changes without its ids moving: the page uses the row read in its own batch.
    expect((await getPage("/p/warmhead/reference/pets/v2/")).html).not.toContain('id="showpetbyid"');
    expect((await patch(token, "pets", { layout: "single-page" })).status).toBe(200);
    expect((await getPage("/p/warmhead/reference/pets/v2/")).html).toContain('id="showpetbyid"');
    // An unknown label after a warm page is still the 404 page.
    expect((await getPage("/p/warmhead/reference/pets/v9/showpetbyid")).status).toBe(404);
    expect((await getPage("/p/warmhead/reference/pets/v9/")).status).toBe(404);
  });

  it("unknown portals, APIs and versions answer 404 pages", async () => {
    expect((await getPage("/p/nobody/")).status).toBe(404);
    const token = await createPortal("lonely");
    await upload(token, petstoreV3, { api: "pets" });
    expect((await getPage("/p/lonely/reference/cats/")).status).toBe(404);
    const missing = await getPage("/p/lonely/reference/pets/9.9/");
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("<!doctype html>");
  });
});
