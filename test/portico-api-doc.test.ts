/**
 * openapi/portico.yaml, Portico's own service API, against the routes (issue 38): every `/v1` and reader-JSON
 * route is documented and every documented operation is a route; documented operations called for real answer a
 * documented status with a body valid against the documented schema; the document lints without errors.
 */
import { env, SELF } from "cloudflare:test";
import { Validator } from "@cfworker/json-schema";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { app } from "../worker/app";
import { lintDocument } from "../worker/openapi/lint/lint-document";
import { createPortal, ORIGIN } from "./harness/client";
import porticoYaml from "../openapi/portico.yaml?raw";

type Json = Record<string, any>;
const doc = parse(porticoYaml) as Json;
const METHODS = ["get", "put", "post", "patch", "delete", "head", "options"];

/** The documented service routes: the service API, the JSON endpoints readers' pages call, and the Docs API. */
function isServiceRoute(path: string): boolean {
  return path.startsWith("/v1/") || path.endsWith(".json") || /^\/p\/[^/]+\/api\/v1\//.test(path);
}

/** Hono's `/a/:b{re}/c` as OpenAPI's `/a/{b}/c`. */
function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z0-9_]+)(\{[^/]*\})?/g, "{$1}");
}

/** A local `$ref` (`#/components/...`) resolved, recursively; the document has no cycles. */
function deref(value: unknown): any {
  if (Array.isArray(value)) return value.map(deref);
  if (value === null || typeof value !== "object") return value;
  const ref = (value as Json).$ref;
  if (typeof ref === "string") {
    const target = ref.slice(2).split("/").reduce((node: any, key) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    if (target === undefined) throw new Error(`unresolved $ref ${ref}`);
    return deref(target);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deref(v)]));
}

/** The documented response of `method path` for `status`, or undefined when that status is not documented. */
function documentedResponse(method: string, path: string, status: number): Json | undefined {
  const operation = doc.paths?.[path]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${path} is not documented`);
  const response = operation.responses?.[String(status)];
  return response === undefined ? undefined : deref(response);
}

/** Errors of `body` against the documented JSON schema of `method path` answering `status` (none: []). */
function schemaErrors(method: string, path: string, status: number, body: unknown): string[] {
  const schema = documentedResponse(method, path, status)?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${method} ${path} ${status} documents no JSON body`);
  const result = new Validator(schema, "2020-12", false).validate(body);
  return result.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** Calls the worker and checks the answer is documented: its status, and its JSON body against the schema. */
async function call(method: string, path: string, url: string, init: RequestInit = {}): Promise<{ status: number; body: any }> {
  const res = await SELF.fetch(`${ORIGIN}${url}`, { method, redirect: "manual", ...init });
  const text = await res.text();
  expect(documentedResponse(method, path, res.status), `${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`).toBeDefined();
  const body = res.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text;
  if (typeof body !== "string") expect(schemaErrors(method, path, res.status, body), `${method} ${url} ${res.status}`).toEqual([]);
  return { status: res.status, body };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const json = (token: string, body: unknown): RequestInit => ({
  headers: { ...bearer(token), "content-type": "application/json" },
  body: JSON.stringify(body),
});

describe("openapi/portico.yaml", () => {
  it("documents every service route, and documents no route that does not exist", () => {
    const routed = new Set(
      app.routes.filter((r) => r.method !== "ALL" && isServiceRoute(r.path)).map((r) => `${r.method} ${openApiPath(r.path)}`),
    );
    const documented = new Set(
      Object.entries(doc.paths as Json).flatMap(([path, item]) => METHODS.filter((m) => m in item).map((m) => `${m.toUpperCase()} ${path}`)),
    );
    expect(routed.size).toBeGreaterThan(20);
    expect([...routed].filter((r) => !documented.has(r)), "routes missing from the document").toEqual([]);
    expect([...documented].filter((d) => !routed.has(d)), "documented operations with no route").toEqual([]);
  });

  it("maps Hono paths to OpenAPI paths, regex constraints dropped", () => {
    expect(openApiPath("/v1/apis/:api/changelog/drafts/:id/:action{approve|discard}")).toBe("/v1/apis/{api}/changelog/drafts/{id}/{action}");
    expect(openApiPath("/p/:portal/search.json")).toBe("/p/{portal}/search.json");
  });

  it("gives every operation an operationId, a summary, tags and documented responses", () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const method of METHODS.filter((m) => m in item)) {
        const op = item[method];
        expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
        expect(ids.has(op.operationId), `duplicate operationId ${op.operationId}`).toBe(false);
        ids.add(op.operationId);
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
        expect(Object.keys(op.responses ?? {}).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it("lints clean: no errors, no warnings", () => {
    const result = lintDocument(porticoYaml);
    expect(result.problems).toEqual([]);
  });

  it("has schemas that refuse a body of the wrong shape", () => {
    // Guards the checks below: a schema that accepted anything would let every call pass.
    expect(schemaErrors("GET", "/v1/apis", 200, { apis: [{ slug: "x" }] })).not.toEqual([]);
    expect(schemaErrors("POST", "/v1/portals", 400, { code: "invalid-slug" })).not.toEqual([]);
    expect(schemaErrors("GET", "/p/{portal}/search.json", 200, { query: "q", total: -1, results: [] })).not.toEqual([]);
    expect(schemaErrors("POST", "/v1/apis/upload", 201, { api: "x", sha256: "not-a-digest" })).not.toEqual([]);
    // Closed where our JSON is: a field the routes never send is refused, and so is a diff without its verdict.
    expect(schemaErrors("GET", "/v1/apis", 200, { apis: [], next: "x" })).not.toEqual([]);
    expect(schemaErrors("POST", "/v1/portals", 400, { error: { code: "c", message: "m", hint: "h" } })).not.toEqual([]);
    const ref = { label: "1", sha256: "a".repeat(64) };
    expect(schemaErrors("GET", "/v1/apis/{api}/changes", 200, { api: "x", from: ref, to: ref })).not.toEqual([]);
    expect(schemaErrors("GET", "/v1/apis/{api}/changes", 200, { api: "x", from: ref, to: ref, breaking: false, changes: [], counts: { ERR: 0, WARN: 0, INFO: 0 } })).toEqual([]);
  });

  it("answers documented operations with the documented statuses and shapes", async () => {
    // Portals: created with the admin token; refused without one or with a bad slug.
    const created = await call("POST", "/v1/portals", "/v1/portals", { ...json(env.PORTICO_ADMIN_TOKEN, { slug: "self-doc", name: "Self" }) });
    expect(created.status).toBe(201);
    const token = created.body.token as string;
    expect((await call("POST", "/v1/portals", "/v1/portals", { headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
    expect((await call("POST", "/v1/portals", "/v1/portals", json(env.PORTICO_ADMIN_TOKEN, { slug: "V1", name: "n" }))).status).toBe(400);
    expect((await call("POST", "/v1/portals", "/v1/portals", json(env.PORTICO_ADMIN_TOKEN, { slug: "self-doc", name: "n" }))).status).toBe(409);

    expect((await call("GET", "/v1/portal", "/v1/portal", { headers: bearer(token) })).status).toBe(200);
    expect((await call("PATCH", "/v1/portal", "/v1/portal", json(token, { externalImages: true }))).body.settings.externalImages).toBe(true);
    expect((await call("PATCH", "/v1/portal", "/v1/portal", json(token, { nope: 1 }))).status).toBe(400);
    expect((await call("GET", "/v1/portal/sso", "/v1/portal/sso", { headers: bearer(token) })).status).toBe(404);
    expect((await call("DELETE", "/v1/portal/sessions", "/v1/portal/sessions?reader=someone", { headers: bearer(token) })).body.signedOut).toEqual({ reader: "someone" });
    // The custom domain (the embedded adapter: active at once).
    expect((await call("GET", "/v1/portal/domain", "/v1/portal/domain", { headers: bearer(token) })).status).toBe(404);
    expect((await call("PUT", "/v1/portal/domain", "/v1/portal/domain", json(token, { hostname: "10.0.0.1" }))).status).toBe(400);
    expect((await call("PUT", "/v1/portal/domain", "/v1/portal/domain", json(token, { hostname: "docs.self-doc.example" }))).body.domain.status).toBe("active");
    expect((await call("GET", "/v1/portal/domain", "/v1/portal/domain", { headers: bearer(token) })).body.domain.hostname).toBe("docs.self-doc.example");
    expect((await call("DELETE", "/v1/portal/domain", "/v1/portal/domain", { headers: bearer(token) })).body.released).toBe("docs.self-doc.example");

    // The document itself is the API published: Portico documents Portico.
    const upload = await call("POST", "/v1/apis/upload", "/v1/apis/upload?api=portico-api", {
      headers: { ...bearer(token), "content-type": "application/yaml" },
      body: porticoYaml,
    });
    expect(upload.status).toBe(201);
    // Portico's own lint of its own API, as the portal shows it: clean too.
    expect(upload.body.lint).toMatchObject({ status: "complete", errors: 0, warnings: 0 });
    const again = await call("POST", "/v1/apis/upload", "/v1/apis/upload?api=portico-api", {
      headers: { ...bearer(token), "content-type": "application/yaml" },
      body: porticoYaml,
    });
    expect(again).toMatchObject({ status: 200, body: { unchanged: true } });
    const listed = await call("GET", "/v1/apis", "/v1/apis", { headers: bearer(token) });
    expect(listed.body.apis.map((a: Json) => a.slug)).toEqual(["portico-api"]);
    expect((await call("GET", "/v1/apis", "/v1/apis", {})).status).toBe(401);
    expect((await call("PATCH", "/v1/apis/{api}", "/v1/apis/portico-api", json(token, { layout: "single-page" }))).body.layout).toBe("single-page");
    expect((await call("PATCH", "/v1/apis/{api}", "/v1/apis/portico-api", json(token, { layout: "nope" }))).status).toBe(400);
    const lint = await call("GET", "/v1/apis/{api}/versions/{version}/lint", `/v1/apis/portico-api/versions/${doc.info.version}/lint`, { headers: bearer(token) });
    expect([200, 202]).toContain(lint.status);
    expect((await call("GET", "/v1/apis/{api}/definition", "/v1/apis/nope/definition", { headers: bearer(token) })).status).toBe(404);
    expect((await call("GET", "/v1/apis/{api}/changelog/drafts", "/v1/apis/portico-api/changelog/drafts", { headers: bearer(token) })).body.drafts).toEqual([]);
    expect((await call("GET", "/v1/content", "/v1/content", { headers: bearer(token) })).body.release).toBeNull();

    // Readers: the portal's search finds the published operations.
    const found = await call("GET", "/p/{portal}/search.json", "/p/self-doc/search.json?q=portal", {});
    expect(found.status).toBe(200);
    expect(found.body.results.length).toBeGreaterThan(0);
    expect((await call("GET", "/p/{portal}/search.json", "/p/self-doc/search.json?limit=0", {})).status).toBe(400);
    expect((await call("GET", "/p/{portal}/search.json", "/p/nobody-here/search.json?q=x", {})).status).toBe(404);

    // Organisations (admin token).
    const other = await createPortal("self-doc-two");
    expect(other).toBeTruthy();
    const org = await call("PUT", "/v1/orgs/{org}", "/v1/orgs/acme-group", json(env.PORTICO_ADMIN_TOKEN, { name: "Acme", plan: "enterprise", portals: ["self-doc", "self-doc-two"] }));
    expect(org.body.organisation.portals).toEqual(["self-doc", "self-doc-two"]);
    expect((await call("GET", "/v1/orgs/{org}", "/v1/orgs/nobody", { headers: bearer(env.PORTICO_ADMIN_TOKEN) })).status).toBe(404);
    const across = await call("GET", "/o/{org}/search.json", "/o/acme-group/search.json?q=portal", {});
    expect(across.status).toBe(200);
  });
});
