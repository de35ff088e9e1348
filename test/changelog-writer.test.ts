import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RULES, type Change, type DiffResult } from "../worker/openapi/diff";
import { changelogType, checkDraft, embeddedChangelogWriter, escapeMarkdown, versionLabel } from "../worker/publish/changelog-writer";
import { CHANGELOG_MODEL, workersAiChangelogWriter, type TextModel } from "../worker/publish/changelog-ai-writer";

function result(changes: Change[]): DiffResult {
  const counts = { ERR: 0, WARN: 0, INFO: 0 };
  for (const c of changes) counts[c.level]++;
  return { breaking: counts.ERR > 0, changes, counts };
}
const change = (id: string, method?: string, path?: string, message = id): Change => ({
  id,
  level: RULES.get(id)!.level,
  pointer: "",
  message,
  ...(method ? { operation: { method, path: path! } } : {}),
});
const input = (r: DiffResult) => ({
  api: { slug: "pets", title: "Pets" },
  from: "1.0",
  to: "2.1",
  date: "2026-11-25",
  result: r,
  operationUrl: (m: string, p: string) => `/p/acme/reference/pets/2.1/${m.toLowerCase()}${p.replace(/\W+/g, "-")}`,
});

describe("changelog drafts", () => {
  it("labels the type: Breaking on any ERR, else New on additions, else Deprecated, else Improved", () => {
    expect(changelogType(result([change("endpoint-added", "GET", "/a"), change("request-parameter-became-required", "GET", "/b")]))).toBe("Breaking");
    expect(changelogType(result([change("endpoint-added", "GET", "/a"), change("endpoint-deprecated", "GET", "/b")]))).toBe("New");
    expect(changelogType(result([change("endpoint-deprecated", "GET", "/b")]))).toBe("Deprecated");
    expect(changelogType(result([change("request-parameter-default-value-changed", "GET", "/b")]))).toBe("Improved");
  });

  it("normalises version labels to v<major>.<minor>.<patch>", () => {
    expect(["2.1", "v3", "1.2.3", "V1", "2.0.0-beta.1", "2024-06-01", "latest"].map(versionLabel)).toEqual(["v2.1.0", "v3.0.0", "v1.2.3", "V1", "v2.0.0-beta.1", "2024-06-01", "latest"]);
  });

  it("writes a headline and one linked bullet per operation, citing the change ids", async () => {
    const r = result([
      change("endpoint-added", "GET", "/pets/{petId}", "GET /pets/{petId} added"),
      change("request-parameter-became-required", "GET", "/pets", "query parameter limit became required"),
      change("response-property-enum-value-added", "GET", "/pets", "response 200, property kind: enum value \"dog\" added"),
      change("api-server-added", undefined, undefined, "server https://b.example.org added"),
    ]);
    const draft = await embeddedChangelogWriter.write(input(r));
    expect(draft).toMatchObject({ type: "Breaking", version: "v2.1.0", date: "2026-11-25", title: "Pets v2.1.0" });
    expect(draft.bullets.map((b) => [b.operation?.path, b.changeIds])).toEqual([
      ["/pets/{petId}", ["endpoint-added"]],
      ["/pets", ["request-parameter-became-required", "response-property-enum-value-added"]],
      [undefined, ["api-server-added"]],
    ]);
    expect(draft.body.split("\n")[0]).toContain("1 breaking change since 1\\.0, and 3 other changes");
    expect(draft.body).toContain("- [GET /pets](</p/acme/reference/pets/2.1/get-pets>): **Breaking:** query parameter limit became required;");
    expect(checkDraft(draft, r)).toEqual([]);
  });

  it("refuses a draft citing a change the diff does not contain", async () => {
    const r = result([change("endpoint-added", "GET", "/a")]);
    const draft = await embeddedChangelogWriter.write(input(r));
    const invented = { ...draft, bullets: [...draft.bullets, { operation: { method: "GET", path: "/a" }, text: "also faster", changeIds: ["api-removed-without-deprecation"] }] };
    expect(checkDraft(invented, r)).toEqual(["bullet for GET /a cites api-removed-without-deprecation, which the diff does not contain there"]);
    const elsewhere = { ...draft, bullets: [{ operation: { method: "GET", path: "/b" }, text: "x", changeIds: ["endpoint-added"] }] };
    expect(checkDraft(elsewhere, r)).toEqual(["bullet for GET /b has no change in the diff"]);
  });

  it("property: every change of any diff is stated once, no bullet cites what the diff lacks, names are escaped", async () => {
    const ids = [...RULES.keys()].filter((id) => id !== "diff-budget-reached");
    const arbChange = fc.record({
      id: fc.constantFrom(...ids),
      op: fc.option(fc.record({ method: fc.constantFrom("GET", "POST", "QUERY"), path: fc.constantFrom("/a", "/b/{id}", "/<script>", "/`x`") }), { nil: undefined }),
      message: fc.string({ maxLength: 40 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(arbChange, { maxLength: 30 }), async (raw) => {
        const r = result(raw.map((c) => change(c.id, c.op?.method, c.op?.path, c.message)));
        const draft = await embeddedChangelogWriter.write(input(r));
        expect(checkDraft(draft, r)).toEqual([]);
        const stated = draft.bullets.flatMap((b) => b.changeIds.map((id) => `${b.operation?.method} ${b.operation?.path} ${id}`));
        const expected = new Set(r.changes.map((c) => `${c.operation?.method} ${c.operation?.path} ${c.id}`));
        expect(new Set(stated)).toEqual(expected);
        expect(stated.length).toBe(expected.size);
        expect(draft.body).not.toMatch(/<script/);
      }),
      { numRuns: 200 },
    );
  });

  it("escapes Markdown and HTML in names", () => {
    expect(escapeMarkdown("[x](javascript:alert(1)) <img src=x> *y*")).toBe("\\[x\\]\\(javascript:alert\\(1\\)\\) &lt;img src=x\\> \\*y\\*");
  });

  describe("Workers AI writer (the model faked: a third-party service)", () => {
    const r = result([
      change("request-parameter-became-required", "GET", "/pets", "query parameter limit became required"),
      change("endpoint-added", "GET", "/pets/{petId}", "GET /pets/{petId} added"),
    ]);
    const model = (reply: (texts: { i: number; text: string }[]) => unknown): TextModel & { calls: string[] } => {
      const calls: string[] = [];
      return {
        calls,
        async run(name, input) {
          calls.push(name);
          return reply(JSON.parse(input.messages[1].content));
        },
      };
    };

    it("rewords bullets but keeps their operations and cited ids, and the breaking mark", async () => {
      const ai = model((items) => ({ response: `Here you go: ${JSON.stringify(items.map(({ i }) => ({ i, text: i === 0 ? "The limit query parameter must now be sent." : "You can now fetch one pet by id." })))}` }));
      const draft = await workersAiChangelogWriter(ai).write(input(r));
      expect(ai.calls).toEqual([CHANGELOG_MODEL]);
      expect(draft.bullets.map((b) => [b.operation?.path, b.changeIds, b.text])).toEqual([
        ["/pets", ["request-parameter-became-required"], "**Breaking:** The limit query parameter must now be sent\\."],
        ["/pets/{petId}", ["endpoint-added"], "You can now fetch one pet by id\\."],
      ]);
      expect(checkDraft(draft, r)).toEqual([]);
      expect(draft.body).toContain("(`request-parameter-became-required`)");
    });

    it("keeps the embedded draft when the model fails, answers off-shape, drops a bullet, or runs long", async () => {
      const embedded = await embeddedChangelogWriter.write(input(r));
      const replies: ((items: { i: number; text: string }[]) => unknown)[] = [
        () => {
          throw new Error("model unavailable");
        },
        () => ({ response: "Sorry, I cannot help." }),
        (items) => ({ response: JSON.stringify(items.slice(1).map(({ i }) => ({ i, text: "x" }))) }),
        (items) => ({ response: JSON.stringify(items.map(({ i }) => ({ i, text: "y".repeat(601) }))) }),
        (items) => ({ response: JSON.stringify(items.map(() => ({ i: 0, text: "dup" }))) }),
      ];
      for (const reply of replies) expect(await workersAiChangelogWriter(model(reply)).write(input(r))).toEqual(embedded);
    });

    it("escapes what the model writes", async () => {
      const ai = model((items) => ({ response: JSON.stringify(items.map(({ i }) => ({ i, text: "<img src=x onerror=alert(1)> [click](javascript:alert(1))" }))) }));
      const draft = await workersAiChangelogWriter(ai).write(input(r));
      expect(draft.body).not.toContain("<img");
      expect(draft.body).not.toContain("](javascript");
    });
  });
});

