import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { convertFormat } from "./convert";

const DEMO = readFileSync(new URL("../../demo/definition.yaml", import.meta.url), "utf8");

describe("convertFormat", () => {
  it("YAML → JSON keeps key order, integer-like keys included, and counts the comments it drops", () => {
    const src = "# head\nresponses:\n  default: {description: x} # why\n  '200': {description: ok}\n";
    const r = convertFormat(src, "json");
    expect(r).toEqual({
      ok: true,
      text: '{\n  "responses": {\n    "default": {\n      "description": "x"\n    },\n    "200": {\n      "description": "ok"\n    }\n  }\n}\n',
      lostComments: 2,
    });
  });

  it("JSON → YAML writes block style, plain scalars where safe and literal blocks for multi-line text", () => {
    const r = convertFormat('{"info":{"title":"A","version":"1.0","description":"l1\\nl2"},"x":["true",1]}', "yaml");
    expect(r).toEqual({ ok: true, text: 'info:\n  title: A\n  version: "1.0"\n  description: |-\n    l1\n    l2\nx:\n  - "true"\n  - 1\n', lostComments: 0 });
  });

  it("round-trips the demo definition's data both ways", () => {
    const json = convertFormat(DEMO, "json");
    if (!json.ok) throw new Error(json.message);
    expect(json.lostComments).toBe(2);
    expect(JSON.parse(json.text)).toEqual(parse(DEMO));
    const back = convertFormat(json.text, "yaml");
    if (!back.ok) throw new Error(back.message);
    expect(parse(back.text)).toEqual(parse(DEMO));
  });

  it("returns text already in the target format unchanged, and refuses broken text", () => {
    expect(convertFormat("a: 1\n", "yaml")).toEqual({ ok: true, text: "a: 1\n", lostComments: 0 });
    const r = convertFormat("a: [\n", "json");
    expect(r.ok).toBe(false);
  });
});
