import { describe, expect, it } from "vitest";
import { tokenizeLine } from "./plain-highlight";

const show = (line: string, format: "json" | "yaml") => tokenizeLine(line, format).map((t) => [t.kind, line.slice(t.from, t.to)]);

describe("tokenizeLine (the large-document highlighter)", () => {
  it("tells JSON keys from string values, numbers and atoms, escapes included", () => {
    expect(show(`    "description": "A \\"quoted\\" word", "n": -1.5e3, "ok": true, "x": null`, "json")).toEqual([
      ["key", `"description"`],
      ["string", `"A \\"quoted\\" word"`],
      ["key", `"n"`],
      ["number", "-1.5e3"],
      ["key", `"ok"`],
      ["atom", "true"],
      ["key", `"x"`],
      ["atom", "null"],
    ]);
  });

  it("colours a JSON string cut at the end of the visible part as a string", () => {
    expect(show(`"summary": "unfinished`, "json")).toEqual([
      ["key", `"summary"`],
      ["string", `"unfinished`],
    ]);
  });

  it("finds YAML keys (also after list dashes), scalars and comments; # inside a word is text", () => {
    expect(show(`  - name: "pet#1" # the id`, "yaml")).toEqual([
      ["key", "name"],
      ["string", `"pet#1"`],
      ["comment", "# the id"],
    ]);
    expect(show(`  maxLength: 20`, "yaml")).toEqual([
      ["key", "maxLength"],
      ["number", "20"],
    ]);
    expect(show(`  url: https://a.example/x#frag`, "yaml")).toEqual([["key", "url"]]);
    expect(show(`  nullable: true`, "yaml")).toEqual([
      ["key", "nullable"],
      ["atom", "true"],
    ]);
    expect(show(`  version: 1.2.3-beta`, "yaml")).toEqual([["key", "version"]]);
  });
});
