/**
 * @module One open definition: the CodeMirror view that owns the text, the lint worker that follows it, and
 * a second instance of the same worker for the Visual view's model, structural edits and conversion (so a
 * large file's model never delays its diagnostics). Source and Visual edits both become CodeMirror transactions, so each view sees the
 * other's edits at once and undo covers both.
 */
import type { LintRuleset } from "../../worker/openapi/lint/ruleset";
import type { Diagnostic } from "@codemirror/lint";
import { Annotation, Compartment, EditorSelection, EditorState, Transaction } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import type { ViewUpdate } from "@codemirror/view";
import type { RestOfText } from "./api-client";
import { ChangeLog } from "./change-log";
import { editorExtensions, languageCompartment, languageFor } from "./cm-setup";
import { LARGE_DOC_CHARS } from "./plain-highlight";
import { diagnosticsUpdate } from "./diagnostics";
import { detectFormat } from "./format";
import { fromPointer, isWithin, toPointer } from "./pointer";
import { problemFieldPointer, problemRange, sameOutline, sameProblems } from "./problems";
import type { EditorProblem, FromWorker, SourceFormat, StructuralOp, TextChange, VisualModel } from "./protocol";
import { scalarSource } from "./scalar-text";
import type { ScalarValue } from "./scalar-text";
import { SavedText } from "./saved-text";
import { Store } from "./store";
import { WorkerClient } from "./worker-client";

export type ViewMode = "source" | "visual" | "split";

export interface SessionState {
  version: number;
  format: SourceFormat;
  problems: EditorProblem[];
  problemsVersion: number;
  errors: number;
  warnings: number;
  model?: VisualModel;
  /** Set when a problem is selected: the Visual view moves to this pointer's field. */
  reveal?: { pointer: string; seq: number };
  /** Text differs from the last loaded or saved one. */
  dirty: boolean;
  /** The rest of the definition is still arriving: the text is read-only and not linted yet. */
  loading?: boolean;
  notice?: { kind: "info" | "error"; text: string };
}

/** Edit-to-diagnostics latencies, for the benchmark and tests (milliseconds, most recent last). */
export interface SessionStats {
  lintLatencies: number[];
  lintMs: number[];
  /** Key press to the next animation frame after the edit (main-thread cost of typing). */
  keyToFrameMs: number[];
  /** Time (ms since navigation) of the first frame painted with the Source view's text in it. */
  sourcePaintAt?: number;
  /** `performance.now()` when the first problems arrived. */
  firstProblemsAt?: number;
  /** One entry per lint result, when the page was opened for the benchmark (`sessionStorage` `portico:bench`). */
  trace?: LintTrace[];
}

/**
 * Where one keystroke's diagnostics spent their time, all on the page's `performance.now()` clock (ms). The
 * worker's three times come from its wall clock ({@link LintTiming}); `renderedAt` is after Preact's re-render
 * (a microtask queued behind it), `paintedAt` a task after the next frame's callback (that frame painted).
 */
export interface LintTrace {
  version: number;
  /** The key event's time stamp, when the edit came from a key. */
  keyAt?: number;
  /** The edit was posted to the worker (CodeMirror's update listener). */
  postAt?: number;
  workerEditAt?: number;
  workerStartAt?: number;
  workerPostAt?: number;
  lintMs: number;
  receivedAt: number;
  /** Positions mapped to the current version. */
  mappedAt: number;
  /** CodeMirror's lint state (decorations, gutter markers) updated. */
  appliedAt: number;
  /** The session's store set (problem table, counts); its Preact re-render follows in a microtask. */
  storedAt: number;
  renderedAt?: number;
  paintedAt?: number;
  problems: number;
  /** CodeMirror's lint state was replaced (false: its mapped markers already were the result, nothing dispatched). */
  dispatched: boolean;
}

/** The benchmark opens the page with this `sessionStorage` key set to "1": the session then records {@link LintTrace}s. */
export const BENCH_TRACE_KEY = "portico:bench";

function traceWanted(): boolean {
  try {
    return typeof sessionStorage !== "undefined" && sessionStorage.getItem(BENCH_TRACE_KEY) === "1";
  } catch {
    return false;
  }
}

/** Marks the transaction that appends the rest of a streamed definition (not an edit: no version, no undo). */
const loadRest = Annotation.define<boolean>();

const SEVERITY: Record<EditorProblem["severity"], Diagnostic["severity"]> = { error: "error", warn: "warning", info: "info", hint: "hint" };

export class EditorSession {
  readonly store: Store<SessionState>;
  readonly view: EditorView;
  readonly stats: SessionStats = { lintLatencies: [], lintMs: [], keyToFrameMs: [] };
  private lastKeyAt: number | undefined;
  /** Benchmark tracing (see {@link LintTrace}): the key time and post time of each edit version. */
  private readonly tracing = traceWanted();
  private readonly editKeyAt = new Map<number, number | undefined>();
  private log: ChangeLog;
  private worker: WorkerClient | undefined;
  private docWorker: WorkerClient | undefined;
  /** The document worker has been sent the text (`open`); edits go to it only from then on. */
  private docOpened = false;
  private readonly editStarted = new Map<number, number>();
  private visualPointers: string[] = [];
  private visualActive = false;
  private modelTimer: ReturnType<typeof setTimeout> | undefined;
  private modelInFlight = false;
  private modelAgain = false;
  private lastModelMs = 0;
  /** Whether the text differs from the last loaded or saved one, from the edits since (not a whole-text comparison). */
  private saved: SavedText;
  /** Values typed into fields that had no source slot yet, waiting for the structural edit and a new model. */
  private readonly pendingValues = new Map<string, ScalarValue>();
  private revealSeq = 0;
  private readonly readOnly = new Compartment();
  /** Settles once the whole text is in the view (at once unless it was streamed). */
  private readonly loaded: Promise<void>;
  /** `loaded` has settled: requests then go out synchronously, as before streaming existed (no reordering). */
  private isLoaded = false;
  private destroyed = false;
  /** The view uses the viewport-only highlighter (the text has `LARGE_DOC_CHARS` or more). */
  private large: boolean;
  /** Resolves once the view's first frame has been painted (`mounted`). */
  private framePainted!: () => void;
  private readonly firstFrame = new Promise<void>((resolve) => (this.framePainted = resolve));

  /**
   * @param text The definition, or its first part when `rest` is given.
   * @param rest The rest of a streamed definition: until it arrives the view shows `text` read-only (first
   *   paint does not wait for 13 MB), then the rest is appended and the lint worker opens on the whole text.
   */
  constructor(text: string, private readonly workerUrl: string, private readonly onSave: () => void, lintRuleset?: LintRuleset, rest?: Promise<RestOfText>) {
    const format = detectFormat(text);
    this.large = text.length >= LARGE_DOC_CHARS;
    this.view = new EditorView({
      state: EditorState.create({
        doc: text,
        extensions: editorExtensions(format, () => this.onSave(), [EditorView.updateListener.of((u) => this.onUpdate(u)), this.readOnly.of(rest ? EditorState.readOnly.of(true) : [])], this.large),
      }),
    });
    this.saved = new SavedText(this.view.state.doc);
    this.log = new ChangeLog(this.view.state.doc);
    this.view.dom.addEventListener("keydown", (e) => (this.lastKeyAt = e.timeStamp), { capture: true });
    this.store = new Store<SessionState>({ version: 1, format, problems: [], problemsVersion: 0, errors: 0, warnings: 0, dirty: false, loading: !!rest });
    const open = (message: { text: string } | { bytes: ArrayBuffer }) => {
      // Started here, not before first paint: a streamed definition's first part shows without waiting for it.
      this.worker = new WorkerClient(workerUrl, (m) => this.onProblems(m), (message) => this.store.set({ notice: { kind: "error", text: `Linting stopped: ${message}` } }));
      // Bytes are transferred, not copied: the worker decodes them (a 13 MB string would be cloned on this thread).
      this.worker.post({ type: "open", version: 1, ...message, ...(lintRuleset ? { ruleset: lintRuleset } : {}), ...(this.tracing ? { timing: true } : {}) }, "bytes" in message ? [message.bytes] : []);
      this.editStarted.set(1, performance.now());
    };
    if (!rest) {
      open({ text });
      this.isLoaded = true;
      this.loaded = Promise.resolve();
      return;
    }
    const firstPartHasCR = text.includes("\r");
    // The rest is appended after the view's first frame: it may have arrived already (the page's first script
    // began the request before this bundle ran), and appending 13 MB first would hold that frame back.
    this.loaded = Promise.all([rest, this.firstFrame]).then(
      ([delivered]) => {
        const r = delivered.take();
        if (this.destroyed) return;
        // Appended as one transaction that is not an edit (no version, no undo step), then the text becomes editable.
        this.view.dispatch({ changes: { from: this.view.state.doc.length, insert: r.text }, annotations: [loadRest.of(true), Transaction.addToHistory.of(false)] });
        const format = detectFormat(this.view.state.doc.sliceString(0, 200));
        this.large = this.view.state.doc.length >= LARGE_DOC_CHARS;
        // A large definition drops the Lezer language here, before its parser has gone past the first part.
        this.view.dispatch({ effects: [this.readOnly.reconfigure([]), ...(this.large ? [languageCompartment.reconfigure(languageFor(format, true))] : [])] });
        this.saved = new SavedText(this.view.state.doc);
        this.log = new ChangeLog(this.view.state.doc);
        this.isLoaded = true;
        this.store.set({ loading: false, dirty: false, format });
        // The Visual view is waiting (Split view): its worker, started while the rest streamed in, gets a copy of
        // the bytes by transfer too (copying 13 MB of bytes here is cheaper than the text's join and clone).
        // Not with a CR in the text: CodeMirror's lines drop it, and the Visual slots are offsets into the view's text.
        const waiting = this.visualActive && this.docWorker && !this.docOpened;
        const docBytes = waiting && !firstPartHasCR && !r.text.includes("\r") ? r.bytes.slice(0) : undefined;
        open({ bytes: r.bytes });
        if (docBytes) this.openDocWorker({ bytes: docBytes });
        else if (waiting) this.openDocWorker({ text: this.text() });
      },
      (e: unknown) => this.store.set({ loading: true, notice: { kind: "error", text: `The definition did not load completely: ${e instanceof Error ? e.message : String(e)}. Reload the page.` } }),
    );
  }

  /** Called once the view is in the page: records when its first frame (with text) is painted. */
  mounted(): void {
    if (this.stats.sourcePaintAt !== undefined) return;
    // A frame callback runs just before that frame is painted (a timer after it could wait behind other work).
    requestAnimationFrame(() => {
      this.stats.sourcePaintAt ??= performance.now();
      // A task after the frame callback: the frame has been painted by then.
      setTimeout(this.framePainted, 0);
    });
  }

  text(): string {
    return this.view.state.doc.toString();
  }

  /** Marks `text` (by default the current text) as saved, after a successful publish. */
  markSaved(text = this.text()): void {
    const current = this.view.state.doc;
    this.saved.mark(text, current);
    this.store.set({ dirty: this.saved.differs(current) });
  }

  private onUpdate(update: ViewUpdate): void {
    if (!update.docChanged || update.transactions.some((tr) => tr.annotation(loadRest))) return;
    const changes: TextChange[] = [];
    update.changes.iterChanges((fromA, toA, _fromB, _toB, inserted) => changes.push({ from: fromA, to: toA, insert: inserted.toString() }));
    const version = this.log.record(update.changes, update.state.doc);
    this.editStarted.set(version, performance.now());
    if (this.tracing) this.editKeyAt.set(version, this.lastKeyAt);
    this.worker?.post({ type: "edit", version, changes });
    if (this.docOpened) this.docWorker?.post({ type: "edit", version, changes });
    const keyAt = this.lastKeyAt;
    this.lastKeyAt = undefined;
    if (keyAt !== undefined) requestAnimationFrame(() => this.stats.keyToFrameMs.push(performance.now() - keyAt));
    const format = detectFormat(update.state.doc.sliceString(0, 200));
    const dirty = this.saved.edit(update.changes, update.state.doc);
    // A tenth of slack before switching back, so typing around the threshold does not swap languages per key.
    const large = update.state.doc.length >= (this.large ? LARGE_DOC_CHARS * 0.9 : LARGE_DOC_CHARS);
    if (format !== this.store.state.format || large !== this.large) {
      this.large = large;
      // No dispatch inside an update listener: switch the language right after.
      queueMicrotask(() => this.view.dispatch({ effects: languageCompartment.reconfigure(languageFor(format, large)) }));
    }
    this.store.set({ version, dirty, format });
    this.scheduleModel();
  }

  private onProblems(m: Extract<FromWorker, { type: "problems" }>): void {
    const receivedAt = performance.now();
    this.stats.firstProblemsAt ??= receivedAt;
    const started = this.editStarted.get(m.version);
    if (started !== undefined) {
      this.stats.lintLatencies.push(performance.now() - started);
      this.stats.lintMs.push(m.lintMs);
      for (const v of this.editStarted.keys()) if (v <= m.version) this.editStarted.delete(v);
    }
    const doc = this.log.docAt(m.version);
    // Too old to map (hundreds of edits since): keep the markers CodeMirror has been mapping; a fresher result follows.
    if (!doc) return;
    const diagnostics: Diagnostic[] = [];
    {
      for (const p of m.problems) {
        const r = problemRange(doc, p);
        const from = this.log.mapPos(r.from, m.version, -1);
        const to = this.log.mapPos(r.to, m.version, 1);
        if (from === undefined || to === undefined) continue;
        diagnostics.push({ from, to: Math.max(from, to), severity: SEVERITY[p.severity], message: p.message, source: p.rule });
      }
    }
    const mappedAt = performance.now();
    // Usually the markers CodeMirror mapped through the edit are already the result: then nothing is redrawn.
    const update = diagnosticsUpdate(this.view.state, diagnostics);
    if (update) this.view.dispatch(update);
    const appliedAt = performance.now();
    // Unchanged problems keep the old array, so the problem table and the Visual view's grouping are not redone.
    const problems = sameProblems(this.store.state.problems, m.problems) ? this.store.state.problems : m.problems;
    this.store.set({ problems, problemsVersion: m.version, errors: m.errors, warnings: m.warnings });
    if (this.tracing) this.trace(m, started, receivedAt, mappedAt, appliedAt, update !== undefined);
  }

  /** Records a {@link LintTrace} for the benchmark; its last two times are filled in after the re-render and the frame. */
  private trace(m: Extract<FromWorker, { type: "problems" }>, postAt: number | undefined, receivedAt: number, mappedAt: number, appliedAt: number, dispatched: boolean): void {
    const local = (wall: number | undefined) => (wall === undefined ? undefined : wall - performance.timeOrigin);
    const entry: LintTrace = {
      version: m.version,
      keyAt: this.editKeyAt.get(m.version),
      postAt,
      workerEditAt: local(m.timing?.editAt),
      workerStartAt: local(m.timing?.startAt),
      workerPostAt: local(m.timing?.postAt),
      lintMs: m.lintMs,
      receivedAt,
      mappedAt,
      appliedAt,
      storedAt: performance.now(),
      problems: m.problems.length,
      dispatched,
    };
    for (const v of this.editKeyAt.keys()) if (v <= m.version) this.editKeyAt.delete(v);
    (this.stats.trace ??= []).push(entry);
    // Preact's re-render was queued as a microtask by the store's listeners: this one runs after it.
    queueMicrotask(() => (entry.renderedAt = performance.now()));
    requestAnimationFrame(() => setTimeout(() => (entry.paintedAt = performance.now()), 0));
  }

  /** Moves the Source cursor to a problem's position and asks the Visual view to show its field. */
  revealProblem(p: EditorProblem, focusSource: boolean): void {
    const version = this.store.state.problemsVersion;
    const doc = this.log.docAt(version) ?? this.view.state.doc;
    const r = problemRange(doc, p);
    const pos = this.log.mapPos(r.from, version, -1) ?? Math.min(r.from, this.view.state.doc.length);
    this.view.dispatch({ selection: EditorSelection.cursor(pos), effects: EditorView.scrollIntoView(pos, { y: "center" }) });
    if (focusSource) this.view.focus();
    this.store.set({ reveal: { pointer: problemFieldPointer(p), seq: ++this.revealSeq } });
  }

  /** Moves the Source cursor to the line of a node shown in the Visual view (Split view follows focus). */
  revealPointer(pointer: string): void {
    const model = this.store.state.model;
    const slot = model?.slots[pointer];
    const line = model?.lines[pointer];
    if (!model) return;
    let pos: number | undefined;
    if (slot) pos = this.log.mapPos(slot.from, model.version, -1);
    else if (line) {
      const doc = this.log.docAt(model.version);
      if (doc && line <= doc.lines) pos = this.log.mapPos(doc.line(line).from, model.version, -1);
    }
    if (pos === undefined) return;
    this.view.dispatch({ selection: EditorSelection.cursor(pos), effects: EditorView.scrollIntoView(pos, { y: "center" }) });
  }

  /** The Visual view shows these nodes (or none when hidden); keeps the model fresh for them. */
  setVisual(active: boolean, pointers: string[]): void {
    const changed = active !== this.visualActive || pointers.join("\n") !== this.visualPointers.join("\n");
    this.visualActive = active;
    this.visualPointers = pointers;
    if (changed && active) this.refreshModel();
  }

  /**
   * The worker that answers model, structural and conversion requests, started on first use (or while a
   * streamed definition loads, by {@link startDocWorker}) and given the text once it is whole.
   */
  private documentWorker(): WorkerClient {
    const worker = this.startDocWorker();
    if (!this.docOpened) this.openDocWorker({ text: this.text() });
    return worker;
  }

  /** Starts the document worker without a text: its script loads and compiles meanwhile. */
  private startDocWorker(): WorkerClient {
    this.docWorker ??= new WorkerClient(this.workerUrl, () => {}, (message) => this.store.set({ notice: { kind: "error", text: `The Visual view stopped: ${message}` } }));
    return this.docWorker;
  }

  /** Opens the document worker on the current version's text (or its bytes, transferred). */
  private openDocWorker(message: { text: string } | { bytes: ArrayBuffer }): void {
    this.startDocWorker().post({ type: "open", version: this.log.version, ...message, lint: false }, "bytes" in message ? [message.bytes] : []);
    this.docOpened = true;
  }

  private scheduleModel(): void {
    if (!this.visualActive) return;
    clearTimeout(this.modelTimer);
    // Parsing a large file takes a while in the worker: wait for typing to pause in proportion.
    this.modelTimer = setTimeout(() => this.refreshModel(), Math.min(1000, Math.max(40, this.lastModelMs * 2)));
  }

  private async refreshModel(): Promise<void> {
    if (!this.isLoaded) {
      this.startDocWorker();
      await this.loaded;
    }
    if (this.modelInFlight) {
      this.modelAgain = true;
      return;
    }
    this.modelInFlight = true;
    const started = performance.now();
    const reply = await this.documentWorker().request<"model">({ type: "model", version: this.log.version, pointers: this.visualPointers });
    this.lastModelMs = performance.now() - started;
    this.modelInFlight = false;
    // An unchanged outline keeps its array: what is memoised on it (navigation, problems by section) stays.
    const previous = this.store.state.model?.outline;
    if (previous && sameOutline(previous, reply.model.outline)) reply.model.outline = previous;
    this.store.set({ model: reply.model });
    this.flushPending(reply.model);
    if (this.modelAgain) {
      this.modelAgain = false;
      void this.refreshModel();
    }
  }

  /** Writes a scalar typed into a Visual field: in place when it exists, else through a structural edit. */
  setValue(pointer: string, value: ScalarValue): void {
    const model = this.store.state.model;
    const slot = model?.slots[pointer];
    if (model && slot) {
      const from = this.log.mapPos(slot.from, model.version, -1);
      const to = this.log.mapPos(slot.to, model.version, 1);
      if (from !== undefined && to !== undefined) {
        this.view.dispatch({ changes: { from, to, insert: scalarSource(value, slot) }, userEvent: "input.visual" });
        return;
      }
    }
    const waiting = this.pendingValues.has(pointer);
    this.pendingValues.set(pointer, value);
    if (!waiting) void this.structural({ op: "set", path: fromPointer(pointer), value });
  }

  private flushPending(model: VisualModel): void {
    for (const [pointer, value] of this.pendingValues) {
      if (!model.slots[pointer]) continue;
      this.pendingValues.delete(pointer);
      if (model.values[pointer] !== value && lookup(model, pointer) !== value) this.setValue(pointer, value);
    }
  }

  /** Applies a structural edit (add, delete, rename, replace) computed by the worker; retries if the text moved on. */
  async structural(op: StructuralOp, attempts = 3): Promise<boolean> {
    if (!this.isLoaded) await this.loaded;
    const reply = await this.documentWorker().request<"structural">({ type: "structural", version: this.log.version, op });
    if (reply.error === "stale" && attempts > 1) return this.structural(op, attempts - 1);
    if (!reply.change || reply.version !== this.log.version) {
      const target = toPointer(op.path);
      for (const [pointer] of this.pendingValues) if (isWithin(pointer, target)) this.pendingValues.delete(pointer);
      this.store.set({ notice: { kind: "error", text: reply.error && reply.error !== "stale" ? reply.error : "The edit could not be applied; try again." } });
      return false;
    }
    this.view.dispatch({ changes: reply.change, userEvent: "input.visual" });
    void this.refreshModel();
    return true;
  }

  /** Converts the whole text between YAML and JSON (one undoable change). */
  async convert(to: SourceFormat): Promise<void> {
    if (!this.isLoaded) await this.loaded;
    const reply = await this.documentWorker().request<"convert">({ type: "convert", version: this.log.version, to });
    if (reply.text === undefined || reply.version !== this.log.version) {
      this.store.set({ notice: { kind: "error", text: reply.error && reply.error !== "stale" ? reply.error : "The text changed during conversion; try again." } });
      return;
    }
    this.view.dispatch({ changes: { from: 0, to: this.view.state.doc.length, insert: reply.text }, userEvent: "input.convert" });
    const lost = reply.lostComments ? ` ${reply.lostComments} comment line${reply.lostComments === 1 ? " was" : "s were"} dropped (JSON has no comments).` : "";
    this.store.set({ notice: { kind: "info", text: `Converted to ${to.toUpperCase()}.${lost}` } });
  }

  destroy(): void {
    this.destroyed = true;
    clearTimeout(this.modelTimer);
    this.worker?.terminate();
    this.docWorker?.terminate();
    this.view.destroy();
  }
}

function lookup(model: VisualModel, pointer: string): unknown {
  for (const [base, value] of Object.entries(model.values)) {
    if (pointer === base) return value;
    if (pointer.startsWith(base + "/")) return fromPointer(pointer.slice(base.length)).reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), value);
  }
  return undefined;
}
