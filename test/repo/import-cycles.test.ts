/// <reference types="node" />
/**
 * @module No import circles in worker/, client/ or cli/ (issue 38): madge's API, as
 * `npx madge --circular --extensions ts,tsx worker client cli` runs it, type-only imports included. A circle means
 * a shared type or function sits in the wrong module, or a layer imports one above it (a page importing a route).
 */
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** The part of madge's API (madge 8, lib/api.js) used here; it ships no types. */
type Madge = (paths: string[], config: { baseDir: string; fileExtensions: string[] }) => Promise<{ circular(): string[][]; warnings(): { skipped: string[] } }>;

describe("import circles", () => {
  it("worker, client and cli import without a circle", async () => {
    const madge = createRequire(import.meta.url)("madge") as Madge;
    const graph = await madge(["worker", "client", "cli"].map((dir) => resolve(ROOT, dir)), { baseDir: ROOT, fileExtensions: ["ts", "tsx"] });
    expect(graph.circular().map((circle) => circle.join(" > "))).toEqual([]);
  }, 120_000);
});
