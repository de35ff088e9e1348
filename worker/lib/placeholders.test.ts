import { describe, expect, it } from "vitest";
import { fillPlaceholders } from "./placeholders";

describe("fillPlaceholders", () => {
  const reader = { api_key: "<sk_live>" };
  const defaults = { api_key: "KEY_DEFAULT", org_name: "Acme & Co" };

  it("fills {{name}} from the first source that has it; unknown names stay as written", () => {
    expect(fillPlaceholders("Bearer {{api_key}} for {{org_name}} {{unknown}}", [reader, defaults])).toBe("Bearer <sk_live> for Acme & Co {{unknown}}");
    expect(fillPlaceholders("{{api_key}}", [{}, defaults])).toBe("KEY_DEFAULT");
  });

  it("looks up own values only: {{constructor}} is not Object's", () => {
    expect(fillPlaceholders("{{constructor}} {{__proto__}}", [{}])).toBe("{{constructor}} {{__proto__}}");
    expect(fillPlaceholders("\uE000constructor\uE001", [{}], { markers: true })).toBe("{{constructor}}");
  });

  it("escapes values for HTML when asked, never the text around them", () => {
    expect(fillPlaceholders("<b>{{org_name}}</b>", [defaults], { html: true })).toBe("<b>Acme &amp; Co</b>");
  });

  it("percent-encoded placeholders in URLs take the percent-encoded value (RFC 3986 §2.1)", () => {
    expect(fillPlaceholders("/orgs/%7B%7Borg_name%7D%7D?k=%7b%7bapi_key%7d%7d&x=%7B%7Bnope%7D%7D", [defaults], { encoded: true })).toBe("/orgs/Acme%20%26%20Co?k=KEY_DEFAULT&x=%7B%7Bnope%7D%7D");
    expect(fillPlaceholders("/orgs/%7B%7Borg_name%7D%7D", [defaults])).toBe("/orgs/%7B%7Borg_name%7D%7D");
  });

  it("search snippets: a <mark> inside the name is dropped, kept around the value in HTML", () => {
    expect(fillPlaceholders("Bearer {{<mark>api_key</mark>}} at {{org_name}} {{unknown}}", [reader, defaults], { html: true, marks: true })).toBe("Bearer <mark>&lt;sk_live&gt;</mark> at Acme &amp; Co {{unknown}}");
    expect(fillPlaceholders("Key {{<mark>api_key</mark>}}", [{}, defaults], { marks: true })).toBe("Key KEY_DEFAULT");
    expect(fillPlaceholders("{{<mark>api_key</mark>}}", [defaults])).toBe("{{<mark>api_key</mark>}}");
  });

  it("stored content pages: \\uE000name\\uE001 markers, an unknown one written back as {{name}}", () => {
    expect(fillPlaceholders("Use \uE000api_key\uE001 or \uE000other\uE001", [reader, defaults], { markers: true, html: true })).toBe("Use &lt;sk_live&gt; or {{other}}");
    expect(fillPlaceholders("Use \uE000api_key\uE001", [reader], { markers: true })).toBe("Use <sk_live>");
    expect(fillPlaceholders("\uE000api_key\uE001", [reader])).toBe("\uE000api_key\uE001");
  });

  it("names are 1-160 letters, digits and underscores", () => {
    expect(fillPlaceholders("{{a-b}} {{}} {{ api_key }}", [{ "a-b": "x", "": "y", api_key: "z" }])).toBe("{{a-b}} {{}} {{ api_key }}");
  });
});
