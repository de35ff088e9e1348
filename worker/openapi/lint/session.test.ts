import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseDocument } from "../parse";
import { lintData, lintDocument } from "./lint-document";
import { createLintSession, JSON_LIVE_MIN_CHARS } from "./session";
import { YamlOutline } from "./source/yaml-outline";
import type { LintProblem } from "./types";

const CORPUS = join(__dirname, "../../../../shared/corpus");

/** What a fresh lint of `text` gives, located the way a session locates (YAML: by its outline). */
function fresh(text: string): LintProblem[] {
  const parsed = parseDocument(text);
  if (!parsed.ok || parsed.doc.format === "json") return lintDocument(text).problems;
  const outline = new YamlOutline(text);
  return sortProblems(lintData(parsed.doc.data as Record<string, unknown>, (p) => outline.locate(p)));
}

/**
 * Replaces the first `from` in `text` with `to` through `session.update`, asserts the session's problems equal a
 * fresh lint of the new text, and returns the new text and those problems.
 */
function step(session: ReturnType<typeof createLintSession>, text: string, from: string, to: string): { text: string; problems: LintProblem[] } {
  const at = text.indexOf(from);
  const next = text.slice(0, at) + to + text.slice(at + from.length);
  const { problems } = session.update({ from: at, to: at + from.length, insert: to });
  expect(problems).toEqual(fresh(next));
  return { text: next, problems };
}

function sortProblems(problems: LintProblem[]): LintProblem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) || (a.message < b.message ? -1 : 1));
}

/** A deterministic pseudo-random sequence. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

describe("createLintSession", () => {
  it("re-parses only the YAML block an edit falls in, and agrees with a fresh lint", () => {
    const text = "openapi: 3.0.3\ninfo:\n  title: T\n  version: '1'\npaths:\n  /pets:\n    get:\n      summary: List\n      responses:\n        '200':\n          description: ok\n";
    const session = createLintSession(text);
    const at = text.indexOf("List") + 4;
    const result = session.update({ from: at, to: at, insert: " pets" });
    expect(session.lastUpdate.parse).toBe("block");
    expect(result.problems).toEqual(fresh(session.text));
    expect(session.text).toContain("summary: List pets");
  });

  it("reports a syntax error inside the edited block, then recovers", () => {
    const text = "openapi: 3.1.0\ninfo:\n  title: T\n  version: '1'\npaths:\n  /a:\n    get:\n      responses: {}\n";
    const session = createLintSession(text);
    const at = text.indexOf("responses: {}") + 12;
    const broken = session.update({ from: at, to: at + 1, insert: "" });
    const full = parseDocument(session.text);
    expect(full.ok).toBe(false);
    expect(broken.problems.map((p) => [p.rule, p.line])).toEqual([["parser", full.ok ? 0 : full.error.line]]);
    expect(session.lastUpdate.parse).toBe("failed");
    expect(session.update({ from: at, to: at, insert: "}" }).problems).toEqual(fresh(text));
  });

  it("re-parses everything when the edited block is tied to others by an anchor", () => {
    const text = "openapi: 3.1.0\ninfo:\n  title: T\n  version: '1'\nx-base: &base\n  description: Shared text\npaths:\n  /a:\n    get:\n      <<: *base\n      responses: {}\n";
    const session = createLintSession(text);
    const at = text.indexOf("Shared") + 6;
    const result = session.update({ from: at, to: at, insert: " eval(" });
    expect(session.lastUpdate.parse).toBe("full");
    expect(result.problems.filter((p) => p.rule === "no-eval-in-markdown").map((p) => p.path.join("/"))).toEqual(["x-base/description", "paths//a/get/description"]);
    expect(result.problems).toEqual(fresh(session.text));
  });

  it("falls back to a full parse when an edit changes the structure", () => {
    const text = "openapi: 3.1.0\ninfo:\n  title: T\n  version: '1'\npaths: {}\n";
    const session = createLintSession(text);
    const result = session.update(text.replace("  version: '1'\n", "version: '1'\n"));
    expect(session.lastUpdate.parse).toBe("full");
    expect(result.problems).toEqual(fresh(session.text));
  });

  it.each(["oai-spec/examples/v3.0/petstore-expanded.yaml", "twilio/spec/yaml/twilio_assistants_v1.yaml", "readme-oas-examples/3.0/json/schema-types.json"])(
    "stays equal to a fresh lint over 40 random one-character edits of %s",
    (file) => {
      const next = random(file.length);
      let text = readFileSync(join(CORPUS, file), "utf8");
      const session = createLintSession(text);
      const modes = new Set<string>();
      for (let i = 0; i < 40; i++) {
        const at = Math.floor(next() * text.length);
        const edit = next() < 0.5 ? { from: at, to: at, insert: "x" } : { from: at, to: Math.min(text.length, at + 1), insert: "" };
        text = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
        const result = session.update(edit);
        expect(session.text).toBe(text);
        const expected = fresh(text);
        modes.add(session.lastUpdate.parse);
        if (result.problems[0]?.rule === "parser") expect(expected[0]?.rule).toBe("parser");
        else expect(result.problems).toEqual(expected);
      }
      expect(modes.size).toBeGreaterThan(0);
    },
    30_000,
  );

  it("keeps a large JSON text (DigitalOcean, 1 MB) in chunks and agrees with a fresh lint over 20 random edits", () => {
    const next = random(17);
    let text = readFileSync(join(CORPUS, "apis-guru-npm/api/digitalocean.com.json"), "utf8");
    expect(text.length).toBeGreaterThan(JSON_LIVE_MIN_CHARS);
    const session = createLintSession(text);
    let blocks = 0;
    const apply = (edit: { from: number; to: number; insert: string }) => {
      text = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
      const result = session.update(edit);
      if (session.lastUpdate.parse === "block") blocks++;
      expect(session.text).toBe(text);
      const expected = fresh(text);
      if (result.problems[0]?.rule === "parser") expect(expected[0]?.rule).toBe("parser");
      else expect(result.problems).toEqual(expected);
    };
    for (let i = 0; i < 20; i++) {
      const pick = (re: RegExp) => {
        const all = [...text.matchAll(re)];
        const m = all[Math.floor(next() * all.length)];
        return m.index! + m[0].length - 1;
      };
      if (i % 4 === 3) {
        // A character deleted anywhere (a key, a brace: full re-parses), put back when that broke the JSON.
        const at = Math.floor(next() * text.length);
        const removed = text[at];
        apply({ from: at, to: at + 1, insert: "" });
        if (session.result.problems[0]?.rule === "parser") apply({ from: at, to: at, insert: removed });
      } else if (i % 4 === 2) {
        // A line break after a comma: the enclosing object is re-parsed, the lines after it move.
        const at = pick(/,"/g);
        apply({ from: at, to: at, insert: "\n" });
      } else {
        // A keystroke inside a string value: only that value is re-parsed.
        const at = pick(/":\s*"[A-Za-z]/g);
        apply({ from: at, to: at, insert: "x" });
      }
    }
    expect(blocks).toBeGreaterThan(10);
  }, 120_000);

  it("carries locations away from the edit in a large pretty-printed JSON text (lines added, removed, edited) and agrees with a fresh lint", () => {
    const next = random(29);
    let text = JSON.stringify(JSON.parse(readFileSync(join(CORPUS, "apis-guru-npm/api/digitalocean.com.json"), "utf8")), null, 2);
    expect(text.length).toBeGreaterThan(JSON_LIVE_MIN_CHARS);
    const session = createLintSession(text);
    const apply = (edit: { from: number; to: number; insert: string }) => {
      text = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
      session.update(edit);
      expect(session.lastUpdate.parse).toBe("block");
      expect(session.result.problems).toEqual(fresh(text));
    };
    const pick = (re: RegExp) => {
      const all = [...text.matchAll(re)];
      return all[Math.floor(next() * all.length)];
    };
    for (let i = 0; i < 16; i++) {
      if (i % 4 === 1) {
        // A line break between members: the lines after it move down.
        const m = pick(/,\n/g);
        apply({ from: m.index! + 1, to: m.index! + 1, insert: "\n" });
      } else if (i % 4 === 2) {
        // Two members joined on one line: the lines after them move up.
        const m = pick(/,\n +"/g);
        apply({ from: m.index! + 1, to: m.index! + m[0].length - 1, insert: " " });
      } else if (i % 4 === 3) {
        // A member (a line with a problem on it, often) replaced by one spanning three lines.
        const m = pick(/\n +"description": "[^"\n]*",/g);
        apply({ from: m.index! + 1, to: m.index! + m[0].length, insert: '"description": "a",\n"x-a": 1,\n"x-b": 2,' });
      } else {
        const m = pick(/": "[A-Za-z]/g);
        apply({ from: m.index! + 4, to: m.index! + 4, insert: "x" });
      }
    }
  }, 120_000);

  it("lints the members of a root-level extension (x-webhooks) as their own units, in the context of the whole document", () => {
    const hook = (n: number) => ({ post: { operationId: `h${n}`, description: "d", requestBody: { content: { "application/json": { schema: { type: "integer" }, example: "s" } } }, responses: { "200": { description: "ok" } } } });
    const doc = { openapi: "3.0.3", info: { title: "t", version: "1", description: "d", contact: { name: "n", url: "https://x.test", email: "a@x.test" }, license: { name: "MIT", url: "https://x.test" } }, servers: [{ url: "https://api.x.test" }], tags: [], paths: {}, "x-webhooks": { a: hook(1), b: hook(2) } };
    let text = JSON.stringify(doc, null, 2);
    const session = createLintSession(text);
    const examples = (problems: LintProblem[]) => problems.filter((p) => p.rule === "oas3-valid-media-example").map((p) => p.path.join("/"));
    expect(examples(session.result.problems)).toEqual(["x-webhooks/a/post/requestBody/content/application/json/example", "x-webhooks/b/post/requestBody/content/application/json/example"]);
    ({ text } = step(session, text, '"description": "d",\n        "requestBody"', '"description": "dx",\n        "requestBody"'));
    // The root fragment, the x-webhooks map and the edited hook; the other hook is reused.
    expect(session.lastUpdate.stats?.fragmentsWalked).toBe(3);
    ({ text } = step(session, text, '"example": "s"', '"example": 1'));
    expect(examples(session.result.problems)).toEqual(["x-webhooks/b/post/requestBody/content/application/json/example"]);
  });

  it("edits inside descriptions of a large YAML definition are handled as blocks", () => {
    const next = random(7);
    let text = readFileSync(join(CORPUS, "twilio/spec/yaml/twilio_assistants_v1.yaml"), "utf8");
    const session = createLintSession(text);
    let blocks = 0;
    for (let i = 0; i < 25; i++) {
      const spots = [...text.matchAll(/description: [A-Z][a-z]+ /g)].map((m) => m.index! + 14);
      const at = spots[Math.floor(next() * spots.length)];
      const edit = { from: at, to: at, insert: "é" };
      text = text.slice(0, edit.from) + edit.insert + text.slice(edit.to);
      session.update(edit);
      if (session.lastUpdate.parse === "block") blocks++;
      expect(session.result.problems).toEqual(fresh(text));
    }
    expect(blocks).toBeGreaterThan(15);
  }, 30_000);
  it("updates the last union of fragments in place, and agrees with a fresh lint when $refs move, appear and go", () => {
    // Each step is one block update. The union is updated from the root and from the fragments that depend on a
    // moved reference; a fragment losing a $ref hands over to the full pass (members may become unreachable).
    let text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      description: List.",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              schema: {$ref: '#/components/schemas/Pet'}",
      "              example: {name: Rex}",
      "components:",
      "  schemas:",
      "    Pet:",
      "      type: object",
      "      properties:",
      "        name: {$ref: '#/components/schemas/Name'}",
      "    Name:",
      "      type: string",
      "    Other:",
      "      type: object",
      "      properties:",
      "        name: {type: integer}",
      "        id: {$ref: '#/components/schemas/Id'}",
      "    Id:",
      "      type: array",
      "      description: x",
      // Linted as a schema (its example checked) only while a schema position references it.
      "x-lib:",
      "  Thing: {type: integer, example: s}",
      "",
    ].join("\n");
    const session = createLintSession(text);
    const steps: [string, string, boolean][] = [
      // [from, to, whether the run updates the union]
      ["description: List.", "description: Lists.", true],
      // Name two $refs from the example: the fragments depending on it are walked again.
      ["    Name:\n      type: string", "    Name:\n      type: integer", true],
      ["    Name:\n      type: integer", "    Name:\n      type: string", true],
      // The media type's schema now reaches Other (new edges, new members)...
      ["schema: {$ref: '#/components/schemas/Pet'}", "schema: {$ref: '#/components/schemas/Other'}", false],
      ["description: Lists.", "description: List.", true],
      // ... and Id's problems are seen in that context; Id changes under it.
      ["      type: array\n      description: x", "      type: array\n      description: y\n      items: {type: string}", true],
      // An added $ref is a new edge only.
      ["name: {type: integer}", "name: {type: integer}\n        tag: {$ref: '#/components/schemas/Name'}", true],
      // A lost one may leave members unreachable.
      ["        tag: {$ref: '#/components/schemas/Name'}\n", "", false],
      ["schema: {$ref: '#/components/schemas/Other'}", "schema: {$ref: '#/components/schemas/Pet'}", false],
      ["description: List.", "description: Lists.", true],
      ["schema: {$ref: '#/components/schemas/Pet'}", "schema: {$ref: '#/x-lib/Thing'}", false],
      ["schema: {$ref: '#/x-lib/Thing'}", "schema: {$ref: '#/components/schemas/Pet'}", false],
    ];
    const incremental: boolean[] = [];
    const problemsSeen = new Set<string>();
    for (const [from, to] of steps) {
      let problems: LintProblem[];
      ({ text, problems } = step(session, text, from, to));
      for (const p of problems) problemsSeen.add(p.path.join("/"));
      incremental.push(session.lastUpdate.stats?.incremental === true);
    }
    expect(incremental).toEqual(steps.map((s) => s[2]));
    expect(problemsSeen).toContain("x-lib/Thing/example");
  });
  it("re-checks an example kept from an earlier version when a schema its schema reaches through $refs changes", () => {
    // The example's own unit (the path item) and its schema (Pet) are unchanged by these edits: only Name, two
    // `$ref`s away, changes. A kept example result must be voided by that, and stand again when Name is restored.
    let text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "paths:",
      "  /pets:",
      "    get:",
      "      responses:",
      "        '200':",
      "          description: ok",
      "          content:",
      "            application/json:",
      "              schema: {$ref: '#/components/schemas/Pet'}",
      "              example: {name: Rex, tag: 3}",
      "components:",
      "  schemas:",
      "    Pet:",
      "      type: object",
      "      properties:",
      "        name: {$ref: '#/components/schemas/Name'}",
      "        tag: {type: integer, example: 3}",
      "    Name:",
      "      type: string",
      "",
    ].join("\n");
    const session = createLintSession(text);
    expect(session.result.problems.filter((p) => p.rule === "oas3-valid-media-example")).toEqual([]);
    const steps: [string, string][] = [
      ["    Name:\n      type: string", "    Name:\n      type: integer"],
      ["    Name:\n      type: integer", "    Name:\n      type: string"],
      ["tag: {type: integer, example: 3}", "tag: {type: integer, example: x}"],
      ["tag: {type: integer, example: x}", "tag: {type: integer, example: 3}"],
    ];
    const seen: number[] = [];
    for (const [from, to] of steps) {
      let problems: LintProblem[];
      ({ text, problems } = step(session, text, from, to));
      seen.push(problems.filter((p) => p.rule.endsWith("-example")).length);
    }
    // Name as an integer makes the media example invalid; `example: x` the property's own example.
    expect(seen).toEqual([1, 0, 1, 0]);
  });
  it("keeps the per-path-item problems of document rules only while the item, its $refs and the tags and security schemes hold", () => {
    // Each step leaves /pets/{id} itself unchanged and changes something its problems depend on elsewhere: a
    // parameter it references, the root tags, a security scheme's scopes. One step edits the item itself.
    let text = [
      "openapi: 3.0.3",
      "info: {title: T, version: '1'}",
      "tags: [{name: pets}]",
      "paths:",
      "  /pets/{id}:",
      "    get:",
      "      operationId: getPet",
      "      tags: [pets]",
      "      security: [{auth: [read]}]",
      "      parameters: [{$ref: '#/components/parameters/Id'}]",
      "      responses: {'200': {description: ok}}",
      "components:",
      "  parameters:",
      "    Id: {name: id, in: path, required: true, schema: {type: string}}",
      "  securitySchemes:",
      "    auth: {type: oauth2, flows: {implicit: {authorizationUrl: 'https://a.test', scopes: {read: r}}}}",
      "",
    ].join("\n");
    const session = createLintSession(text);
    expect(session.result.problems).toEqual(fresh(text));
    const steps: [string, string][] = [
      ["Id: {name: id, in: path, required: true", "Id: {name: ident, in: path, required: true"],
      ["Id: {name: ident, in: path, required: true", "Id: {name: id, in: path, required: true"],
      ["tags: [{name: pets}]", "tags: [{name: dogs}]"],
      ["tags: [{name: dogs}]", "tags: [{name: pets}]"],
      ["scopes: {read: r}", "scopes: {write: w}"],
      ["scopes: {write: w}", "scopes: {read: r}"],
      ["      operationId: getPet\n", "      operationId: getPet\n      description: One pet.\n"],
    ];
    const rules: string[][] = [];
    for (const [from, to] of steps) {
      let problems: LintProblem[];
      ({ text, problems } = step(session, text, from, to));
      rules.push(problems.filter((p) => p.path[0] === "paths").map((p) => p.rule).sort());
    }
    const base = ["operation-description"];
    expect(rules).toEqual([
      [...base, "path-params"].sort(),
      base,
      [...base, "operation-tag-defined"].sort(),
      base,
      [...base, "oas3-operation-security-defined"].sort(),
      base,
      [],
    ]);
    // A new version plans other rules: nothing kept under the old plan may be reused (3.1 drops `nullable`).
    for (const [from, to] of [["Id: {name: id,", "Id: {nullable: true, name: id,"], ["openapi: 3.0.3", "openapi: 3.1.0"], ["openapi: 3.1.0", "openapi: 3.0.3"]]) {
      ({ text } = step(session, text, from, to));
    }
  });
  it("re-checks examples whose schema reaches more references than a closure keeps", () => {
    // 300 properties, each a $ref to its own component: past the closure limit (256), so nothing is kept for
    // this schema, and an edit to one component must still reach the example's result.
    const n = 300;
    const props = Array.from({ length: n }, (_, i) => `        p${i}: {$ref: '#/components/schemas/P${i}'}`).join("\n");
    const comps = Array.from({ length: n }, (_, i) => `    P${i}: {type: string}`).join("\n");
    const example = `{${Array.from({ length: n }, (_, i) => `p${i}: x`).join(", ")}}`;
    let text = `openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {$ref: '#/components/schemas/Big'}\n              example: ${example}\ncomponents:\n  schemas:\n    Big:\n      type: object\n      properties:\n${props}\n${comps}\n`;
    const session = createLintSession(text);
    const counts: number[] = [];
    for (const [from, to] of [["P150: {type: string}", "P150: {type: integer}"], ["P150: {type: integer}", "P150: {type: string}"]]) {
      let problems: LintProblem[];
      ({ text, problems } = step(session, text, from, to));
      counts.push(problems.filter((p) => p.rule === "oas3-valid-media-example").length);
    }
    expect(counts).toEqual([1, 0]);
  });
});
