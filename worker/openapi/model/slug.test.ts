import { describe, expect, it } from "vitest";
import { callbackSlug, dedupeSlugs, MAX_SLUG_LENGTH, operationSlug, slugify, webhookSlug } from "./slug";

describe("slugs", () => {
  it("slugifies: lower-case, runs of non-alphanumerics become one dash, trimmed", () => {
    expect(slugify("  Get__Pet BY-Id!! ")).toBe("get-pet-by-id");
    expect(slugify("repos/get-content")).toBe("repos-get-content");
    expect(slugify("日本語")).toBe("");
  });

  it("uses the operationId, else method and path", () => {
    expect(operationSlug("get", "/pets/{petId}", "showPetById")).toBe("showpetbyid");
    expect(operationSlug("get", "/pets/{petId}")).toBe("get-pets-petid");
    expect(operationSlug("get", "/pets/{petId}", "日本語")).toBe("get-pets-petid");
    expect(operationSlug("get", "/")).toBe("get");
    expect(operationSlug("COPY", "/pets/{id}")).toBe("copy-pets-id");
  });

  it("names webhooks and callbacks after their parent", () => {
    expect(webhookSlug("newPet", "post")).toBe("webhook-newpet-post");
    expect(callbackSlug("createsubscription", "onEvent", "post")).toBe("createsubscription-callback-onevent-post");
  });

  it("dedupes in order with -2, -3 and never takes a slug another entry holds naturally", () => {
    expect(dedupeSlugs(["a", "b", "a", "a"])).toEqual(["a", "b", "a-2", "a-3"]);
    expect(dedupeSlugs(["a", "a", "a-2"])).toEqual(["a", "a-3", "a-2"]);
    expect(dedupeSlugs(["a", "x"], new Set(["a"]))).toEqual(["a-2", "x"]);
  });

  it("caps slugs at MAX_SLUG_LENGTH characters (a 1.5 MB operationId made a URL servers refuse) and dedupes 10,000 repeats", () => {
    const slug = operationSlug("get", "/a", "lorem ipsum dolor sit amet ".repeat(60_000));
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(slug).toMatch(/^lorem-ipsum-dolor-sit-amet(-[a-z]+)*$/);
    expect(slugify("a".repeat(500))).toBe("a".repeat(MAX_SLUG_LENGTH));
    const many = dedupeSlugs(Array.from({ length: 10_000 }, () => "same"));
    expect(new Set(many).size).toBe(10_000);
    expect(many.slice(0, 3)).toEqual(["same", "same-2", "same-3"]);
  });
});
