/** The demo bundle (demo/content) compiles cleanly against the demo definition: what `npm start` publishes. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module shared with scripts/start.mjs and the benchmark
import { readFolder } from "../../scripts/lib/content-bundle.mjs";
import { buildReference } from "../openapi/build";
import { apiSlugFromTitle } from "../publish/names";
import { compileBundle } from "./compile";

describe("demo content bundle", () => {
  it("has every kind of content and no problem", async () => {
    const built = buildReference({ body: new Uint8Array(readFileSync(new URL("../../demo/definition.yaml", import.meta.url))) });
    if (!built.ok) throw new Error(built.message);
    const api = apiSlugFromTitle(built.header.info.title);
    expect(api).toBe("parcel-logistics-api");
    const ops = new Map([[api, built.operations.filter((o) => o.kind === "operation")]]);
    const files = new Map(Object.entries(readFolder(new URL("../../demo/content", import.meta.url).pathname) as Record<string, Uint8Array>));
    const r = await compileBundle(files, ops);
    expect(r.checks.brokenLinks).toEqual([]);
    expect(r.checks.invalidFrontMatter).toEqual([]);
    expect(r.checks.unknownVariables).toEqual([]);
    expect(r.checks.unknownAudiences).toEqual([]);
    const count = (kind: string, locale = "en") => r.pages.filter((p) => p.meta.kind === kind && p.meta.locale === locale).length;
    expect(count("guide")).toBeGreaterThanOrEqual(10);
    expect(count("guide", "fr")).toBeGreaterThanOrEqual(3);
    expect(count("step")).toBe(2);
    expect(count("changelog")).toBe(8);
    expect(new Set(r.pages.filter((p) => p.meta.kind === "changelog").map((p) => p.meta.changelog!.type)).size).toBe(5);
    expect(r.glossary.length).toBeGreaterThanOrEqual(5);
    expect(r.pages.some((p) => p.page.html.includes("<!--a:partners-->"))).toBe(true);
    expect(r.assets.map((a) => a.path).sort()).toEqual(["brand.css", "guides/img/lifecycle.svg", "logo-dark.svg", "logo.svg"]);
    expect(r.config.brand.logo?.light).toMatch(/^\uE002\/_content\/[0-9a-f]{64}\.svg$/);
  });
});
