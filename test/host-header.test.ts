import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";
import { bundle, PETSTORE_OPS } from "./content/bundles";
import { tarGz } from "../worker/content/testing/bundle";

/**
 * A request on the service host carrying every header a proxy might use to name another host. (A request whose Host
 * itself is the attacker's gets the unknown-host 404: test/domains/host-routing.test.ts.)
 */
const evil = (path: string, init: RequestInit = {}) =>
  SELF.fetch(`${ORIGIN}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), "x-forwarded-host": "evil.example", forwarded: "host=evil.example;proto=https", "x-forwarded-proto": "https" } });

describe("a request whose Host is not Portico's", () => {
  it("is answered 404 before any route: no upload, no page, nothing of the Host in the answer", async () => {
    const token = await createPortal("hosts-unknown");
    for (const [path, init] of [["/v1/apis/upload?api=pets", { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" }, body: petstoreV3 }], ["/p/hosts-unknown/", {}], ["/v1/apis", { headers: { authorization: `Bearer ${token}` } }]] as [string, RequestInit][]) {
      const res = await SELF.fetch(`http://evil.example${path}`, { ...init, redirect: "manual" });
      expect(res.status, path).toBe(404);
      const text = await res.text();
      expect(text).not.toContain("evil");
      expect(text).not.toContain("hosts-unknown");
    }
    expect((await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json() as any).apis).toEqual([]);
  });
});

describe("absolute URLs never come from the Host header", () => {
  it("sitemap <loc>s, canonical links, og:url, the upload answer and GET /v1/apis use the configured origin", async () => {
    const token = await createPortal("hosts");
    const auth = { authorization: `Bearer ${token}` };
    const up = await evil("/v1/apis/upload?api=pets", { method: "POST", headers: { ...auth, "content-type": "application/yaml" }, body: petstoreV3 });
    expect(up.status).toBe(201);
    const answer = (await up.json()) as any;
    expect(answer.url).toBe(`${ORIGIN}/p/hosts/reference/pets/1.0.0/`);

    const sitemap = await (await evil("/p/hosts/sitemap.xml")).text();
    const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs.length).toBeGreaterThan(3);
    for (const loc of locs) expect(loc.startsWith(`${ORIGIN}/p/hosts/`), loc).toBe(true);

    const page = await (await evil("/p/hosts/reference/pets/1.0.0/listpets")).text();
    expect(page).toContain(`<link rel="canonical" href="${ORIGIN}/p/hosts/reference/pets/1.0.0/listpets">`);
    expect(page).toContain(`<meta property="og:url" content="${ORIGIN}/p/hosts/reference/pets/1.0.0/listpets">`);
    const index = await (await evil("/p/hosts/reference/pets/")).text();
    expect(index).toContain(`<link rel="canonical" href="${ORIGIN}/p/hosts/reference/pets/1.0.0/">`);

    const list = (await (await evil("/v1/apis", { headers: auth })).json()) as any;
    expect(list.apis[0].url).toBe(`${ORIGIN}/p/hosts/reference/pets/`);

    for (const text of [JSON.stringify(answer), sitemap, page, index, JSON.stringify(list)]) expect(text).not.toContain("evil.example");
  });

  it("written content: the content upload answer, guide canonicals and hreflang, RSS, llms.txt and the sitemap use the configured origin", async () => {
    const token = await createPortal("hosts-content");
    const auth = { authorization: `Bearer ${token}` };
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    const up = await evil("/v1/content/upload", { method: "POST", headers: { ...auth, "content-type": "application/gzip" }, body: tarGz(bundle("o")) as Uint8Array<ArrayBuffer> });
    expect(up.status).toBe(201);
    const texts = [await up.text(), await (await evil("/v1/content", { headers: auth })).text()];
    for (const path of ["/p/hosts-content/guides/intro", "/p/hosts-content/changelog", "/p/hosts-content/changelog.rss", "/p/hosts-content/llms.txt", "/p/hosts-content/llms-full.txt", "/p/hosts-content/sitemap.xml"]) {
      const res = await evil(path);
      expect(res.status, path).toBe(200);
      texts.push(await res.text());
    }
    expect(texts[2]).toContain(`<link rel="canonical" href="${ORIGIN}/p/hosts-content/guides/intro">`);
    expect(texts[7]).toContain(`<loc>${ORIGIN}/p/hosts-content/guides/intro</loc>`);
    for (const text of texts) expect(text).not.toContain("evil.example");
  });

  it("a portal's own origin (its custom domain) wins over the service's base URL", async () => {
    const token = await createPortal("custom");
    const auth = { authorization: `Bearer ${token}` };
    const res = await SELF.fetch(`${ORIGIN}/v1/portal`, {
      method: "PATCH",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ origin: "https://docs.custom.example" }),
    });
    expect(res.status).toBe(200);
    const up = await evil("/v1/apis/upload?api=pets", { method: "POST", headers: { ...auth, "content-type": "application/yaml" }, body: petstoreV3 });
    expect(((await up.json()) as any).url).toBe("https://docs.custom.example/p/custom/reference/pets/1.0.0/");
    const sitemap = await (await evil("/p/custom/sitemap.xml")).text();
    for (const [, loc] of sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)) expect(loc.startsWith("https://docs.custom.example/p/custom/"), loc).toBe(true);
    expect(await (await evil("/p/custom/reference/pets/1.0.0/listpets")).text()).toContain(
      '<link rel="canonical" href="https://docs.custom.example/p/custom/reference/pets/1.0.0/listpets">',
    );
  });
});
