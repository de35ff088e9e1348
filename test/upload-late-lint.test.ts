/**
 * @module Lint off the live flip (issue 12): a definition past INLINE_LINT_BUDGET goes live as soon as its model
 * is written and its upload answers `lint: {status: "pending", url}`; the PortalPublisher lints it right after and
 * stores the report, which `GET /v1/apis/{api}/versions/{version}/lint` serves (202 until then). `?strict=true`
 * still lints first. The late lint is held back here (the publisher's `lateLint` wrapped through
 * runInDurableObject), so "live before the report exists" is observed, not raced.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { corpusFile, createPortal, getPage, ORIGIN, upload } from "./harness/client";
import { INLINE_LINT_BUDGET } from "../worker/openapi/budgets";
import { type PortalPublisher, publisherFor } from "../worker/publish/portal-publisher";

/** A real 3.2 MB definition (UniCourt, APIs.guru): past the 2 MiB inline budget. */
const BIG = "apis-guru-npm/api/unicourt.com.json";

/** Holds `portal`'s late lints until the returned function is called. */
async function holdLateLint(portal: string): Promise<() => void> {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  await runInDurableObject(publisherFor(env.PUBLISHER, portal), (instance: PortalPublisher) => {
    const real = instance.lateLint;
    instance.lateLint = async (job, attempt) => {
      await gate;
      return real(job, attempt);
    };
  });
  return release;
}

async function setInlineLimit(portal: string, bytes: number) {
  await runInDurableObject(publisherFor(env.PUBLISHER, portal), (instance: PortalPublisher) => {
    instance.inlineLintMaxBytes = bytes;
  });
}

/** A 3.0 definition whose one schema is an enum of `n` values (`second` in place of the second one). */
function enumDefinition(n: number, second?: string): string {
  const values = Array.from({ length: n }, (_, i) => `v${String(i).padStart(5, "0")}`);
  if (second !== undefined) values[1] = second;
  return JSON.stringify({ openapi: "3.0.3", info: { title: "Kinds", version: "1.0.0" }, paths: {}, components: { schemas: { Kind: { type: "string", enum: values } } } });
}

async function getJson(url: string, token?: string) {
  const res = await SELF.fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  return { status: res.status, json: (await res.json()) as any, retryAfter: res.headers.get("retry-after") };
}

/** Polls the report until it is no longer pending (a liveness bound, not a timing assertion). */
async function report(url: string, token: string) {
  for (let i = 0; i < 300; i++) {
    const r = await getJson(url, token);
    if (r.status !== 202) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${url}: still pending after 30 s`);
}

describe("lint off the live flip", () => {
  it("a definition past the inline budget goes live before its lint report exists, then the report appears", async () => {
    const big = (await corpusFile(BIG)).body;
    expect(big.byteLength).toBeGreaterThan(INLINE_LINT_BUDGET.maxBytes);

    const token = await createPortal("late-lint");
    const release = await holdLateLint("late-lint");
    const res = await upload(token, big, { api: "unicourt", version: "1" }, "application/json");
    expect(res.status).toBe(201);
    const url = `${ORIGIN}/v1/apis/unicourt/versions/1/lint`;
    expect(res.json.lint).toEqual({ status: "pending", url });

    // Live already: the reference serves, the listing says the report is pending, the report URL answers 202.
    expect((await getPage("/p/late-lint/reference/unicourt/")).status).toBe(200);
    const listed = await getJson(`${ORIGIN}/v1/apis`, token);
    expect(listed.json.apis[0]).toMatchObject({ liveVersion: "1", versions: [{ label: "1", live: true, lint: { status: "pending" } }] });
    const pending = await getJson(url, token);
    expect(pending).toMatchObject({ status: 202, retryAfter: "2", json: { api: "unicourt", version: "1", status: "pending", url } });

    release();
    const done = await report(url, token);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ api: "unicourt", version: "1", status: "complete", url, publication: pending.json.publication });

    // The same report an upload linted within its request gets (another portal, inline budget lifted).
    const inlineToken = await createPortal("inline-lint");
    await setInlineLimit("inline-lint", Number.MAX_SAFE_INTEGER);
    const inline = await upload(inlineToken, big, { api: "unicourt", version: "1" }, "application/json");
    expect(inline.status).toBe(201);
    expect(inline.json.lint.status).toBe("complete");
    expect(inline.json.lint.errors + inline.json.lint.warnings).toBeGreaterThan(0);
    const { status: _s, url: _u, ...inlineReport } = inline.json.lint;
    const { errors, warnings, issues, truncated, note } = done.json;
    expect({ errors, warnings, issues, ...(truncated ? { truncated } : {}), ...(note ? { note } : {}) }).toEqual(inlineReport);
    expect((await getJson(`${ORIGIN}/v1/apis`, token)).json.apis[0].versions[0].lint).toEqual({ status: "complete", errors, warnings });

    // Re-posting the same definition answers unchanged with the stored report, without linting again.
    const again = await upload(token, big, { api: "unicourt", version: "1" }, "application/json");
    expect(again.status).toBe(200);
    expect(again.json.lint).toEqual({ status: "complete", url, errors, warnings, issues, ...(truncated ? { truncated } : {}) });
  });

  it("a body within the inline bytes whose lint needs more work than a request may spend answers pending (issue 38)", async () => {
    const body = enumDefinition(100_000);
    expect(body.length).toBeLessThan(INLINE_LINT_BUDGET.maxBytes);
    const token = await createPortal("enum-lint");
    // Its lint spends ~200,000 units (the walk's objects and the enum's values): more than this request may.
    await runInDurableObject(publisherFor(env.PUBLISHER, "enum-lint"), (instance: PortalPublisher) => {
      instance.inlineLintWork = 10_000;
    });
    const release = await holdLateLint("enum-lint");
    const res = await upload(token, body, { api: "kinds" }, "application/json");
    expect(res.status).toBe(201);
    const url = `${ORIGIN}/v1/apis/kinds/versions/1.0.0/lint`;
    expect(res.json.lint).toEqual({ status: "pending", url });
    expect((await getJson(url, token)).status).toBe(202);

    release();
    const done = await report(url, token);
    expect(done.json).toMatchObject({ api: "kinds", version: "1.0.0", status: "complete", url });
    expect(done.json.note).toBeUndefined();
  });

  it("a 100,000-value enum (889 KB) is linted within the request, completely (issue 38)", async () => {
    const token = await createPortal("enum-inline");
    const res = await upload(token, enumDefinition(100_000, "v00000"), { api: "kinds" }, "application/json");
    expect(res.status).toBe(201);
    expect(res.json.lint.status).toBe("complete");
    expect(res.json.lint.note).toBeUndefined();
    expect(res.json.lint.issues.map((i: any) => i.message)).toContain('"enum" property must not have duplicate items (items ## 0 and 1 are identical)');
  });

  it("?strict=true lints first: a definition past the inline budget with lint errors is refused, nothing written", async () => {
    const token = await createPortal("late-strict");
    await setInlineLimit("late-strict", 0);
    const flawed = `openapi: 3.0.3\ninfo: {title: Flawed, version: "1.0"}\npaths:\n  /things/{id}:\n    get:\n      responses: {"200": {description: ok}}\n`;
    const refused = await upload(token, flawed, { api: "flawed", strict: "true" });
    expect(refused.status).toBe(422);
    expect(refused.json.error.code).toBe("lint-errors");
    expect((await getJson(`${ORIGIN}/v1/apis`, token)).json.apis).toEqual([]);
    expect((await getJson(`${ORIGIN}/v1/apis/flawed/versions/1.0/lint`, token)).status).toBe(404);
    // Without strict, the same upload goes live first.
    const published = await upload(token, flawed, { api: "flawed" });
    expect(published.status).toBe(201);
    expect(published.json.lint.status).toBe("pending");
    const done = await report(published.json.lint.url, token);
    expect(done.json.issues.some((i: any) => i.rule === "path-params" && i.severity === "error")).toBe(true);
  });

  it("the report endpoint: the portal's token only, 404 for an unknown API or version", async () => {
    const token = await createPortal("lint-auth");
    const other = await createPortal("lint-other");
    const yaml = `openapi: 3.0.3\ninfo: {title: T, version: "2.0"}\npaths: {}\n`;
    expect((await upload(token, yaml, { api: "t" })).status).toBe(201);
    const url = `${ORIGIN}/v1/apis/t/versions/2.0/lint`;
    expect((await getJson(url, token)).status).toBe(200);
    expect((await getJson(url)).status).toBe(401);
    expect((await getJson(url, "not-a-token")).status).toBe(401);
    expect((await getJson(url, other)).status).toBe(404);
    expect((await getJson(`${ORIGIN}/v1/apis/nope/versions/2.0/lint`, token)).status).toBe(404);
    const missing = await getJson(`${ORIGIN}/v1/apis/t/versions/9.9/lint`, token);
    expect(missing).toMatchObject({ status: 404, json: { error: { code: "not-found" } } });
  });
});
