/** @module Backlog grouping with the engine's normalisation: plurals, typos, split words and curated synonyms. */
import { describe, expect, it } from "vitest";
import { groupNoHitQueries, queryStems } from "./backlog";
import { embeddedGuideWriter } from "./guide-writer";
import type { NoHitQuery } from "./portal-analytics";

const row = (q: string, count: number, kind: NoHitQuery["kind"] = "search", lastSeen = "2026-11-01"): NoHitQuery => ({ q, kind, count, lastSeen, gated: false });

describe("groupNoHitQueries", () => {
  it("puts webhok, webhooks and web hook in one group named by the most asked", () => {
    const groups = groupNoHitQueries([row("webhooks", 9), row("webhok", 4, "search", "2026-11-03"), row("web hook", 2, "assistant"), row("rate limits", 3), row("sdk for go", 1)]);
    const hook = groups.find((g) => g.label === "webhooks")!;
    expect(hook.queries.map((q) => q.q).sort()).toEqual(["web hook", "webhok", "webhooks"]);
    expect(hook).toMatchObject({ count: 15, lastSeen: "2026-11-03", kinds: ["search", "assistant"] });
    expect(groups.map((g) => g.label)).toEqual(["webhooks", "rate limits", "sdk for go"]);
    // Ids are stable for the same input and distinct per group.
    expect(groupNoHitQueries([row("webhooks", 9), row("webhok", 4)])[0].id).toBe(hook.id);
    expect(new Set(groups.map((g) => g.id)).size).toBe(3);
  });

  it("groups word order and inflections, keeps unrelated short words apart", () => {
    const groups = groupNoHitQueries([row("retry webhook", 3), row("webhooks retries", 2), row("cat", 2), row("car", 1)]);
    expect(groups.map((g) => g.queries.length)).toEqual([2, 1, 1]);
    expect(queryStems("How do I retry the Webhooks?")).toEqual(["retri", "webhook"]);
  });

  it("groups curated API synonyms (auth ~ authentication)", () => {
    const groups = groupNoHitQueries([row("authentication token", 2), row("auth token", 1)]);
    expect(groups).toHaveLength(1);
  });
});

describe("embeddedGuideWriter", () => {
  it("writes front matter, the evidence first, and an outline from the nearest units, escaping reader text", async () => {
    const [group] = groupNoHitQueries([row("webhooks", 9), row("web hook <script>", 2)]);
    const d = await embeddedGuideWriter.write({ group, date: "2026-11-27", nearby: [
      { kind: "operation", title: "Create a subscription", url: "/p/demo/reference/pets/1.0.0/createsub", method: "POST", path: "/subscriptions" },
      { kind: "guide", title: "Events", url: "/p/demo/guides/events" },
    ] });
    expect(d.title).toBe("Webhooks");
    expect(d.body.startsWith('---\ntitle: "Webhooks"\n')).toBe(true);
    expect(d.body.indexOf("Readers asked for this 11 times")).toBeLessThan(d.body.indexOf("# Webhooks"));
    expect(d.body).toContain("- [`POST /subscriptions`](/p/demo/reference/pets/1.0.0/createsub): Create a subscription");
    expect(d.body).toContain("- [Events](/p/demo/guides/events)");
    expect(d.body).not.toContain("<script>");
  });
});
