import { describe, expect, it } from "vitest";
import { plainSummary } from "./document";

describe("plainSummary", () => {
  it("drops tags, keeps link and image text, strips Markdown punctuation and folds white space", () => {
    expect(plainSummary("Lists **pets** from the <b>store</b>.\n\nSee [the guide](https://x.example/g) and ![a cat](c.png).")).toBe(
      "Lists pets from the store . See the guide and a cat.",
    );
    expect(plainSummary(undefined)).toBeUndefined();
    expect(plainSummary("<br>")).toBeUndefined();
  });

  it("cuts at `max` characters with an ellipsis", () => {
    const summary = plainSummary("word ".repeat(100), 20)!;
    expect(summary.length).toBeLessThanOrEqual(20);
    expect(summary.endsWith("…")).toBe(true);
  });

  it("reads only a bounded prefix of a huge description of brackets or unclosed tags (issue 14)", () => {
    for (const unit of ["[", "<a ", "[x](", "!["]) {
      const summary = plainSummary(unit.repeat(Math.ceil(2_500_000 / unit.length)) + " tail-marker")!;
      expect(summary.length).toBeLessThanOrEqual(200);
      expect(summary).not.toContain("tail-marker");
    }
  });
});
