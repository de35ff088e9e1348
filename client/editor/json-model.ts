/**
 * @module The Visual view's model for JSON texts without the `yaml` syntax tree: the text is checked with
 * `JSON.parse` (RFC 8259) and then read through the editor's one JSON structure index, {@link JsonLive} (the lint
 * session's too), which finds a container's members and their offsets on demand, skipping over every value the
 * outline and the requested pointers do not look into. Parsing GitHub's 13 MB description with `yaml` took about
 * 9 s; this reads the same outline in a few hundred milliseconds.
 *
 * The result is the same {@link VisualModel} that `visual-model.ts` builds from the `yaml` Document (the same
 * outline, values, slots and lines; `json-model.test.ts` compares both on the corpus), so forms edit exactly as
 * before. Texts that are not valid JSON are not handled here ({@link buildJsonModel} returns undefined).
 *
 * The reading of the last text is kept: another request at the same text reads only the requested nodes, and a
 * text changed inside one value (typing in a description, a number, an item) is applied to it with
 * {@link JsonLive.reparse}, which checks only the edited value, instead of reading the whole text again.
 */
import { toPointer, fromPointer } from "./pointer";
import type { Segment } from "./pointer";
import type { OutlineEntry, ScalarSlot, SpecVersion, VisualModel } from "./protocol";
import { METHODS_FOR_FORMS } from "./methods";
import { detectSpecVersion } from "./yaml-source";
import { JsonLive, type JsonMember, type JsonNode } from "../../worker/openapi/lint/source/json-live";

/** What a text yields once, whatever pointers are asked for: kept for the last text read (same version). */
interface Reading {
  json: JsonLive;
  specVersion?: SpecVersion;
  outline: OutlineEntry[];
}

let last: { text: string; reading: Reading | undefined } | undefined;

/**
 * Reads `text` as JSON once per text: undefined when `JSON.parse` refuses it. The reading of the last text is
 * kept, so the page's model requests at one version (the Visual view moving between sections) scan only the
 * requested nodes. Strings are compared by identity first, so an unchanged text costs nothing to recognise.
 */
function read(text: string): Reading | undefined {
  if (last?.text === text) return last.reading;
  let reading = last?.reading ? readAgain(last.text, last.reading, text) : undefined;
  if (!reading) {
    try {
      JSON.parse(text);
      reading = { json: new JsonLive(text), outline: [] };
    } catch {
      reading = undefined;
    }
  }
  if (reading && reading.json.root.kind === "object") {
    const { json } = reading;
    const rootScalars = json.members(json.root).filter((m) => m.value.kind === "scalar");
    reading.specVersion = detectSpecVersion(Object.fromEntries(rootScalars.map((m) => [m.key, json.scalar(m.value)])));
    // From the nodes already read (after an edit inside a string, all of them): a few milliseconds for GitHub.
    reading.outline = outlineOf(json, reading.specVersion);
  }
  last = { text, reading };
  return reading;
}

/**
 * The reading of `text` from the reading of `before` when the two differ inside one value that still parses on
 * its own (typing in a description, a summary, a number): the change, found as the common prefix and suffix, is
 * applied to the kept index by {@link JsonLive.reparse}, which re-parses only that value, so neither `JSON.parse`
 * of the whole text nor a new scan is needed. Undefined for any other change (a key, a separator, the root), which
 * is then read afresh.
 */
function readAgain(before: string, reading: Reading, text: string): Reading | undefined {
  const from = commonPrefix(before, text);
  const suffix = commonSuffix(before, text, from);
  const change = { from, to: before.length - suffix, insert: text.slice(from, text.length - suffix) };
  return reading.json.reparse(change).kind === "value" ? reading : undefined;
}

/** Length of the common prefix of `a` and `b` (compared 64 KB at a time, then by character). */
function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  const CHUNK = 65536;
  let i = 0;
  while (i + CHUNK <= n && a.slice(i, i + CHUNK) === b.slice(i, i + CHUNK)) i += CHUNK;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** Length of the common suffix of `a` and `b` that does not reach into their first `prefix` characters. */
function commonSuffix(a: string, b: string, prefix: number): number {
  const n = Math.min(a.length, b.length) - prefix;
  const CHUNK = 65536;
  let k = 0;
  while (k + CHUNK <= n && a.slice(a.length - k - CHUNK, a.length - k) === b.slice(b.length - k - CHUNK, b.length - k)) k += CHUNK;
  while (k < n && a.charCodeAt(a.length - 1 - k) === b.charCodeAt(b.length - 1 - k)) k++;
  return k;
}

/**
 * The Visual model of a JSON text for `pointers` at `version`, as `buildVisualModel` would build it from the
 * `yaml` Document of the same text; undefined when the text is not valid JSON (the caller falls back to `yaml`,
 * which also reports where the syntax breaks). `maxNodes` caps the nodes copied per request.
 */
export function buildJsonModel(text: string, version: number, pointers: readonly string[], maxNodes: number): VisualModel | undefined {
  const reading = read(text);
  if (!reading) return undefined;
  const { json } = reading;
  const model: VisualModel = { version, format: "json", outline: [], pointers: [...pointers], values: {}, slots: {}, lines: {} };
  if (json.root.kind !== "object") {
    model.parseError = { message: "The document's top level is not a mapping", line: 1 };
    return model;
  }
  model.specVersion = reading.specVersion;
  model.outline = reading.outline.slice();
  const budget = { left: maxNodes };
  for (const pointer of pointers) {
    const path = fromPointer(pointer);
    const node = json.at(path);
    if (node === undefined) continue;
    model.values[pointer] = copy(json, node, path, { model, budget, keyColumn: keyColumnOf(json, path) });
  }
  return model;
}

interface CopyContext {
  model: VisualModel;
  budget: { left: number };
  /** Column of the key (or item) owning the node being copied; a JSON slot's `blockIndent` is it plus 2. */
  keyColumn: number;
}

function copy(json: JsonLive, node: JsonNode, path: Segment[], ctx: CopyContext): unknown {
  if (--ctx.budget.left < 0) return undefined;
  const pointer = toPointer(path);
  if (!(pointer in ctx.model.lines)) ctx.model.lines[pointer] = json.line(node.from);
  if (node.kind === "scalar") {
    ctx.model.slots[pointer] = slotOf(node, ctx);
    return json.scalar(node);
  }
  if (node.kind === "object") {
    const out: Record<string, unknown> = {};
    for (const m of json.members(node)) {
      const childPath = [...path, m.key];
      ctx.model.lines[toPointer(childPath)] ??= json.line(m.keyFrom);
      out[m.key] = copy(json, m.value, childPath, { ...ctx, keyColumn: json.column(m.keyFrom) });
    }
    return out;
  }
  return json.items(node).map((item, i) => copy(json, item, [...path, i], { ...ctx, keyColumn: json.column(item.from) - 2 }));
}

/** A JSON scalar's slot: always inside a flow collection, never a block scalar, never empty. */
function slotOf(node: JsonNode, ctx: CopyContext): ScalarSlot {
  return { from: node.from, to: node.to, style: "json", blockIndent: ctx.keyColumn + 2, flow: true, endsWithNewline: false, empty: false };
}

function keyColumnOf(json: JsonLive, path: readonly Segment[]): number {
  if (path.length === 0) return -2;
  const parent = json.at(path.slice(0, -1));
  if (parent?.kind === "object") {
    const member = json.members(parent).find((m) => m.key === String(path[path.length - 1]));
    if (member) return json.column(member.keyFrom);
  }
  const self = json.at(path);
  return self ? json.column(self.from) - 2 : 0;
}

/** A scalar's text as the outline shows it (`String(value)`; null and containers give undefined). */
function str(json: JsonLive, node: JsonNode | undefined): string | undefined {
  if (node?.kind !== "scalar") return undefined;
  const value = json.scalar(node);
  return value != null ? String(value) : undefined;
}

function operationsOf(json: JsonLive, container: JsonNode | undefined, base: string[], kind: "operation" | "webhook" | "callback", out: OutlineEntry[], callbacks?: OutlineEntry[]): void {
  if (container?.kind !== "object") return;
  for (const { key: path, value: item } of json.members(container)) {
    if (item.kind !== "object") continue;
    for (const { key: method, keyFrom, value: op } of json.members(item)) {
      if (!(METHODS_FOR_FORMS as readonly string[]).includes(method)) continue;
      const tags = json.get(op, "tags");
      const deprecated = json.get(op, "deprecated");
      const summary = str(json, json.get(op, "summary"));
      out.push({
        kind,
        pointer: toPointer([...base, path, method]),
        label: summary ?? str(json, json.get(op, "operationId")) ?? `${method.toUpperCase()} ${path}`,
        method,
        path,
        summary,
        deprecated: deprecated?.kind === "scalar" && json.scalar(deprecated) === true,
        tags: tags?.kind === "array" ? json.items(tags).map((t) => str(json, t)).filter((t): t is string => !!t) : [],
        line: json.line(keyFrom),
      });
      // An operation's callbacks (one level: callbacks of callbacks are edited in the Source view).
      const cbs = callbacks ? json.get(op, "callbacks") : undefined;
      if (callbacks && cbs?.kind === "object") {
        for (const cb of json.members(cbs)) {
          const before = callbacks.length;
          operationsOf(json, cb.value, [...base, path, method, "callbacks", cb.key], "callback", callbacks);
          for (let i = before; i < callbacks.length; i++) callbacks[i].label = cb.key;
        }
      }
    }
  }
}

/** Outline entries in the order of `outline.ts`: General, Servers, Tags, Security, operations, webhooks, callbacks, schemas. */
function outlineOf(json: JsonLive, spec: SpecVersion | undefined): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const rootMembers = json.members(json.root);
  const keyLine = (members: JsonMember[], key: string) => {
    const m = members.find((x) => x.key === key);
    return m ? json.line(m.keyFrom) : undefined;
  };
  const at = (key: string) => keyLine(rootMembers, key) ?? 1;
  out.push({ kind: "general", pointer: "/info", label: "General", line: at("info") });
  if (spec === "2.0") out.push({ kind: "servers", pointer: "/host", label: "Host and schemes", line: at("host") });
  else out.push({ kind: "servers", pointer: "/servers", label: "Servers", line: at("servers") });
  out.push({ kind: "tags", pointer: "/tags", label: "Tags", line: at("tags") });
  if (spec === "2.0") out.push({ kind: "security", pointer: "/securityDefinitions", label: "Security", line: at("securityDefinitions") });
  else {
    const components = json.get(json.root, "components");
    const line = components?.kind === "object" ? keyLine(json.members(components), "securitySchemes") : undefined;
    out.push({ kind: "security", pointer: "/components/securitySchemes", label: "Security", line: line ?? at("security") });
  }
  const callbacks: OutlineEntry[] = [];
  operationsOf(json, json.get(json.root, "paths"), ["paths"], "operation", out, spec === "2.0" ? undefined : callbacks);
  operationsOf(json, json.get(json.root, "webhooks"), ["webhooks"], "webhook", out, callbacks);
  out.push(...callbacks);
  const schemasPath = spec === "2.0" ? ["definitions"] : ["components", "schemas"];
  const schemas = json.at(schemasPath);
  if (schemas?.kind === "object") {
    for (const m of json.members(schemas)) out.push({ kind: "schema", pointer: toPointer([...schemasPath, m.key]), label: m.key, line: json.line(m.keyFrom) });
  }
  return out;
}
