import { describe, expect, it } from "vitest";
import { callbackSlug, dedupeSlugs, operationSlug, slugify, webhookSlug } from "./slug";

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
});
