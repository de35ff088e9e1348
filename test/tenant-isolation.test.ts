import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";

/** Everything portal A's readers and A's CI can see, as comparable text. */
async function answersOf(token: string, slug: string): Promise<Record<string, string>> {
  const auth = { authorization: `Bearer ${token}` };
  const out: Record<string, string> = {};
  const grab = async (name: string, url: string, init: RequestInit = {}) => {
    const res = await SELF.fetch(url, init);
    const headers = ["content-type", "x-portico-version", "content-security-policy", "x-content-type-options"].map((h) => `${h}: ${res.headers.get(h)}`);
    out[name] = `${res.status}\n${headers.join("\n")}\n${await res.text()}`;
  };
  await grab("definition", `${ORIGIN}/v1/apis/pets/definition`, { headers: auth });
  await grab("list", `${ORIGIN}/v1/apis`, { headers: auth });
  await grab("settings", `${ORIGIN}/v1/portal`, { headers: auth });
  for (const path of ["/", "/reference/pets/", "/reference/pets/1.0.0/", "/reference/pets/1.0.0/listpets", "/sitemap.xml"]) {
    await grab(path, `${ORIGIN}/p/${slug}${path}`);
  }
  return out;
}

describe("tenant isolation of stored bodies", () => {
  it("portal B re-posting A's bytes as text/html (and doing everything else it can) changes none of A's answers", async () => {
    const a = await createPortal("tenant-a");
    const b = await createPortal("tenant-b");
    const first = await upload(a, petstoreV3, { api: "pets" }, "application/yaml");
    expect(first.status).toBe(201);
    const before = await answersOf(a, "tenant-a");
    expect(before.definition).toMatch(/^200\ncontent-type: application\/yaml; charset=utf-8\n/);
    expect(before.definition).toContain("x-content-type-options: nosniff");

    // Same bytes, hostile media types, other labels and slugs, other settings: B's own business.
    for (const contentType of ["text/html", "text/html; charset=utf-8", "application/javascript"]) {
      const res = await upload(b, petstoreV3, { api: "pets" }, contentType);
      expect([200, 201]).toContain(res.status);
    }
    expect((await upload(b, petstoreV3, { api: "pets" }, "image/svg+xml")).status).toBe(415);
    expect((await upload(b, petstoreV3, { api: "pets", version: "9.9" }, "text/html")).status).toBe(201);
    expect((await upload(b, petstoreV3.replace("List all pets", "<script>x()</script>"), { api: "pets", version: "1.0.0" }, "text/html")).status).toBe(201);
    const patched = await SELF.fetch(`${ORIGIN}/v1/portal`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${b}`, "content-type": "application/json" },
      body: JSON.stringify({ origin: "https://evil.example", embedOrigins: ["https://evil.example"], externalImages: true }),
    });
    expect(patched.status).toBe(200);
    await SELF.fetch(`${ORIGIN}/v1/apis/pets`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${b}`, "content-type": "application/json" },
      body: JSON.stringify({ layout: "single-page" }),
    });
    // B's raw definition is served as Portico decides, whatever B sent.
    const bDefinition = await SELF.fetch(`${ORIGIN}/v1/apis/pets/definition`, { headers: { authorization: `Bearer ${b}` } });
    expect(bDefinition.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    await bDefinition.text();

    expect(await answersOf(a, "tenant-a")).toEqual(before);
    // The blob under the shared hash carries no uploader's metadata at all.
    const blob = await env.DEFINITIONS.head(`definitions/${first.json.sha256}`);
    expect(blob?.httpMetadata?.contentType).toBeUndefined();
  });

  it("serves JSON definitions as application/json and archives as their archive type", async () => {
    const token = await createPortal("tenant-json");
    const json = JSON.stringify({ openapi: "3.0.3", info: { title: "J", version: "1" }, paths: {} });
    expect((await upload(token, json, { api: "j" }, "text/plain")).status).toBe(201);
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/j/definition`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await res.text()).toBe(json);
  });
});
