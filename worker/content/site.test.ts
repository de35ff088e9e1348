import { describe, expect, it } from "vitest";
import { anonymousReader } from "../access/reader";
import { DEFAULT_CONFIG } from "./config";
import { Site } from "./site";
import type { PageMeta } from "./types";

const page = (kind: PageMeta["kind"], slug: string, extra: Partial<PageMeta> = {}): PageMeta =>
  ({ kind, slug, locale: "en", title: slug.toUpperCase(), tags: [], labels: [], order: 1e9, file: `${kind}s/${slug}.md`, operations: [], ...extra });

const config = { ...DEFAULT_CONFIG, locales: ["en", "fr"], navigation: [{ title: "Start", items: ["guides/a", "guides/secret", "steps/s", "api:pets", "guides/missing"] }] };
const pages = [
  page("guide", "a", { tags: ["x", "y"] }), page("guide", "a", { locale: "fr", title: "A-FR" }), page("guide", "b", { tags: ["x"] }),
  page("guide", "secret", { labels: ["partners"], tags: ["x"] }), page("step", "s"),
  page("changelog", "c1", { changelog: { type: "New", version: "v1.0.0", date: "2026-01-01", api: "pets" } }),
  page("changelog", "c2", { labels: ["partners"], changelog: { type: "Fixed", version: "v1.0.1", date: "2026-02-01" } }),
];

describe("Site", () => {
  const anon = new Site(config, pages, [{ slug: "pets", title: "Pets API" }], anonymousReader("en"));
  const partner = new Site(config, pages, [{ slug: "pets", title: "Pets API" }], { ...anonymousReader("en"), audiences: ["public", "partners"] });
  it("builds the navigation from portico.yaml with readable items only", () => {
    expect(anon.navigation("en")[0].links.map((l) => l.path)).toEqual(["/guides/a", "/steps/s", "/reference/pets/"]);
    expect(partner.navigation("en")[0].links.map((l) => l.key)).toEqual(["guide:a", "guide:secret", "step:s", "api:pets"]);
    expect(anon.navigation("fr")[0].links[0]).toMatchObject({ title: "A-FR", path: "/fr/guides/a" });
  });
  it("falls back to the default locale and says so", () => {
    expect(anon.find("guide", "b", "fr")).toMatchObject({ fallback: true, page: { locale: "en" } });
    expect(anon.find("guide", "a", "fr")).toMatchObject({ fallback: false, page: { title: "A-FR" } });
    expect(anon.find("guide", "secret", "en")).toBeUndefined();
    expect(anon.variants("guide", "a")).toEqual(["en", "fr"]);
  });
  it("keeps unreadable pages out of prev/next, tags, related and the changelog", () => {
    expect(anon.neighbours("guide", "a", "en")).toMatchObject({ next: { key: "step:s" }, group: "Start" });
    expect(anon.tagged("x", "en").map((p) => p.slug)).toEqual(["a", "b"]);
    expect(anon.related(pages[0]).map((p) => p.slug)).toEqual(["b"]);
    expect(anon.changelog().map((p) => p.slug)).toEqual(["c1"]);
    expect(partner.changelog().map((p) => p.slug)).toEqual(["c2", "c1"]);
    expect(partner.changelog({ api: "pets" }).map((p) => p.slug)).toEqual(["c1"]);
    expect(anon.first("en")?.path).toBe("/guides/a");
  });
});
