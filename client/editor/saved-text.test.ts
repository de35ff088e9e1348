import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ChangeSet, Text } from "@codemirror/state";
import { SavedText } from "./saved-text";

/** A text of many lines, so CodeMirror keeps it as a tree (edits rebuild inner nodes, as on large files). */
const BASE = Array.from({ length: 3000 }, (_, i) => `line ${i} ${"ab".repeat(i % 7)}`).join("\n");

describe("SavedText", () => {
  it("says the text differs exactly when it is not the saved text (random edits, undos, saves)", () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), remove: fc.integer({ min: 0, max: 3 }), insert: fc.constantFrom("", "x", "\n", "ab", "line 1") }),
      // Undo the last edit (a typed character deleted again is the common way back to the saved text).
      fc.constant({ kind: "undo" as const }),
      fc.record({ kind: fc.constant("save" as const), stale: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 25 }), (steps) => {
        let doc = Text.of(BASE.split("\n"));
        let saved = doc.toString();
        const tracker = new SavedText(doc);
        const history: ChangeSet[] = [];
        const apply = (changes: ChangeSet) => {
          const before = doc;
          doc = changes.apply(doc);
          history.push(changes.invert(before));
          expect(tracker.edit(changes, doc)).toBe(doc.toString() !== saved);
        };
        for (const s of steps) {
          if (s.kind === "edit") {
            const from = s.at % (doc.length + 1);
            apply(ChangeSet.of({ from, to: Math.min(doc.length, from + s.remove), insert: s.insert }, doc.length));
          } else if (s.kind === "undo") {
            const inverse = history.pop();
            if (inverse) {
              doc = inverse.apply(doc);
              expect(tracker.edit(inverse, doc)).toBe(doc.toString() !== saved);
            }
          } else {
            // A save of the current text, or of an older one (the text moved on while the save was in flight).
            saved = s.stale && history.length ? history.at(-1)!.apply(doc).toString() : doc.toString();
            tracker.mark(saved, doc);
            expect(tracker.differs(doc)).toBe(doc.toString() !== saved);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a character typed and deleted again is the saved text", () => {
    let doc = Text.of(BASE.split("\n"));
    const tracker = new SavedText(doc);
    const at = Math.floor(doc.length / 2);
    const typed = ChangeSet.of({ from: at, insert: "x" }, doc.length);
    doc = typed.apply(doc);
    expect(tracker.edit(typed, doc)).toBe(true);
    const deleted = ChangeSet.of({ from: at, to: at + 1 }, doc.length);
    doc = deleted.apply(doc);
    expect(tracker.edit(deleted, doc)).toBe(false);
    // Deleting another character and typing a different one keeps it changed.
    const other = ChangeSet.of({ from: 10, to: 11, insert: "Z" }, doc.length);
    doc = other.apply(doc);
    expect(tracker.edit(other, doc)).toBe(true);
  });
});
