/**
 * @module The streamed build's `$ref` target table (issue 12): each target resolved, read, walked and weighed once
 * per build, a slice's reach a walk over target numbers. Split from build.ts (issue 38).
 */
import { childOf, isObject, parseRef } from "../model/pointer";
import { MAX_SLICE_TARGET_CHARS, SliceTooDense, targetChars } from "../model/slice-size";
import { walkRefs } from "../model/walk-refs";
import type { WorkBudget } from "../work-budget";
import type { IndexedEntry } from "./json-index";
import type { EntryReader } from "./entry-reader";

/** The index entry a local pointer names, and the rest of the pointer (see `entryAt` in {@link build}). */
export type EntryAt = (segments: readonly string[]) => { entry: IndexedEntry | undefined; rest: string[] } | undefined;

/** One `$ref` target of a streamed build, numbered in the order first met. */
interface Target {
  /** The ref as written (`#/components/schemas/Pet`). */
  ref: string;
  /** Its pointer's segments (undefined until resolved); where its members are judged (walkRefs' base path). */
  segments?: string[];
  /** False for a target that does not resolve (or is not materialised: `#`, a whole section, an oversized member). */
  found?: boolean;
  /** Target numbers of the local refs directly inside its value, as RefClosure collects them; set once walked. */
  direct?: number[];
  /** What it adds to a page's reach (JSON characters + ref + 4, as model/slice-size.ts weighs it). */
  chars?: number;
  /** The index entry that is the whole target (the common case: `#/components/schemas/Pet`), for a quick lookup. */
  entry?: IndexedEntry;
}

/**
 * The build-wide table of `$ref` targets (issue 12): each target is resolved, read and walked ONCE per build, its
 * own outgoing refs kept as small integers, so a slice's reach is a walk over integers (a visited stamp per
 * target) instead of a copy of every closure per slice. Values are not held here: they come back through the
 * reader's bounded cache of parsed entries when a slice needs them. The reach is the same as RefClosure's over
 * the whole document: refs starting with `#` whose targets exist, followed transitively.
 */
export class TargetTable {
  private readonly ids = new Map<string, number>();
  private readonly table: Target[] = [];
  /** `seen[id] === stamp` when target `id` was met by the current slice. */
  private readonly seen: number[] = [];
  private stamp = 0;

  constructor(
    private readonly reader: EntryReader,
    private readonly entryAt: EntryAt,
    private readonly top: Record<string, unknown>,
    private readonly schemes: Record<string, unknown>,
    private readonly budget: WorkBudget,
  ) {}

  private idOf(ref: string): number {
    let id = this.ids.get(ref);
    if (id === undefined) {
      id = this.table.length;
      this.ids.set(ref, id);
      this.table.push({ ref });
    }
    return id;
  }

  /**
   * Resolves local pointer `segments` through the index, as resolvePointer does over the whole document: a `$ref`
   * met on the way is followed from the document's root (across entries), within 32 hops. The whole document,
   * `paths`, `webhooks` and a whole `components` section other than securitySchemes are not materialised: not found.
   * Entries are read as needed (see {@link resolveNow}).
   */
  async resolve(segments: readonly string[]): Promise<{ found: boolean; value: unknown }> {
    const pinned = new Map<IndexedEntry, unknown>();
    for (;;) {
      const outcome = this.resolveNow(segments, pinned);
      if (!("missing" in outcome)) return outcome;
      pinned.set(outcome.missing, (await this.reader.load(outcome.missing)).data);
    }
  }

  /**
   * {@link resolve} without reading: from the entries cached (or `pinned`), else `{ missing }`, the entry to read
   * first. A slice's targets are nearly always cached: this spares Graph beta's 1.2 M target values an await each.
   */
  resolveNow(segments: readonly string[], pinned?: Map<IndexedEntry, unknown>, hops = 0): { found: boolean; value: unknown } | { missing: IndexedEntry } {
    const missing = { found: false, value: undefined };
    const [a, b, c] = segments;
    let node: unknown;
    let rest: readonly string[];
    const named = this.entryAt(segments);
    if (named) {
      if (!named.entry) return missing;
      node = pinned?.has(named.entry) ? pinned.get(named.entry) : this.reader.peek(named.entry)?.data;
      if (node === undefined) return { missing: named.entry };
      rest = named.rest;
    } else if (a === "components" && b === "securitySchemes" && c === undefined) {
      node = this.schemes;
      rest = [];
    } else if (a !== undefined && a !== "paths" && a !== "webhooks" && a !== "components" && Object.hasOwn(this.top, a)) {
      node = this.top[a];
      rest = segments.slice(1);
    } else return missing;
    for (let i = 0; i < rest.length; i++) {
      const next = childOf(node, rest[i]);
      if (next === undefined) {
        if (!isObject(node) || typeof node.$ref !== "string" || hops >= 32) return missing;
        const inner = parseRef(node.$ref);
        if (inner.kind !== "local") return missing;
        return this.resolveNow([...inner.segments, ...rest.slice(i)], pinned, hops + 1);
      }
      node = next;
    }
    return { found: true, value: node };
  }

  /** Resolves target `id` the first time (reads, walks and weighs it once); later calls cost nothing. */
  private async describe(id: number): Promise<Target> {
    const t = this.table[id];
    if (t.direct !== undefined || t.found === false) return t;
    const parsed = parseRef(t.ref);
    if (parsed.kind !== "local" || parsed.segments.length === 0) {
      t.found = false;
      return t;
    }
    const { found, value } = await this.resolve(parsed.segments);
    t.found = found;
    if (!found) return t;
    t.segments = parsed.segments;
    const direct = new Set<number>();
    walkRefs(value, (r) => r.startsWith("#") && direct.add(this.idOf(r)), parsed.segments, this.budget);
    t.direct = [...direct];
    t.chars = targetChars(t.ref, value);
    const named = this.entryAt(parsed.segments);
    if (named?.entry && named.rest.length === 0) t.entry = named.entry;
    return t;
  }

  /**
   * Every local ref reachable from `roots`, keyed as written (sorted), mapped to its target: what
   * RefClosure.collect returns over the whole document. Spends one unit per target reached.
   * @throws SliceTooDense when the targets' characters pass {@link MAX_SLICE_TARGET_CHARS} (the page could not be
   * read), as the whole build's weighing refuses such a definition.
   */
  async collect(roots: readonly unknown[], slug: string): Promise<Record<string, unknown>> {
    const stamp = ++this.stamp;
    const stack: number[] = [];
    const enqueue = (id: number) => {
      if (this.seen[id] === stamp) return;
      this.seen[id] = stamp;
      stack.push(id);
    };
    for (const root of roots) walkRefs(root, (r) => r.startsWith("#") && enqueue(this.idOf(r)), [], this.budget);
    const reached: Target[] = [];
    let chars = 0;
    while (stack.length) {
      const id = stack.pop()!;
      this.budget.spend("collecting $ref targets");
      const known = this.table[id];
      const t = known.direct !== undefined || known.found === false ? known : await this.describe(id);
      if (!t.found) continue;
      reached.push(t);
      chars += t.chars!;
      if (chars > MAX_SLICE_TARGET_CHARS) throw new SliceTooDense(slug, reached.length, chars);
      for (const d of t.direct!) enqueue(d);
    }
    reached.sort((x, y) => (x.ref < y.ref ? -1 : x.ref > y.ref ? 1 : 0));
    const refs: Record<string, unknown> = {};
    for (const t of reached) {
      const data = t.entry && this.reader.peek(t.entry)?.data;
      if (data !== undefined) {
        refs[t.ref] = data;
        continue;
      }
      const now = this.resolveNow(t.segments!);
      refs[t.ref] = ("missing" in now ? await this.resolve(t.segments!) : now).value;
    }
    return refs;
  }
}
