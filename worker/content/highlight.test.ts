import { describe, expect, it } from "vitest";
import { highlightCode, splitLines } from "./highlight";

describe("highlight", () => {
  it("highlights known languages, escapes unknown ones and keeps variable markers whole", () => {
    expect(highlightCode("const k = 1", "js")).toContain('<span class="hljs-keyword">const</span>');
    expect(highlightCode("<b>", "klingon")).toBe("&lt;b&gt;");
    expect(highlightCode("key = \uE000api_key\uE001", "python")).toContain("\uE000api_key\uE001");
  });
  it("splits per line, re-opening spans that cross a line end", () => {
    const lines = splitLines(highlightCode("/* a\nb */\nx = 1", "javascript"));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('<span class="hljs-comment">/* a</span>');
    expect(lines[1]).toBe('<span class="hljs-comment">b */</span>');
  });
});
