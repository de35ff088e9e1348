/**
 * @module Whether the editor's text differs from the last loaded or saved one, decided per keystroke from the
 * edits since then rather than by comparing the texts.
 *
 * CodeMirror's `Text.eq` skips subtrees the two texts share, but an edit rebuilds the inner nodes around the
 * changed leaf, so on GitHub's 13 MB description a keystroke that made the text as long as the saved one again
 * (every Backspace after a typed character) compared megabytes of it: ~20 ms of the page's main thread inside
 * the keystroke's task (issue 12, eighth round).
 */
import { ChangeSet, Text } from "@codemirror/state";

export class SavedText {
  private saved: Text;
  /** The edits from `saved` to the current text, composed; undefined when `saved` is not an earlier version of it. */
  private since: ChangeSet | undefined;

  /** `doc`: the text as loaded, which counts as saved. */
  constructor(doc: Text) {
    this.saved = doc;
    this.since = ChangeSet.empty(doc.length);
  }

  /**
   * Records that `saved` is now the saved text; `current` is the view's text. When they are the same text the
   * edits are tracked from here; otherwise (the text moved on while a save was in flight) each check compares
   * the two texts whole until the next save.
   */
  mark(saved: string, current: Text): void {
    if (current.length === saved.length && current.toString() === saved) {
      this.saved = current;
      this.since = ChangeSet.empty(current.length);
    } else {
      this.saved = Text.of(saved.split(/\r\n?|\n/));
      this.since = undefined;
    }
  }

  /** Whether `current` differs from the saved text. */
  differs(current: Text): boolean {
    if (!this.since) return !current.eq(this.saved);
    let differs = false;
    // Each changed range of the composition: its new text against the saved text it replaced.
    this.since.iterChanges((fromA, toA, _fromB, _toB, inserted) => {
      if (!differs && !inserted.eq(this.saved.slice(fromA, toA))) differs = true;
    });
    if (!differs) {
      // The same text again: track from here, so the composition does not grow with every edit ever made.
      this.saved = current;
      this.since = ChangeSet.empty(current.length);
    }
    return differs;
  }

  /** Applies one edit of the view (`changes`, from the previous text to `current`) and says whether the text now differs. */
  edit(changes: ChangeSet, current: Text): boolean {
    // Lengths that do not line up (an edit this tracker was not shown) fall back to comparing whole texts.
    if (this.since) this.since = this.since.newLength === changes.length ? this.since.compose(changes) : undefined;
    return this.differs(current);
  }
}
