import { describe, expect, it } from "vitest";
import { indexJson } from "./json-index";

const TEXT = `{
  "openapi": "3.0.3",
  "paths": {
    "/a\\u002fb": { "get": { "tags": ["x", "y"] } },
    "/c": {}
  },
  "list": [1, {"k": null}, [true]]
}`;

describe("indexJson", () => {
  const index = indexJson(TEXT);

  it("locates members at their key and items at their value", () => {
    expect(index.locate([])).toEqual({ line: 1, column: 1 });
    expect(index.locate(["paths"])).toEqual({ line: 3, column: 3 });
    expect(index.locate(["paths", "/a/b", "get", "tags", 1])).toEqual({ line: 4, column: 43 });
    expect(index.locate(["paths", "/c"])).toEqual({ line: 5, column: 5 });
    expect(index.locate(["list", 1, "k"])).toEqual({ line: 7, column: 16 });
    expect(index.locate(["list", "2", 0])).toEqual({ line: 7, column: 29 });
  });

  it("falls back to the nearest existing ancestor", () => {
    expect(index.locate(["paths", "/missing", "get"])).toEqual({ line: 3, column: 3 });
    expect(index.locate(["list", 9])).toEqual({ line: 7, column: 3 });
  });
});
