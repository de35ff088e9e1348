import { describe, expect, it } from "vitest";
import { bodyInCode, firstCurl, jsonBodyFromCurl, withBodyFromCode } from "./body-in-code";
import type { SampleInput } from "./types";

const input = (text: string, headers: SampleInput["headers"] = []): SampleInput => ({
  method: "POST", path: "/things", servers: [{ url: "https://api.example.com", variables: {} }], query: [], headers, cookies: [], auth: [],
  body: { mimeType: "application/json", text },
});

describe("request bodies read back from the cURL sample", () => {
  it("reads back a JSON body exactly, quotes, unicode and nesting included", () => {
    const text = JSON.stringify({ name: "O'Brien's \"thing\"", tags: ["a'b", "é ✓"], nested: { n: 1.5, t: null, e: [] }, shell: "--data 'x'" });
    const full = input(text, [{ name: "X-Note", value: "--data 'not the body'" }]);
    const slim = bodyInCode(full)!;
    expect(slim.body!.text).toBe("");
    expect(jsonBodyFromCurl(firstCurl(full))).toBe(text);
    expect(withBodyFromCode(slim, firstCurl(full))).toEqual(full);
  });

  it("keeps the body in the props when the code would not give it back as written", () => {
    expect(bodyInCode(input('{ "spaced": 1 }'))).toBeUndefined(); // not compact: the code reprints it
    expect(bodyInCode(input('{"n":1.0}'))).toBeUndefined(); // 1.0 reads back as 1
    expect(bodyInCode(input("not json"))).toBeUndefined();
    expect(bodyInCode({ ...input("a=b"), body: { mimeType: "application/x-www-form-urlencoded", text: "a=b" } })).toBeUndefined();
    expect(bodyInCode({ ...input(""), body: undefined })).toBeUndefined();
  });

  it("leaves the input alone when the page's code has no body", () => {
    const slim = { ...input(""), body: { mimeType: "application/json", text: "" } };
    expect(withBodyFromCode(slim, "curl https://api.example.com/things")).toEqual(slim);
    expect(withBodyFromCode(slim, null)).toEqual(slim);
  });
});
