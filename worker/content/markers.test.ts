import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anonymousReader } from "../access/reader";
import { compileBundle } from "./compile";
import { filterAudiences, renderForReader } from "./markers";
import { fileMap } from "./testing/bundle";

const AUDIENCES: string[] = ["partners", "beta", "staff"];

/** A random Markdown body of nested audience blocks; every block's text names the audiences it is inside. */
type Block = { audiences: string[]; children: Block[] };
const block: fc.Memo<Block> = fc.memo((depth) =>
  fc.record({
    audiences: fc.subarray([...AUDIENCES], { minLength: 1 }),
    children: depth > 1 ? fc.array(block(depth - 1), { maxLength: 3 }) : fc.constant([]),
  }),
);

function markdown(blocks: Block[], path: string[][], colons: number): string {
  return blocks.map((b, i) => {
    const here = [...path, b.audiences];
    const fence = ":".repeat(colons + 2 * (depthOf(b) - 1));
    const tag = `IN_${here.map((a) => a.join("+")).join("__")}_${i}`;
    return `${fence} audience ${b.audiences.join(", ")}\n${tag}\n\n${markdown(b.children, here, 3)}${fence}\n`;
  }).join("\n");
}

function depthOf(b: Block): number {
  return 1 + Math.max(0, ...b.children.map(depthOf));
}

describe("audience blocks", () => {
  it("show a reader exactly the blocks whose audiences (and every enclosing block's) the reader holds", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(block(3), { minLength: 1, maxLength: 3 }), fc.subarray([...AUDIENCES]), async (blocks, held) => {
        const body = `Public start.\n\n${markdown(blocks, [], 3)}\nPublic end.\n`;
        const release = await compileBundle(fileMap({ "portico.yaml": "audiences: [partners, beta, staff]\n", "guides/a.md": `---\ntitle: A\n---\n${body}` }), new Map());
        expect(release.checks.invalidFrontMatter).toEqual([]);
        const page = release.pages[0].page;
        const reader = { ...anonymousReader("en"), audiences: ["public", ...held] };
        const html = renderForReader(page.html, reader, { basePath: "", defaults: {} });
        const text = filterAudiences(page.text, reader);
        for (const out of [html, text]) {
          expect(out).toContain("Public start.");
          expect(out).toContain("Public end.");
          expect(out).not.toMatch(/<!--|\uE000|\uE002/);
          for (const tag of out.match(/IN_[\w+]+_\d+/g) ?? []) {
            const path = tag.slice(3).replace(/_\d+$/, "").split("__").map((p) => p.split("+"));
            // Every enclosing block must be readable: one of its audiences held.
            expect(path.every((auds) => auds.some((a) => held.includes(a))), `${tag} leaked to ${held}`).toBe(true);
          }
        }
        const expected = (bs: Block[], visible: boolean): number =>
          bs.reduce((n, b) => { const v = visible && b.audiences.some((a) => held.includes(a)); return n + (v ? 1 : 0) + expected(b.children, v); }, 0);
        expect((html.match(/IN_[\w+]+_\d+/g) ?? []).length).toBe(expected(blocks, true));
        expect((text.match(/IN_[\w+]+_\d+/g) ?? []).length).toBe(expected(blocks, true));
      }),
      { numRuns: 200 },
    );
  });
});
