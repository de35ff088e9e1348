import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";

/** Version k: a distinct marker in every operation, and k+1 operations so that versions differ in shape too. */
function definition(k: number): string {
  const paths = Array.from({ length: k + 1 }, (_, i) => `  /things/${i}:\n    get:\n      operationId: thing${i}\n      summary: marker-${k}-op-${i}\n      responses:\n        "200":\n          description: ok-${k}\n`).join("");
  return `openapi: 3.1.0\ninfo:\n  title: Race API\n  version: "${k}.0.0"\n  description: marker-${k}\npaths:\n${paths}`;
}

describe("concurrent uploads to one portal", () => {
  it("records all 20, the live one is the last accepted, and readers only ever see whole versions", async () => {
    const token = await createPortal("race");
    expect((await upload(token, definition(0), { api: "race" })).status).toBe(201);

    let publishing = true;
    const seen: string[] = [];
    const reader = (async () => {
      while (publishing) {
        const page = await getPage("/p/race/reference/race/");
        expect(page.status).toBe(200);
        const label = /marker-(\d+)/.exec(page.html)?.[1];
        expect(label).toBeDefined();
        seen.push(label!);
        // Every operation of the version the index shows must already be readable.
        const k = Number(label);
        const op = await getPage(`/p/race/reference/race/${k}.0.0/thing${k}`);
        expect(op.status).toBe(200);
        expect(op.html).toContain(`marker-${k}-op-${k}`);
      }
    })();

    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => upload(token, definition(i + 1), { api: "race" })));
    publishing = false;
    await reader;

    for (const r of results) expect(r.status).toBe(201);
    const lastAccepted = results.reduce((a, b) => (b.json.publication > a.json.publication ? b : a));
    const list = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    expect(list.apis[0].publications).toBe(21);
    expect(list.apis[0].versions).toHaveLength(21);
    expect(list.apis[0].liveVersion).toBe(lastAccepted.json.version);
    const live = await getPage("/p/race/reference/race/");
    expect(live.html).toContain(`marker-${lastAccepted.json.version.split(".")[0]}`);
    expect(seen.length).toBeGreaterThan(0);
    for (let i = 1; i <= 20; i++) expect((await getPage(`/p/race/reference/race/${i}.0.0/thing${i}`)).status).toBe(200);
  });
});
