import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import petstoreV2 from "./fixtures/petstore-v2.yaml?raw";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";
import v32Query from "./fixtures/v32-query.yaml?raw";

describe("POST /v1/apis/upload", () => {
  it("publishes a definition: counts, reader URL, and the reference is live when the response returns", async () => {
    const token = await createPortal("pets");
    const { status, json } = await upload(token, petstoreV3);
    expect(status).toBe(201);
    expect(json).toMatchObject({
      api: "swagger-petstore",
      version: "1.0.0",
      url: `${ORIGIN}/p/pets/reference/swagger-petstore/1.0.0/`,
      operations: 3,
      schemas: 3,
      securitySchemes: 0,
      webhooks: 0,
      callbacks: 0,
    });
    expect(json.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(json.lint).toMatchObject({ errors: expect.any(Number), warnings: expect.any(Number), issues: expect.any(Array) });
    const index = await getPage("/p/pets/reference/swagger-petstore/1.0.0/");
    expect(index.status).toBe(200);
    for (const slug of ["listpets", "createpets", "showpetbyid"]) expect(index.html).toContain(`href="/p/pets/reference/swagger-petstore/1.0.0/${slug}"`);
    expect(index.html).toContain("List all pets");
    const live = await getPage("/p/pets/reference/swagger-petstore/");
    expect(live.status).toBe(200);
    const op = await getPage("/p/pets/reference/swagger-petstore/1.0.0/listpets");
    expect(op.status).toBe(200);
    expect(op.html).toContain("/pets");
    expect(op.html).toContain("How many items to return at one time");
    const home = await getPage("/p/pets/");
    expect(home.html).toContain("Swagger Petstore");
  });

  it("answers 200 unchanged when the live definition is posted again, and keeps one publication", async () => {
    const token = await createPortal("retry");
    expect((await upload(token, petstoreV3)).status).toBe(201);
    const again = await upload(token, petstoreV3);
    expect(again.status).toBe(200);
    expect(again.json.unchanged).toBe(true);
    const list = await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await list.json()) as any;
    expect(body.apis).toHaveLength(1);
    expect(body.apis[0]).toMatchObject({ slug: "swagger-petstore", liveVersion: "1.0.0", publications: 1 });
  });

  it("honours ?api= and ?version=, keeps every version readable and lists them", async () => {
    const token = await createPortal("multi");
    expect((await upload(token, petstoreV3, { api: "pets", version: "v1" })).status).toBe(201);
    const second = petstoreV3.replace("summary: Info for a specific pet", "summary: Fetch one pet");
    expect((await upload(token, second, { api: "pets", version: "v2" })).status).toBe(201);
    expect((await getPage("/p/multi/reference/pets/v1/showpetbyid")).html).toContain("Info for a specific pet");
    expect((await getPage("/p/multi/reference/pets/v2/showpetbyid")).html).toContain("Fetch one pet");
    expect((await getPage("/p/multi/reference/pets/")).html).toContain("Fetch one pet");
    const list = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(list.apis[0].liveVersion).toBe("v2");
    expect(list.apis[0].versions.map((v: any) => [v.label, v.live])).toEqual([
      ["v2", true],
      ["v1", false],
    ]);
    expect((await getPage("/p/multi/reference/pets/v3/")).status).toBe(404);
  });

  it("upgrades Swagger 2.0 to 3.x with the same operations", async () => {
    const token = await createPortal("swagger");
    const { status, json } = await upload(token, petstoreV2);
    expect(status).toBe(201);
    expect(json).toMatchObject({ sourceVersion: "2.0", operations: 3 });
    const index = await getPage(new URL(json.url).pathname);
    for (const summary of ["List all pets", "Create a pet", "Info for a specific pet"]) expect(index.html).toContain(summary);
    const op = await getPage(new URL(json.url).pathname + "showpetbyid");
    expect(op.status).toBe(200);
    expect(op.html).toContain("petstore.swagger.io");
  });

  it("publishes a 3.2 definition with a query operation and additionalOperations", async () => {
    const token = await createPortal("three-two");
    const { status, json } = await upload(token, v32Query, { api: "pets32" });
    expect(status).toBe(201);
    expect(json.operations).toBe(3);
    const index = await getPage("/p/three-two/reference/pets32/1.0.0/");
    expect(index.html).toContain('href="/p/three-two/reference/pets32/1.0.0/querypetsbyid"');
    expect(index.html).toContain('href="/p/three-two/reference/pets32/1.0.0/copypetsbyid"');
    expect(index.html).toContain(">QUERY<");
    expect(index.html).toContain(">COPY<");
    expect((await getPage("/p/three-two/reference/pets32/1.0.0/querypetsbyid")).status).toBe(200);
  });

  it("stores the raw definition in R2 under its sha256 and serves it back", async () => {
    const token = await createPortal("raw");
    const { json } = await upload(token, petstoreV3);
    const obj = await env.DEFINITIONS.get(`definitions/${json.sha256}`);
    expect(await obj?.text()).toBe(petstoreV3);
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/swagger-petstore/definition`, { headers: { authorization: `Bearer ${token}` } });
    expect(await res.text()).toBe(petstoreV3);
  });
});
