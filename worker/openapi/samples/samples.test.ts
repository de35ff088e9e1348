import { describe, expect, it } from "vitest";
import { loadCorpus } from "../schema-view/testing/corpus";
import { headerFromDoc, sliceFromDoc } from "../schema-view/testing/doc-fixtures";
import { withCredential } from "./auth";
import { buildSampleInput } from "./build-input";
import { SAMPLE_LANGUAGES } from "./languages";
import { printSample } from "./print";
import { toHar } from "./to-har";

describe("auth placeholders from the operation's security (security.yaml)", () => {
  const doc = loadCorpus("readme-oas-examples/3.0/yaml/security.yaml");
  const header = headerFromDoc(doc);
  const har = (method: string, path: string) => toHar(buildSampleInput(sliceFromDoc(doc, method, path), header).input);

  it("puts an apiKey in its query parameter, cookie or header", () => {
    expect(har("get", "/anything/apiKey").queryString).toEqual([{ name: "apiKey", value: "YOUR_API_KEY" }]);
    expect(har("post", "/anything/apiKey").headers).toEqual([{ name: "Cookie", value: "api_key=YOUR_API_KEY" }]);
    expect(har("put", "/anything/apiKey").headers).toEqual([{ name: "X-API-KEY", value: "YOUR_API_KEY" }]);
  });

  it("uses Bearer for HTTP bearer and OAuth 2.0, Basic for basic", () => {
    expect(har("post", "/anything/bearer").headers).toEqual([{ name: "Authorization", value: "Bearer YOUR_TOKEN" }]);
    expect(har("post", "/anything/basic").headers).toEqual([{ name: "Authorization", value: "Basic YOUR_BASE64_CREDENTIALS" }]);
    expect(har("get", "/anything/oauth2").headers).toEqual([{ name: "Authorization", value: "Bearer YOUR_TOKEN" }]);
  });

  it("swaps the placeholder for a reader's credential", () => {
    const input = buildSampleInput(sliceFromDoc(doc, "post", "/anything/bearer"), header).input;
    expect(toHar(input, { credential: "abc123" }).headers).toEqual([{ name: "Authorization", value: "Bearer abc123" }]);
  });
});

describe("request building (petstore 3.0)", () => {
  const doc = loadCorpus("readme-oas-examples/3.0/yaml/petstore.yaml");
  const header = headerFromDoc(doc);

  it("fills path parameters with NAME placeholders, adds the generated body without readOnly properties", () => {
    const { input, body } = buildSampleInput(sliceFromDoc(doc, "post", "/pet"), header);
    expect(input.method).toBe("POST");
    expect(input.path).toBe("/pet");
    expect(body?.mediaType).toBe("application/json");
    expect(body?.example.generated).toBe(true);
    const sent = JSON.parse(input.body!.text!);
    expect(Object.keys(sent)).toEqual(["category", "name", "photoUrls", "tags", "status"]);
    expect(sent.name).toBe("doggie");
    const get = buildSampleInput(sliceFromDoc(doc, "get", "/pet/{petId}"), header).input;
    expect(get.path).toBe("/pet/PET_ID");
  });

  it("explodes required array query parameters", () => {
    const { input } = buildSampleInput(sliceFromDoc(doc, "get", "/pet/findByStatus"), header);
    expect(input.query).toEqual([{ name: "status", value: "available" }]);
  });
});

describe("printing with every language", () => {
  const doc = loadCorpus("readme-oas-examples/3.0/yaml/petstore.yaml");
  const header = headerFromDoc(doc);
  const har = toHar(buildSampleInput(sliceFromDoc(doc, "get", "/pet/findByStatus"), header).input);

  it("offers at least 12 languages and every one prints the server, path and query once", async () => {
    expect(SAMPLE_LANGUAGES.length).toBeGreaterThanOrEqual(12);
    for (const lang of SAMPLE_LANGUAGES) {
      const code = printSample(await lang.load(), har);
      expect(code, lang.id).toContain("/pet/findByStatus");
      expect(code.match(/status=available|"status"|'status'|:status/g)?.length ?? 0, lang.id).toBeGreaterThanOrEqual(1);
      expect(code.includes("findByStatus?status=available?status"), lang.id).toBe(false);
    }
  });
});

describe("OpenAPI 3.2 querystring parameter (redocly-cli lint fixture)", () => {
  it("sends the example's serialized query string", () => {
    const doc = loadCorpus("redocly-cli/tests/e2e/lint/oas3.2/openapi.yaml");
    const header = headerFromDoc(doc);
    (doc.paths as Record<string, Record<string, unknown>>)["/querystring"].get = { responses: { 200: { description: "ok" } } };
    const { input } = buildSampleInput(sliceFromDoc(doc, "get", "/querystring", "operation", "qs"), header);
    expect(input.query).toEqual([{ name: "foo", value: "a + b" }, { name: "bar", value: "true" }]);
  });
});

describe("hostile bounds in parameters and bodies (issue 14)", () => {
  it("keeps generated parameter values and bodies small whatever minLength / minItems say", () => {
    const doc = {
      openapi: "3.0.3", info: { title: "T", version: "1" },
      paths: {
        "/x/{id}": {
          post: {
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string", minLength: 1e308 } },
              { name: "q", in: "query", required: true, schema: { type: "array", minItems: 400000000, items: { type: "string", minLength: 1e12 } } },
            ],
            requestBody: { content: { "application/json": { schema: { type: "object", properties: { s: { type: "string", minLength: 1e9 } } } } } },
            responses: { 200: { description: "ok" } },
          },
        },
      },
    };
    const { input, body } = buildSampleInput(sliceFromDoc(doc, "post", "/x/{id}"), headerFromDoc(doc));
    expect(input.path).toBe("/x/ID");
    expect(input.query.length).toBeLessThanOrEqual(3);
    for (const q of input.query) expect(q.value.length).toBeLessThanOrEqual(256);
    expect(input.body!.text!.length).toBeLessThan(300);
    expect(body?.example.truncated).toBe(true);
  });
});

describe("withCredential (API key once)", () => {
  const auth = [
    { scheme: "b", placement: "header" as const, name: "Authorization", value: "Bearer YOUR_TOKEN", placeholder: "YOUR_TOKEN" },
    { scheme: "k", placement: "query" as const, name: "key", value: "YOUR_API_KEY", placeholder: "YOUR_API_KEY" },
    { scheme: "basic", placement: "header" as const, name: "Authorization", value: "Basic YOUR_BASE64_CREDENTIALS", placeholder: "YOUR_BASE64_CREDENTIALS" },
    { scheme: "d", placement: "header" as const, name: "Authorization", value: "Digest YOUR_TOKEN", placeholder: "YOUR_TOKEN" },
  ];
  it("fills bearer and apiKey placeholders, leaves basic and other HTTP schemes, and is a no-op without a key", () => {
    const out = withCredential({ auth }, "k-1");
    expect(out.auth.map((a) => a.value)).toEqual(["Bearer k-1", "k-1", "Basic YOUR_BASE64_CREDENTIALS", "Digest YOUR_TOKEN"]);
    expect(out.auth[0]!.placeholder).toBe("k-1");
    expect(withCredential({ auth }, undefined).auth).toBe(auth);
  });
});
