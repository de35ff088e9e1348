/** @module SearchSession: one typing session reports its final query once, with the click that ended it. */
import { describe, expect, it } from "vitest";
import { SearchSession, trackingRefused, type AnalyticsEvent } from "./beacon";

function session() {
  const sent: AnalyticsEvent[][] = [];
  const s = new SearchSession("/p/demo", (_base, events) => {
    sent.push(events);
    return true;
  });
  return { s, sent };
}

describe("SearchSession", () => {
  it("reports only the final query of a typing session, once", () => {
    const { s, sent } = session();
    s.answered({ queryId: "a", q: "w", results: 9 });
    s.answered({ queryId: "b", q: "web", results: 4 });
    s.answered({ queryId: "c", q: "webhook", results: 0 });
    s.end();
    s.end();
    expect(sent).toEqual([[{ type: "search", queryId: "c", q: "webhook", results: 0 }]]);
  });

  it("sends the final query with the click, and a later end adds nothing", () => {
    const { s, sent } = session();
    s.answered({ queryId: "a", q: "pets", results: 3 });
    s.clicked(2, "/p/demo/guides/pets");
    s.end();
    expect(sent).toEqual([[{ type: "search", queryId: "a", q: "pets", results: 3 }, { type: "click", queryId: "a", position: 2, url: "/p/demo/guides/pets" }]]);
  });

  it("leaves a query handed to the results page to the server, and ignores answers without an id", () => {
    const { s, sent } = session();
    s.answered({ q: "pets", results: 3 });
    s.end();
    s.answered({ queryId: "a", q: "pets", results: 3 });
    s.handedToServer();
    s.end();
    expect(sent).toEqual([]);
  });

  it("reads Do Not Track and Global Privacy Control", () => {
    expect(trackingRefused({ doNotTrack: "1" } as unknown as Navigator)).toBe(true);
    expect(trackingRefused({ globalPrivacyControl: true } as unknown as Navigator)).toBe(true);
    expect(trackingRefused({ doNotTrack: null } as unknown as Navigator)).toBe(false);
  });
});
