import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildText } from "../../../worker/render/testing/reference";
import { buildTrySpec, constraintsOf, type TryConstraints } from "../../../worker/openapi/samples/try-spec";
import { initialFields, preferredSecurity } from "./initial-fields";
import { buildRequest, paramKey } from "./request";
import { bodyView, prettyXml, statusMeaning } from "./response";
import { checkValue, loadPatternCompiler } from "./validate";

const demo = buildText(readFileSync(new URL("../../../demo/definition.yaml", import.meta.url), "utf8"));
const spec = (operationId: string) => {
  const op = demo.operations.find((o) => o.operationId === operationId && o.kind === "operation")!;
  return buildTrySpec(demo.slice(op.slug), demo.header, "parcel-logistics-api", "2.4.0");
};

describe("Try-it constraints (checked before sending)", () => {
  it("checks type, range, enum, length and required", () => {
    const limit = { type: "integer", minimum: 1, maximum: 100 } as const;
    expect(checkValue("20", limit, false)).toBeUndefined();
    expect(checkValue("", limit, false)).toBeUndefined();
    expect(checkValue("", limit, true)).toBe("is required");
    expect(checkValue("2.5", limit, false)).toBe("must be a whole number");
    expect(checkValue("0", limit, false)).toBe("must be at least 1");
    expect(checkValue("101", limit, false)).toBe("must be at most 100");
    expect(checkValue("x", { enum: ["a", "b"] }, false)).toBe("must be one of a, b");
    expect(checkValue("abc", { minLength: 4 }, false)).toBe("must be at least 4 characters");
    expect(checkValue("1e3", { type: "number", exclusiveMaximum: 1000 }, false)).toBe("must be less than 1000");
    expect(checkValue("maybe", { type: "boolean" }, false)).toBe("must be true or false");
  });

  it("checks patterns on re2js, a catastrophic one included, and array items one by one", async () => {
    const compile = await loadPatternCompiler();
    expect(checkValue("shp_7Hq2xK9d", { pattern: "^shp_[A-Za-z0-9]{8}$" }, true, compile)).toBeUndefined();
    expect(checkValue("shp_1", { pattern: "^shp_[A-Za-z0-9]{8}$" }, true, compile)).toBe("must match the pattern ^shp_[A-Za-z0-9]{8}$");
    // Exponential on a backtracking engine; linear on RE2.
    expect(checkValue(`${"a".repeat(5_000)}!`, { pattern: "^(a+)+$" }, true, compile)).toBe("must match the pattern ^(a+)+$");
    // Not RE2 syntax (a backreference): not checked rather than refused.
    expect(checkValue("ab", { pattern: "^(a)\\1$" }, true, compile)).toBeUndefined();
    const statuses: TryConstraints = { type: "array", maxItems: 2, items: { enum: ["booked", "in_transit"] } };
    expect(checkValue("booked, in_transit", statuses, false, compile)).toBeUndefined();
    expect(checkValue("booked,lost", statuses, false, compile)).toBe('item "lost" must be one of booked, in_transit');
    expect(checkValue("booked,booked,booked", statuses, false, compile)).toBe("takes at most 2 items");
  });

  it("folds OpenAPI 3.0's boolean exclusive bounds", () => {
    expect(constraintsOf({ type: "number", minimum: 0, exclusiveMinimum: true }, {})).toEqual({ type: "number", exclusiveMinimum: 0 });
  });
});

describe("Try-it spec of the demo's operations", () => {
  it("lists every parameter with the sample's values, hints for optional ones, and the security alternatives", () => {
    const s = spec("listShipments");
    expect(s.operationId).toBe("listShipments");
    expect(s.method).toBe("GET");
    const limit = s.params.find((p) => p.name === "limit")!;
    expect(limit).toMatchObject({ in: "query", required: false, value: "", hint: "20", constraints: { type: "integer", minimum: 1, maximum: 100 } });
    expect(s.params.find((p) => p.name === "status")).toMatchObject({ value: "booked,in_transit", explode: false, constraints: { type: "array", maxItems: 5 } });
    expect(s.security.map((r) => r.map((x) => x.scheme))).toEqual([["oauth2"], ["bearerAuth"], ["apiKey"]]);
    expect(s.schemes.apiKey).toMatchObject({ type: "apiKey", in: "header", name: "X-API-Key" });
    expect(s.schemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("prefills the JSON body with the code sample's example", () => {
    const s = spec("createShipment");
    expect(s.body?.kind).toBe("json");
    expect(s.body?.required).toBe(true);
    expect(JSON.parse(s.body!.text!)).toBeTypeOf("object");
  });
});

describe("Try-it request building", () => {
  it("builds the proxy payload and the HAR from the fields: path, query (explode false), headers, the API key", async () => {
    const s = { ...spec("listShipments"), apiKey: "pl_test_secret" };
    const f = initialFields(s);
    expect(s.security[preferredSecurity(s)]!.map((r) => r.scheme)).toEqual(["apiKey"]);
    expect(preferredSecurity({ ...s, apiKey: undefined })).toBe(0);
    f.values[paramKey({ in: "query", name: "limit" })] = "5";
    const { payload, har, safeUrl } = await buildRequest(s, f);
    expect(payload).toMatchObject({ api: "parcel-logistics-api", version: "2.4.0", operationId: "listShipments", method: "GET" });
    const url = new URL(payload.url);
    expect(url.origin + url.pathname).toBe("https://eu.api.parcel-logistics.example/v2/shipments");
    expect(url.searchParams.get("limit")).toBe("5");
    expect(url.searchParams.get("status")).toBe("booked,in_transit");
    expect(payload.headers["X-API-Key"]).toBe("pl_test_secret");
    expect(payload.body).toBeUndefined();
    expect(har.queryString).toContainEqual({ name: "limit", value: "5" });
    expect(har.headers).toContainEqual({ name: "X-API-Key", value: "pl_test_secret" });
    expect(safeUrl).toBe(payload.url);
  });

  it("names an OAuth scheme for the Worker instead of sending a token, and keeps query keys out of the history URL", async () => {
    const s = spec("listShipments");
    const f = initialFields(s);
    f.security = 0;
    const { payload, har } = await buildRequest(s, f);
    expect(payload.auth).toEqual({ scheme: "oauth2" });
    expect(payload.headers.Authorization).toBeUndefined();
    expect(har.headers).toContainEqual({ name: "Authorization", value: "Bearer YOUR_TOKEN" });

    const q = { ...s, security: [[{ scheme: "k", scopes: [] }], [{ scheme: "b", scopes: [] }]], schemes: { k: { type: "apiKey" as const, in: "query" as const, name: "key" }, b: { type: "http" as const, scheme: "basic" } } };
    const g = initialFields(q);
    g.credentials.k = { value: "s3cret" };
    const built = await buildRequest(q, g);
    expect(new URL(built.payload.url).searchParams.get("key")).toBe("s3cret");
    expect(built.safeUrl).not.toContain("s3cret");
    g.security = 1;
    g.credentials.b = { user: "ann", password: "pw" };
    expect((await buildRequest(q, g)).payload.headers.Authorization).toBe(`Basic ${btoa("ann:pw")}`);
  });

  it("sends the JSON body with its media type", async () => {
    const s = spec("createShipment");
    const { payload } = await buildRequest(s, initialFields(s));
    expect(payload.method).toBe("POST");
    expect(payload.bodyEncoding).toBe("utf8");
    expect(JSON.parse(payload.body!)).toEqual(JSON.parse(s.body!.text!));
    expect(payload.body).toContain('\n  "'); // indented for the editor
    expect(payload.headers["Content-Type"]).toBe("application/json");
  });

  it("encodes multipart fields and files as the browser would, base64 for the proxy", async () => {
    const s = { ...spec("createShipment"), body: { mediaType: "multipart/form-data", kind: "multipart" as const, required: true, fields: [{ name: "note", value: "hi" }, { name: "doc", value: "", file: true }] } };
    const f = initialFields(s);
    f.files = { doc: new File(["%PDF-1"], "a.pdf", { type: "application/pdf" }) };
    const { payload, har } = await buildRequest(s, f);
    expect(payload.bodyEncoding).toBe("base64");
    const text = Buffer.from(payload.body!, "base64").toString("utf8");
    const boundary = /boundary=(.+)$/.exec(payload.headers["Content-Type"]!)![1]!;
    expect(text).toContain(boundary);
    expect(text).toContain('name="note"\r\n\r\nhi');
    expect(text).toContain('filename="a.pdf"');
    expect(text).toContain("%PDF-1");
    expect(har.postData?.params).toContainEqual({ name: "doc", fileName: "a.pdf", contentType: "application/pdf" });
  });
});

describe("Try-it response view", () => {
  it("says what a status means, pretty-prints JSON and XML, shows images and offers binaries", () => {
    expect(statusMeaning(201)).toMatch(/^Created/);
    expect(statusMeaning(418)).toMatch(/^Client error/);
    expect(bodyView('{"a":1}', "utf8", "application/problem+json")).toEqual({ kind: "text", text: '{\n  "a": 1\n}', lang: "json" });
    expect(prettyXml("<a><b>1</b><c/></a>")).toBe("<a>\n  <b>1</b>\n  <c/>\n</a>");
    expect(bodyView("iVBORw0KGgo=", "base64", "image/png")).toEqual({ kind: "image", src: "data:image/png;base64,iVBORw0KGgo=" });
    expect(bodyView("AAEC", "base64", "application/pdf")).toEqual({ kind: "download", type: "application/pdf" });
    expect(bodyView("not json", "utf8", "application/json")).toEqual({ kind: "text", text: "not json" });
  });
});
