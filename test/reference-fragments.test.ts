/**
 * Deferred schema bodies and long examples over HTTP: an operation page past its inline budget links fragments; each answers 200
 * with its part (immutable on a public portal), a stale `m` or an unknown part is 404, and a reader who may not
 * open the API gets the same 404 as for its pages.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { heavyDefinition } from "../worker/render/testing/heavy";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";

describe("operation page fragments", () => {
  it("serves the parts a page links to, immutable, and refuses stale or unknown ones", async () => {
    const token = await createPortal("frag-a");
    expect((await upload(token, heavyDefinition(), { api: "heavy" })).status).toBe(201);
    const page = await getPage("/p/frag-a/reference/heavy/1.0/getthings");
    expect(page.status).toBe(200);
    const links = [...page.html.matchAll(/data-frag="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    expect(links.length).toBeGreaterThan(10);
    expect(links[0]).toMatch(/^\/p\/frag-a\/reference\/heavy\/1\.0\/getthings\/fragments\/0\?m=[0-9a-f]{16}$/);
    expect(page.html.slice(0, page.html.indexOf('<aside class="op-x"'))).not.toContain("leaf_39_7");

    const last = await SELF.fetch(ORIGIN + links.at(-1)!);
    expect(last.status).toBe(200);
    expect(last.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const html = await last.text();
    expect(html).toContain("data-frag-body");
    expect(html).toContain('href="/p/frag-a/reference/heavy/1.0/getthings"');

    const found = await Promise.all(links.map(async (l) => (await SELF.fetch(ORIGIN + l)).text()));
    expect(found.join("")).toContain("leaf_39_7");

    const stale = await SELF.fetch(ORIGIN + links[0]!.replace(/m=[0-9a-f]+/, "m=0000000000000000"));
    expect(stale.status).toBe(404);
    await stale.text();
    const unknown = await SELF.fetch(ORIGIN + links[0]!.replace("/fragments/0?", "/fragments/9999?"));
    expect(unknown.status).toBe(404);
    await unknown.text();
    const malformed = await SELF.fetch(ORIGIN + links[0]!.replace("/fragments/0?", "/fragments/0..1?"));
    expect(malformed.status).toBe(404);
    await malformed.text();
  });

  it("serves a long example deferred from the examples column, immutable, whole", async () => {
    const token = await createPortal("frag-c");
    expect((await upload(token, heavyDefinition(), { api: "heavy" })).status).toBe(201);
    const page = await getPage("/p/frag-c/reference/heavy/1.0/publishthing");
    expect(page.status).toBe(200);
    expect(new TextEncoder().encode(page.html).length).toBeLessThanOrEqual(60 * 1024);
    const links = [...page.html.matchAll(/<div class="df" data-frag="([^"]+)"/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    expect(links.map((l) => /\/fragments\/(x[0-9]+)\?m=[0-9a-f]{16}$/.exec(l)?.[1])).toEqual(["x0", "x1", "x2"]);
    expect(page.html).not.toContain("last_field_of_queued");
    const res = await SELF.fetch(ORIGIN + links[2]!);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const html = await res.text();
    expect(html).toContain("data-frag-body");
    expect(html).toContain('"last_field_of_queued": true');
    expect(html).toContain('data-island="copy"');
    const unknown = await SELF.fetch(ORIGIN + links[0]!.replace("/fragments/x0?", "/fragments/x9?"));
    expect(unknown.status).toBe(404);
    await unknown.text();
    const malformed = await SELF.fetch(ORIGIN + links[0]!.replace("/fragments/x0?", "/fragments/x0.1?"));
    expect(malformed.status).toBe(404);
    await malformed.text();
  });

  it("gives a reader who may not open the API the same 404 as its pages", async () => {
    const token = await createPortal("frag-b");
    expect((await upload(token, heavyDefinition(), { api: "heavy" })).status).toBe(201);
    const page = await getPage("/p/frag-b/reference/heavy/1.0/getthings");
    const link = /data-frag="([^"]+)"/.exec(page.html)![1]!.replaceAll("&amp;", "&");
    const patch = await SELF.fetch(`${ORIGIN}/v1/portal`, {
      method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ access: { default: "public", sections: [{ prefix: "/reference/heavy/", audiences: ["partners"] }], password: "fragments-test-password", passwordAudiences: ["partners"] } }),
    });
    expect(patch.status, await patch.text()).toBe(200);
    const res = await SELF.fetch(ORIGIN + link, { redirect: "manual" });
    expect([303, 404]).toContain(res.status);
    expect(await res.text()).not.toContain("leaf_");
  });
});
