import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createPortal, ORIGIN, upload } from "./harness/client";
import petstoreV3 from "./fixtures/petstore-v3.yaml?raw";
import { bundle, PETSTORE_OPS, uploadContent } from "./content/bundles";

/** CSP directives as a map (name → source list). */
function csp(res: Response): Map<string, string[]> {
  const header = res.headers.get("content-security-policy") ?? "";
  return new Map(header.split(";").map((d) => d.trim().split(/\s+/)).filter((d) => d[0]).map(([name, ...values]) => [name, values]));
}

const get = (path: string, init: RequestInit = {}) => SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", ...init });

function expectBaseline(res: Response, what: string): void {
  expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
  expect(res.headers.get("strict-transport-security"), what).toMatch(/^max-age=\d{7,}/);
}

function expectStrictPage(res: Response, what: string, styleNonce: string[] = []): Map<string, string[]> {
  expect(res.headers.get("content-type"), what).toMatch(/^text\/html/);
  expectBaseline(res, what);
  const policy = csp(res);
  expect(policy.get("default-src"), what).toEqual(["'none'"]);
  expect(policy.get("script-src"), what).toEqual(["'self'"]);
  // A branded page also admits its one `<style>` (the brand's tokens) by hash; test/brand.test.ts checks it is that text's.
  const styles = policy.get("style-src") ?? [];
  expect(styles.filter((v) => !/^'sha256-[A-Za-z0-9+/]{43}='$/.test(v)), what).toEqual(["'self'", ...styleNonce]);
  expect(styles.length - 1 - styleNonce.length, what).toBeLessThanOrEqual(1);
  expect(policy.get("object-src"), what).toEqual(["'none'"]);
  expect(policy.get("base-uri"), what).toEqual(["'none'"]);
  for (const values of policy.values()) for (const v of values) expect(v, what).not.toMatch(/unsafe|\*/);
  return policy;
}

describe("security headers on every route family", () => {
  let token: string;
  beforeAll(async () => {
    token = await createPortal("heads");
    expect((await upload(token, petstoreV3, { api: "pets" })).status).toBe(201);
  });

  it("reader pages (home, live, version index, operation) and HTML error pages: strict CSP, no frames, referrer policy", async () => {
    for (const path of ["/p/heads/", "/p/heads/reference/pets/", "/p/heads/reference/pets/1.0.0/", "/p/heads/reference/pets/1.0.0/listpets",
      "/p/heads/reference/pets/9.9/", "/p/heads/reference/pets/1.0.0/no-such-op", "/p/nobody/", "/nowhere"]) {
      const res = await get(path);
      await res.arrayBuffer();
      if (res.headers.get("content-type")?.startsWith("text/html")) {
        const policy = expectStrictPage(res, path);
        expect(policy.get("frame-ancestors"), path).toEqual(["'none'"]);
        expect(policy.get("img-src"), path).toEqual(["'self'", "data:"]);
        expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
        expect(res.headers.get("x-frame-options"), path).toBe("DENY");
      } else {
        expect(path).toBe("/nowhere"); // the plain-text 404 outside portals
        expectBaseline(res, path);
        expect(csp(res).get("default-src")).toEqual(["'none'"]);
      }
    }
  });

  it("written content: guide, code step, changelog and glossary pages strict; RSS and llms.txt load nothing; bundle assets sandboxed; previews never send a Referer", async () => {
    const writer = await createPortal("heads-content");
    expect((await upload(writer, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const spec = bundle("h", { "guides/intro.md": "---\ntitle: Intro\n---\n![d](d.svg)\n[list](op:pets#listPets)\n", "guides/d.svg": svg });
    expect((await uploadContent(writer, spec)).status).toBe(201);
    for (const path of ["/p/heads-content/guides/intro", "/p/heads-content/de/guides/intro", "/p/heads-content/steps/first", "/p/heads-content/changelog", "/p/heads-content/glossary", "/p/heads-content/guides/missing"]) {
      const res = await get(path);
      await res.arrayBuffer();
      const policy = expectStrictPage(res, path);
      expect(policy.get("frame-ancestors"), path).toEqual(["'none'"]);
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin-when-cross-origin");
    }
    for (const path of ["/p/heads-content/changelog.rss", "/p/heads-content/llms.txt", "/p/heads-content/llms-full.txt"]) {
      const res = await get(path);
      await res.arrayBuffer();
      expect(res.status, path).toBe(200);
      expectBaseline(res, path);
      expect(csp(res).get("default-src"), path).toEqual(["'none'"]);
    }
    const page = await (await get("/p/heads-content/guides/intro")).text();
    const asset = /src="([^"]*\/_content\/[0-9a-f]{64}\.svg)"/.exec(page)?.[1];
    expect(asset).toBeDefined();
    const served = await get(new URL(asset!, ORIGIN).pathname);
    // SVGs are reduced to drawing at publish (worker/content/brand-files.ts); the sandbox CSP stays as a second wall.
    expect(await served.text()).toBe('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    expectBaseline(served, "asset");
    expect(csp(served).get("default-src")).toEqual(["'none'"]);
    expect(csp(served).has("sandbox")).toBe(true);

    const dry = await uploadContent(writer, bundle("dry"), { dryRun: "true" });
    expect(dry.status).toBe(200);
    const preview = await get(`${new URL(dry.json.preview.url).pathname}guides/intro`);
    await preview.arrayBuffer();
    expectStrictPage(preview, "preview");
    expect(preview.headers.get("referrer-policy")).toBe("no-referrer");

    // The portal's embed settings reach content pages too.
    const patched = await SELF.fetch(`${ORIGIN}/v1/portal`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${writer}`, "content-type": "application/json" },
      body: JSON.stringify({ embedOrigins: ["https://intranet.example"] }),
    });
    expect(patched.status).toBe(200);
    const framed = await get("/p/heads-content/guides/intro");
    await framed.arrayBuffer();
    expect(csp(framed).get("frame-ancestors")).toEqual(["https://intranet.example"]);
  });

  it("the single-page layout's streamed page gets the same headers", async () => {
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/pets`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ layout: "single-page" }),
    });
    expect(res.status).toBe(200);
    const page = await get("/p/heads/reference/pets/1.0.0/");
    await page.text();
    expectStrictPage(page, "single page");
    await SELF.fetch(`${ORIGIN}/v1/apis/pets`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ layout: "page-per-operation" }),
    });
  });

  it("the editor: strict CSP plus its Web Worker, never framed even when the portal allows embedding", async () => {
    const patched = await SELF.fetch(`${ORIGIN}/v1/portal`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ embedOrigins: ["https://intranet.acme.example"] }),
    });
    expect(patched.status).toBe(200);
    const res = await get("/p/heads/editor/pets");
    const html = await res.text();
    const nonce = /data-style-nonce="([A-Za-z0-9+/=]{24})"/.exec(html)?.[1];
    expect(nonce).toBeDefined();
    const policy = expectStrictPage(res, "editor", [`'nonce-${nonce}'`]);
    expect(policy.get("worker-src")).toEqual(["'self'"]);
    expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    const again = await get("/p/heads/editor/pets");
    expect(await again.text()).not.toContain(`data-style-nonce="${nonce}"`); // one nonce per response
    const reader = await get("/p/heads/reference/pets/1.0.0/");
    await reader.text();
    expect(csp(reader).get("frame-ancestors")).toEqual(["https://intranet.acme.example"]);
    expect(reader.headers.get("x-frame-options")).toBeNull();
    await SELF.fetch(`${ORIGIN}/v1/portal`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ embedOrigins: [] }),
    });
  });

  it("JSON answers, JSON errors, the raw definition and the sitemap: nosniff and a CSP that loads nothing", async () => {
    const auth = { authorization: `Bearer ${token}` };
    const cases: [string, RequestInit, number][] = [
      ["/healthz", {}, 200],
      ["/v1/apis", { headers: auth }, 200],
      ["/v1/apis/pets/definition", { headers: auth }, 200],
      ["/v1/apis", {}, 401],
      ["/v1/apis/nope/definition", { headers: auth }, 404],
      ["/v1/nothing-here", {}, 404],
      ["/p/heads/sitemap.xml", {}, 200],
    ];
    for (const [path, init, status] of cases) {
      const res = await get(path, init);
      await res.arrayBuffer();
      expect(res.status, path).toBe(status);
      expectBaseline(res, path);
      expect(res.headers.get("content-type"), path).not.toMatch(/^text\/html/);
      expect(csp(res).get("default-src"), path).toEqual(["'none'"]);
      expect(csp(res).get("frame-ancestors"), path).toEqual(["'none'"]);
    }
  });

  // Static assets are served by Workers static assets before the Worker runs; test/e2e/security.test.ts checks them on wrangler dev.

  it("no HSTS to localhost and 127.0.0.1 (plain-http development servers)", async () => {
    for (const origin of ["http://localhost:8787", "http://127.0.0.1:8787"]) {
      const res = await SELF.fetch(`${origin}/p/heads/`);
      await res.text();
      expect(res.headers.get("strict-transport-security"), origin).toBeNull();
      expect(res.headers.get("x-content-type-options"), origin).toBe("nosniff");
    }
  });
});

describe("PATCH /v1/portal: embedding, external images, origin", () => {
  const patch = (token: string, body: unknown) =>
    SELF.fetch(`${ORIGIN}/v1/portal`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("stores validated settings and the reader pages' CSP follows them", async () => {
    const token = await createPortal("settings");
    expect((await upload(token, petstoreV3, { api: "pets" })).status).toBe(201);
    const res = await patch(token, { embedOrigins: ["https://Intranet.Acme.example/", "http://localhost:3000"], externalImages: true, origin: "https://docs.acme.example" });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).settings).toEqual({
      origin: "https://docs.acme.example",
      embedOrigins: ["https://intranet.acme.example", "http://localhost:3000"],
      externalImages: true,
    });
    const page = await get("/p/settings/reference/pets/1.0.0/listpets");
    const html = await page.text();
    expect(csp(page).get("frame-ancestors")).toEqual(["https://intranet.acme.example", "http://localhost:3000"]);
    expect(csp(page).get("img-src")).toEqual(["'self'", "data:", "https:"]);
    expect(html).toContain('<link rel="canonical" href="https://docs.acme.example/p/settings/reference/pets/1.0.0/listpets">');
    const read = await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await read.json()) as any).settings.externalImages).toBe(true);
    // Unset: back to the defaults.
    expect((await patch(token, { embedOrigins: [], externalImages: false, origin: null })).status).toBe(200);
    const after = await get("/p/settings/reference/pets/1.0.0/listpets");
    expect(await after.text()).toContain(`<link rel="canonical" href="${ORIGIN}/p/settings/reference/pets/1.0.0/listpets">`);
    expect(csp(after).get("frame-ancestors")).toEqual(["'none'"]);
    expect(csp(after).get("img-src")).toEqual(["'self'", "data:"]);
  });

  it("refuses malformed settings with 400 naming the field, and changes nothing", async () => {
    const token = await createPortal("badsettings");
    const refused: [unknown, string][] = [
      [{ origin: "http://docs.acme.example" }, "origin must use https"],
      [{ origin: "https://docs.acme.example/docs" }, "origin must be an origin only"],
      [{ origin: "https://user:pw@docs.acme.example" }, "origin must not carry credentials"],
      [{ origin: "javascript:alert(1)" }, "origin must use https"],
      [{ origin: 42 }, "origin must be a string"],
      [{ embedOrigins: "https://a.example" }, "embedOrigins must be an array"],
      [{ embedOrigins: ["https://*.acme.example"] }, "embedOrigins[0] must be one origin"],
      [{ embedOrigins: ["https://a.example", "https://a.example; script-src *"] }, "embedOrigins[1] must be one origin"],
      [{ embedOrigins: ["https://a.example?x=1"] }, "embedOrigins[0] must be an origin only"],
      [{ embedOrigins: Array.from({ length: 21 }, (_, i) => `https://e${i}.example`) }, "at most 20"],
      [{ externalImages: "yes" }, "externalImages must be true or false"],
      [{ embedOrigin: ["https://a.example"] }, "unknown setting(s): embedOrigin"],
    ];
    for (const [body, message] of refused) {
      const res = await patch(token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as any).error.message, JSON.stringify(body)).toContain(message);
    }
    const read = await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await read.json()) as any).settings).toEqual({ origin: null, embedOrigins: [], externalImages: false });
    expect((await SELF.fetch(`${ORIGIN}/v1/portal`, { method: "PATCH", body: "{}" })).status).toBe(401);
  });
});
