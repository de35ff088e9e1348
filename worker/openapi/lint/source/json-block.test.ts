import { describe, expect, it } from "vitest";
import { reparseJsonBlock } from "./json-block";

const TEXT = '{"info": {"title": "Pets", "version": 1}, "paths": {"/a": {"get": {"tags": ["x"]}}}}';

function edit(text: string, at: number, remove: number, insert: string) {
  const change = { from: at, to: at + remove, insert };
  return reparseJsonBlock(text, text.slice(0, at) + insert + text.slice(at + remove), change);
}

describe("reparseJsonBlock", () => {
  it("re-parses the innermost value containing the edit", () => {
    expect(edit(TEXT, TEXT.indexOf("Pets") + 4, 0, " store")).toEqual({ kind: "value", path: ["info", "title"], value: "Pets store" });
    expect(edit(TEXT, TEXT.indexOf('"x"') + 2, 0, "y")).toEqual({ kind: "value", path: ["paths", "/a", "get", "tags", 0], value: "xy" });
    expect(edit(TEXT, TEXT.indexOf("1}") + 1, 0, "0")).toEqual({ kind: "value", path: ["info", "version"], value: 10 });
  });

  it("re-parses the enclosing object when a key or a separator changes", () => {
    expect(edit(TEXT, TEXT.indexOf('"title"') + 1, 0, "x")).toEqual({ kind: "value", path: ["info"], value: { xtitle: "Pets", version: 1 } });
    expect(edit(TEXT, TEXT.indexOf(', "version"'), 0, ', "a": true')).toEqual({ kind: "value", path: ["info"], value: { title: "Pets", a: true, version: 1 } });
  });

  it("gives up when the new text of the value is not JSON, or at the root", () => {
    expect(edit(TEXT, TEXT.indexOf("Pets"), 0, '"')).toEqual({ kind: "unsupported" });
    expect(edit(TEXT, 0, 1, "")).toEqual({ kind: "unsupported" });
  });
});
