import { describe, expect, it } from "vitest";
import { lintRule } from "../test-helpers";

describe("contact-properties", () => {
  it("reports once per contact missing name, url or email", () => {
    expect(lintRule("contact-properties", `openapi: 3.0.3\ninfo:\n  title: T\n  version: "1"\n  contact:\n    email: a@b.c\npaths: {}\n`)).toEqual([
      { line: 5, message: 'Contact object must have "name", "url" and "email".', path: "/info/contact" },
    ]);
  });

  it("accepts a complete contact, and no contact at all", () => {
    expect(lintRule("contact-properties", `openapi: 3.0.3\ninfo: {title: T, version: "1", contact: {name: A, url: "https://a.b", email: a@b.c}}\npaths: {}\n`)).toEqual([]);
    expect(lintRule("contact-properties", `openapi: 3.0.3\ninfo: {title: T, version: "1"}\npaths: {}\n`)).toEqual([]);
  });
});
