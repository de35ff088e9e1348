import { afterEach, describe, expect, it, vi } from "vitest";
import { afterCommit } from "../worker/publish/publish-definition";

describe("afterCommit: nothing after the D1 commit fails a publish", () => {
  afterEach(() => vi.restoreAllMocks());

  it("passes the step's answer through", () => {
    const answer = { status: 201 as const, json: "{}", timings: { "d1-write": 3 } };
    expect(afterCommit(() => answer, { publication: 1, api: "a", publishedAt: "t" })).toBe(answer);
  });

  it("turns a throwing step into a 201 naming the live publication, and logs it", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = afterCommit(() => {
      throw new URIError("URI malformed");
    }, { publication: 42, api: "pets", publishedAt: "2026-11-23T00:00:00.000Z" });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.json)).toMatchObject({ publication: 42, api: "pets", publishedAt: "2026-11-23T00:00:00.000Z" });
    expect(error).toHaveBeenCalledOnce();
  });
});
