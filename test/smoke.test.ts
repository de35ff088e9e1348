import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("smoke", () => {
  it("answers health and has migrated D1 and the corpus binding", async () => {
    const res = await SELF.fetch("http://portico.test/healthz");
    expect(res.status).toBe(200);
    const tables = await env.DB.prepare("select name from sqlite_master where type='table' and name='portals'").all();
    expect(tables.results.length).toBe(1);
    const manifest = await (await env.CORPUS.fetch("http://corpus/manifest")).text();
    expect(manifest.split("\n").length).toBeGreaterThan(500);
  });
});
