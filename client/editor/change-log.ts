/**
 * @module The page's record of recent versions of the text: which changes led from one to the next, so that
 * positions computed by the worker for an older version (problems, Visual slots) land right in the current one.
 */
import type { ChangeSet, Text } from "@codemirror/state";

/** Versions kept for mapping; older results are dropped rather than mapped. */
export const MAX_VERSIONS = 400;

export class ChangeLog {
  /** The current version. Starts at 1 for the loaded text. */
  version = 1;
  private changes: ChangeSet[] = [];
  private docs: Text[] = [];
  private first = 1;

  constructor(doc: Text) {
    this.docs.push(doc);
  }

  /** Records the change from the current version to a new one and returns the new version. */
  record(changes: ChangeSet, docAfter: Text): number {
    this.changes.push(changes);
    this.docs.push(docAfter);
    this.version++;
    if (this.docs.length > MAX_VERSIONS) {
      this.changes.shift();
      this.docs.shift();
      this.first++;
    }
    return this.version;
  }

  /** The text at `version`, while it is still kept. */
  docAt(version: number): Text | undefined {
    return this.docs[version - this.first];
  }

  /**
   * Maps an offset in `version` to the current version (`assoc` -1 keeps it before text inserted right at it,
   * 1 after). Undefined when that version is no longer kept.
   */
  mapPos(pos: number, version: number, assoc: -1 | 1 = -1): number | undefined {
    if (version < this.first || version > this.version) return undefined;
    let p = pos;
    for (let i = version - this.first; i < this.changes.length; i++) p = this.changes[i].mapPos(p, assoc);
    return p;
  }
}
