import { describe, expect, it } from "vitest";
import { escapeHtml, escapeText } from "./html-escape";

describe("html-escape", () => {
  it("escapes every character that could open a tag, an entity or close a quoted attribute", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;");
  });
  it("leaves quotes alone in text positions only", () => {
    expect(escapeText(`{"a": "<b>&"}`)).toBe(`{"a": "&lt;b&gt;&amp;"}`);
  });
});
