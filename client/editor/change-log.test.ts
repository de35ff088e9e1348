import { describe, expect, it } from "vitest";
import { ChangeSet, Text } from "@codemirror/state";
import { ChangeLog, MAX_VERSIONS } from "./change-log";

describe("ChangeLog", () => {
  it("maps offsets of an older version through the edits since", () => {
    let doc = Text.of(["openapi: 3.1.0", "info: {}"]);
    const log = new ChangeLog(doc);
    const insert = ChangeSet.of({ from: 0, insert: "# c\n" }, doc.length);
    doc = insert.apply(doc);
    expect(log.record(insert, doc)).toBe(2);
    const del = ChangeSet.of({ from: 4, to: 19 }, doc.length);
    doc = del.apply(doc);
    log.record(del, doc);
    expect(doc.toString()).toBe("# c\ninfo: {}");
    expect(log.mapPos(15, 1)).toBe(4); // "info" in version 1 → after the comment, with the first line gone
    expect(log.mapPos(0, 1, -1)).toBe(0); // stays before text inserted right at it
    expect(log.mapPos(0, 1, 1)).toBe(4);
    expect(log.mapPos(0, 2, -1)).toBe(0);
    expect(log.docAt(2)?.line(2).text).toBe("openapi: 3.1.0");
  });

  it("forgets versions past MAX_VERSIONS", () => {
    let doc = Text.of(["x"]);
    const log = new ChangeLog(doc);
    for (let i = 0; i < MAX_VERSIONS + 5; i++) {
      const c = ChangeSet.of({ from: 0, insert: "a" }, doc.length);
      doc = c.apply(doc);
      log.record(c, doc);
    }
    expect(log.docAt(1)).toBeUndefined();
    expect(log.mapPos(0, 1)).toBeUndefined();
    expect(log.mapPos(0, log.version)).toBe(0);
    expect(log.docAt(log.version)?.length).toBe(MAX_VERSIONS + 6);
  });
});
