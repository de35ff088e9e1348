import { describe, expect, it } from "vitest";
import { anonymousReader, canRead } from "./reader";

describe("canRead", () => {
  const anon = anonymousReader("en");
  it("lets everyone read public and unlabelled units", () => {
    expect(canRead(anon, [])).toBe(true);
    expect(canRead(anon, ["public"])).toBe(true);
    expect(canRead(anon, ["partners", "public"])).toBe(true);
  });
  it("keeps labelled units from readers outside the audience", () => {
    expect(canRead(anon, ["partners"])).toBe(false);
    expect(canRead({ audiences: ["public", "partners"] }, ["beta", "partners"])).toBe(true);
    expect(canRead({ audiences: ["public", "beta"] }, ["partners"])).toBe(false);
  });
});
