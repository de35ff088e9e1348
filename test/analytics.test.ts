/**
 * @module Search analytics and page feedback over HTTP (issue 29) in workerd against the real PortalAnalytics
 * Durable Object: exact figures from a scripted event stream, signed query ids (a forged or another portal's id is
 * refused), DNT / Sec-GPC honoured, same-site only, one portal's figures invisible to another's token, gated
 * readers' queries left out of `audience=public`, the assistant's questions counted as `assistant`, and retention
 * by an injected clock (day 183 kept, day 184 deleted).
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createPortal, jsonOrRaw, ORIGIN, upload } from "./harness/client";
import { bundle, PETSTORE_OPS, uploadContent } from "./content/bundles";
import { dayOf } from "../worker/analytics/events";
import { PortalAnalytics, portalAnalytics, splitRange } from "../worker/analytics/portal-analytics";
import { signQueryId } from "../worker/analytics/query-id";

async function search(portal: string, q: string): Promise<any> {
  const res = await SELF.fetch(`${ORIGIN}/p/${portal}/search.json?q=${encodeURIComponent(q)}`);
  expect(res.status).toBe(200);
  return res.json();
}

function send(portal: string, events: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return SELF.fetch(`${ORIGIN}/p/${portal}/analytics/events`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(events) });
}

async function report(token: string, path: string): Promise<{ status: number; json: any }> {
  const res = await SELF.fetch(`${ORIGIN}/v1/analytics/${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, json: await jsonOrRaw(res) };
}

async function portalId(slug: string): Promise<number> {
  return (await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>())!.id;
}

let tokenA = "";
let tokenB = "";

beforeAll(async () => {
  tokenA = await createPortal("an-a");
  tokenB = await createPortal("an-b");
  for (const t of [tokenA, tokenB]) {
    expect((await upload(t, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(t, bundle("alpha"))).status).toBe(201);
  }
});

describe("analytics events", () => {
  it("search.json answers carry a signed queryId; a scripted stream gives exact figures", async () => {
    const pets = await search("an-a", "pets");
    const auth = await search("an-a", "authentication");
    const none = await search("an-a", "webhok");
    expect(pets.total).toBeGreaterThan(1);
    expect(none.total).toBe(0);
    for (const r of [pets, auth, none]) expect(typeof r.queryId).toBe("string");

    const res = await send("an-a", [
      { type: "search", queryId: pets.queryId, q: "pets", results: pets.total },
      { type: "click", queryId: pets.queryId, position: 1, url: pets.results[0].url },
      { type: "click", queryId: pets.queryId, position: 3, url: pets.results[1].url },
      { type: "search", queryId: auth.queryId, q: "Authentication ", results: auth.total },
      { type: "click", queryId: auth.queryId, position: 2, url: auth.results[0].url },
      // The client's count is not believed: the signed one (0) is.
      { type: "search", queryId: none.queryId, q: "webhok", results: 7 },
      { type: "feedback", url: "/p/an-a/guides/intro", helpful: true, title: "Introduction" },
      { type: "feedback", url: "http://portico.test/p/an-a/guides/intro?x=1#setup", helpful: false, comment: "Needs <b>an example</b>" },
      { type: "feedback", url: "/p/an-a/guides/intro", helpful: true },
      { type: "feedback", url: "/p/an-a/guides/auth", helpful: false },
    ]);
    expect(res.status).toBe(204);
    const pets2 = await search("an-a", "PETS");
    expect((await send("an-a", [{ type: "search", queryId: pets2.queryId, q: "PETS", results: 3 }])).status).toBe(204);

    const { status, json } = await report(tokenA, "search");
    expect(status).toBe(200);
    // 4 searches (pets twice), 1 no-hit, 3 clicks at positions 1, 3, 2.
    expect(json.totals).toEqual({ searches: 4, noHit: 1, noHitRate: 0.25, clicks: 3, clickThroughRate: 0.75, avgClickPosition: 2 });
    expect(json.topQueries[0]).toMatchObject({ q: "pets", count: 2, noHit: 0, clicks: 2, avgClickPosition: 2 });
    expect(json.topQueries.map((q: any) => q.q)).toEqual(["pets", "authentication", "webhok"]);
    expect(json.noHitQueries).toEqual([{ q: "webhok", count: 1, lastSeen: dayOf(Date.now()), gated: false }]);
    expect(json.daily).toHaveLength(30);
    expect(json.daily.at(-1)).toMatchObject({ date: dayOf(Date.now()), searches: 4, noHitRate: 0.25, clickThroughRate: 0.75 });
    expect(json.clickPositions).toEqual([{ position: 1, clicks: 1 }, { position: 2, clicks: 1 }, { position: 3, clicks: 1 }]);

    const pages = await report(tokenA, "pages");
    expect(pages.json).toEqual([
      { url: "/p/an-a/guides/auth", title: null, helpful: 0, notHelpful: 1, ratings: 1, helpfulPct: 0, gated: false, comments: [] },
      { url: "/p/an-a/guides/intro", title: "Introduction", helpful: 2, notHelpful: 1, ratings: 3, helpfulPct: 66.7, gated: false, comments: [{ date: dayOf(Date.now()), helpful: false, comment: "Needs <b>an example</b>" }] },
    ]);

    const csv = await SELF.fetch(`${ORIGIN}/v1/analytics/export.csv?table=queries`, { headers: { authorization: `Bearer ${tokenA}` } });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("date,kind,q,searches,noHit,clicks,positionSum,gated");
    expect(lines).toContain(`${dayOf(Date.now())},search,pets,2,0,2,4,0`);

    // Another portal's token sees its own (empty) figures, never these.
    const other = await report(tokenB, "search");
    expect(other.json.totals.searches).toBe(0);
    expect((await report(tokenB, "pages")).json).toEqual([]);
  });

  it("refuses forged, altered and other portals' query ids while keeping the rest of the batch", async () => {
    const mine = await search("an-b", "pets");
    const theirs = await search("an-a", "pets");
    const [payload, tag] = (mine.queryId as string).split(".");
    const forged = await signQueryId("another-secret-0123456789abcdef", { portalId: await portalId("an-b"), kind: "search", gated: false, issuedAt: Math.floor(Date.now() / 1000), results: 5, q: "pets" });
    const res = await send("an-b", [
      { type: "search", queryId: theirs.queryId, q: "pets", results: 1 },
      { type: "search", queryId: forged, q: "pets", results: 1 },
      { type: "search", queryId: `${payload}x.${tag}`, q: "pets", results: 1 },
      { type: "search", queryId: mine.queryId, q: "cats", results: 1 },
      { type: "click", queryId: mine.queryId, position: 0, url: "/x" },
      { type: "feedback", url: "https://evil.example/elsewhere", helpful: true },
      { type: "feedback", url: "/p/an-b/guides/intro", helpful: "yes" },
      { type: "feedback", url: "/p/an-b/guides/intro", helpful: false, comment: "x".repeat(1001) },
      { type: "nope" },
      { type: "search", queryId: mine.queryId, q: "pets", results: 2 },
      { type: "search", queryId: mine.queryId, q: "pets", results: 2 },
    ]);
    expect(res.status).toBe(400);
    const body: any = await res.json();
    expect(body.error.code).toBe("invalid-events");
    expect(body.error.details.map((p: any) => [p.index, p.code])).toEqual([
      [0, "invalid-query-id"], [1, "invalid-query-id"], [2, "invalid-query-id"], [3, "query-mismatch"], [4, "invalid-position"],
      [5, "invalid-url"], [6, "invalid-helpful"], [7, "comment-too-long"], [8, "unknown-type"], [10, "duplicate-query-id"],
    ]);
    // Only the one good event counted.
    expect((await report(tokenB, "search")).json.totals).toMatchObject({ searches: 1, noHit: 0 });
    expect((await report(tokenB, "pages")).json).toEqual([]);
  });

  it("records nothing for DNT or Sec-GPC readers, refuses cross-site posts and batches over 50", async () => {
    const r = await search("an-b", "authentication");
    const before = (await report(tokenB, "search")).json.totals.searches;
    expect((await send("an-b", [{ type: "search", queryId: r.queryId, q: "authentication" }], { dnt: "1" })).status).toBe(204);
    expect((await send("an-b", [{ type: "search", queryId: r.queryId, q: "authentication" }], { "sec-gpc": "1" })).status).toBe(204);
    expect((await report(tokenB, "search")).json.totals.searches).toBe(before);
    const cross = await send("an-b", [{ type: "search", queryId: r.queryId, q: "authentication" }], { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(cross.status).toBe(403);
    const big = await send("an-b", Array.from({ length: 51 }, () => ({ type: "nope" })));
    expect(big.status).toBe(400);
    expect(((await big.json()) as any).error.code).toBe("too-many-events");
    expect((await send("an-b", { type: "search" })).status).toBe(400);
    expect((await report(tokenB, "search")).json.totals.searches).toBe(before);
  });

  it("counts the no-script search page server-side and the assistant's questions as kind assistant", async () => {
    const slug = "an-c";
    const token = await createPortal(slug);
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("alpha"))).status).toBe(201);
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/search?q=authentication`)).status).toBe(200);
    expect((await SELF.fetch(`${ORIGIN}/p/${slug}/search?q=zzyzx`, { headers: { dnt: "1" } })).status).toBe(200);
    const ask = await SELF.fetch(`${ORIGIN}/p/${slug}/assistant/ask`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: "How do I send my key?" }) });
    expect(ask.status).toBe(200);
    const declined = await SELF.fetch(`${ORIGIN}/p/${slug}/assistant/ask`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: "quantum chromodynamics lattice" }) });
    expect(declined.status).toBe(200);
    const answered = ((await declined.json()) as any).answered;
    // The records run after the answer (waitUntil): poll briefly.
    let s: any;
    let a: any;
    for (let i = 0; i < 50; i++) {
      s = (await report(token, "search")).json;
      a = (await report(token, "search?kind=assistant")).json;
      if (s.totals.searches >= 1 && a.totals.searches >= 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(s.topQueries.map((q: any) => q.q)).toEqual(["authentication"]);
    expect(a.totals.searches).toBe(2);
    expect(a.topQueries.map((q: any) => q.q).sort()).toEqual(["how do i send my key?", "quantum chromodynamics lattice"]);
    expect(a.totals.noHit).toBe(answered ? 0 : 1);
  });
});

describe("analytics storage", () => {
  it("keeps gated readers' queries out of audience=public, and checks ranges", async () => {
    const id = await portalId("an-b");
    const today = dayOf(Date.now());
    await portalAnalytics(env, id).ingest({ day: today, searches: [{ kind: "search", q: "partner pricing", gated: true, results: 0 }], clicks: [], ratings: [{ url: "/p/an-b/guides/partners", gated: true, helpful: true, comment: "secret" }] });
    const all = (await report(tokenB, "search")).json;
    expect(all.noHitQueries).toContainEqual({ q: "partner pricing", count: 1, lastSeen: today, gated: true });
    const pub = (await report(tokenB, "search?audience=public")).json;
    expect(pub.topQueries.map((q: any) => q.q)).not.toContain("partner pricing");
    expect(JSON.stringify((await report(tokenB, "pages?audience=public")).json)).not.toContain("secret");
    expect(JSON.stringify((await report(tokenA, "pages")).json)).not.toContain("partners");
    expect((await report(tokenB, "search?from=2020-01-01")).json.error.code).toBe("invalid-range");
    expect((await report(tokenB, "search?from=2026-13-01")).status).toBe(400);
    expect((await report(tokenB, "search?from=2026-05-02&to=2026-05-01")).status).toBe(400);
    expect((await report(tokenB, "search?kind=other")).status).toBe(400);
    expect((await SELF.fetch(`${ORIGIN}/v1/analytics/search`)).status).toBe(401);
  });

  it("writes one upsert per distinct key per batch, and retention keeps day 183 and deletes day 184 (injected clock)", async () => {
    const stub = portalAnalytics(env, 990_001);
    const now = Date.parse("2026-09-30T12:00:00Z");
    const day = (back: number) => dayOf(now - back * 86_400_000);
    const searches = Array.from({ length: 40 }, (_, i) => ({ kind: "search" as const, q: `q${i % 4}`, gated: false, results: i % 2 }));
    const { statements } = await stub.ingest({ day: day(183), searches, clicks: [], ratings: [] });
    // Per distinct query: its day, week and month rows; then the day's totals (one transaction).
    expect(statements).toBe(13);
    await stub.ingest({ day: day(184), searches: searches.slice(0, 1), clicks: [{ kind: "search", q: "q0", gated: false, position: 2 }], ratings: [{ url: "/x", gated: false, helpful: true, comment: "old" }] });
    await runInDurableObject(stub, (instance: PortalAnalytics, state) => {
      const days = () => state.storage.sql.exec<{ day: string }>("SELECT DISTINCT day FROM query_days ORDER BY day").toArray().map((r) => r.day);
      expect(days()).toEqual([day(184), day(183)]);
      // Day 184's query row, day total, position row, page row and comment; March's month row and the week's row stay (day 183 is in both).
      expect(instance.prune(now)).toBe(5);
      expect(days()).toEqual([day(183)]);
      expect(state.storage.sql.exec("SELECT * FROM comments").toArray()).toEqual([]);
      expect(instance.searchReport({ from: day(183), to: day(0), includeGated: true }, "search").totals).toMatchObject({ searches: 40, noHit: 20 });
    });
  });
});

describe("backlog and dashboard", () => {
  it("groups no-hit queries by meaning, drafts a guide for a group, and lets writers edit, download and discard it", async () => {
    const token = await createPortal("an-d");
    expect((await upload(token, PETSTORE_OPS, { api: "pets" })).status).toBe(201);
    expect((await uploadContent(token, bundle("alpha"))).status).toBe(201);
    const today = dayOf(Date.now());
    const s = (q: string, kind: "search" | "assistant" = "search") => ({ kind, q, gated: false, results: 0 });
    await portalAnalytics(env, await portalId("an-d")).ingest({ day: today, searches: [s("webhooks"), s("webhooks"), s("webhok"), s("web hook", "assistant"), s("pet adoption")], clicks: [], ratings: [] });
    const list = await report(token, "backlog");
    expect(list.status).toBe(200);
    const hook = list.json.groups[0];
    expect(hook).toMatchObject({ label: "webhooks", count: 4, kinds: ["search", "assistant"], draftId: null });
    expect(hook.queries.map((q: any) => q.q).sort()).toEqual(["web hook", "webhok", "webhooks"]);
    expect(list.json.groups[1].label).toBe("pet adoption");

    const pet = list.json.groups[1];
    const made = await SELF.fetch(`${ORIGIN}/v1/analytics/backlog/${pet.id}/draft`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(made.status).toBe(201);
    const draft: any = await made.json();
    expect(draft).toMatchObject({ groupId: pet.id, title: "Pet adoption", status: "draft" });
    expect(draft.body).toContain("Readers asked for this 1 time");
    // The outline names the operations the engine found nearest ("pet").
    expect(draft.body).toMatch(/\[`(GET|POST) \/pets/);
    expect((await report(token, "backlog")).json.groups[1].draftId).toBe(draft.id);

    const edited = await SELF.fetch(`${ORIGIN}/v1/analytics/backlog/drafts/${draft.id}`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ title: "Adopting a pet", body: "# Adopting a pet\n" }) });
    expect(edited.status).toBe(200);
    const md = await SELF.fetch(`${ORIGIN}/v1/analytics/backlog/drafts/${draft.id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(md.headers.get("content-disposition")).toBe('attachment; filename="adopting-a-pet.md"');
    expect(await md.text()).toBe("# Adopting a pet\n");
    // Another portal's token cannot read or change it.
    expect((await SELF.fetch(`${ORIGIN}/v1/analytics/backlog/drafts/${draft.id}`, { headers: { authorization: `Bearer ${tokenA}` } })).status).toBe(404);
    expect((await SELF.fetch(`${ORIGIN}/v1/analytics/backlog/drafts/${draft.id}/discard`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).status).toBe(204);
    expect((await report(token, "backlog")).json.drafts).toEqual([]);
    expect((await SELF.fetch(`${ORIGIN}/v1/analytics/backlog/nope/draft`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
  });

  it("renders the dashboard report with its three charts, and the writers' page shells", async () => {
    const res = await SELF.fetch(`${ORIGIN}/v1/analytics/dashboard.html?from=${dayOf(Date.now() - 6 * 86_400_000)}`, { headers: { authorization: `Bearer ${tokenA}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const chart of ["searches", "rates", "positions"]) expect(html).toContain(`data-chart="${chart}"`);
    expect(html.match(/<rect class="bar" /g)).toHaveLength(7);
    expect(html).toContain('data-total="searches">4<');
    expect(html).toContain("Needs &lt;b>an example&lt;/b>");
    for (const page of ["analytics", "backlog"]) {
      const shell = await SELF.fetch(`${ORIGIN}/p/an-a/admin/${page}`);
      expect(shell.status).toBe(200);
      expect(shell.headers.get("cache-control")).toBe("no-store");
      const text = await shell.text();
      expect(text).toContain('name="token"');
      expect(text).not.toContain("webhok");
    }
  });
});

describe("monthly rollups", () => {
  it("splits a range into whole months and the partial months at its ends", () => {
    expect(splitRange("2026-01-15", "2026-04-10")).toEqual({ days: [["2026-01-15", "2026-01-31"], ["2026-04-01", "2026-04-10"]], months: ["2026-02", "2026-03"] });
    expect(splitRange("2026-02-01", "2026-02-28")).toEqual({ days: [], months: ["2026-02", "2026-02"] });
    expect(splitRange("2026-03-05", "2026-03-09")).toEqual({ days: [["2026-03-05", "2026-03-09"]] });
    expect(splitRange("2025-12-31", "2026-01-01")).toEqual({ days: [["2025-12-31", "2025-12-31"], ["2026-01-01", "2026-01-01"]] });
  });

  it("reports a range across months exactly as its days add up (whole months read from the monthly rows)", async () => {
    const stub = portalAnalytics(env, 990_002);
    const days = ["2026-01-10", "2026-01-20", "2026-02-03", "2026-02-27", "2026-03-15", "2026-04-02", "2026-04-20"];
    for (const [i, d] of days.entries()) {
      await stub.ingest({ day: d, searches: [{ kind: "search", q: "pets", gated: false, results: 3 }, { kind: "search", q: `lost ${i % 2}`, gated: false, results: 0 }], clicks: [{ kind: "search", q: "pets", gated: false, position: i + 1 }], ratings: [] });
    }
    await runInDurableObject(stub, (instance: PortalAnalytics) => {
      // 2026-01-15 .. 2026-04-10 holds days 2..6 (01-20, 02-03, 02-27, 03-15, 04-02).
      const r = instance.searchReport({ from: "2026-01-15", to: "2026-04-10", includeGated: true }, "search");
      expect(r.totals).toEqual({ searches: 10, noHit: 5, noHitRate: 0.5, clicks: 5, clickThroughRate: 0.5, avgClickPosition: 4 });
      expect(r.topQueries.map((q) => [q.q, q.count, q.clicks, q.avgClickPosition])).toEqual([["pets", 5, 5, 4], ["lost 1", 3, 0, null], ["lost 0", 2, 0, null]]);
      expect(r.noHitQueries).toEqual([{ q: "lost 1", count: 3, lastSeen: "2026-04-02", gated: false }, { q: "lost 0", count: 2, lastSeen: "2026-03-15", gated: false }]);
      expect(instance.noHitQueries({ from: "2026-01-15", to: "2026-04-10", includeGated: true }).map((q) => [q.q, q.count])).toEqual([["lost 1", 3], ["lost 0", 2]]);
    });
  });
});

describe("reports read the rollups as they are", () => {
  it("counts today's events at once, and a past day's late events too", async () => {
    const stub = portalAnalytics(env, 990_003);
    const today = dayOf(Date.now());
    const yesterday = dayOf(Date.now() - 86_400_000);
    const range = { from: dayOf(Date.now() - 10 * 86_400_000), to: today, includeGated: true };
    const one = (day: string, q: string) => stub.ingest({ day, searches: [{ kind: "search", q, gated: false, results: 0 }], clicks: [], ratings: [] });
    await one(yesterday, "old");
    await runInDurableObject(stub, (instance: PortalAnalytics) => expect(instance.searchReport(range, "search").topQueries.map((q) => [q.q, q.count])).toEqual([["old", 1]]));
    await one(today, "old");
    await one(today, "new");
    await runInDurableObject(stub, (instance: PortalAnalytics) => {
      expect(instance.searchReport(range, "search").topQueries.map((q) => [q.q, q.count])).toEqual([["old", 2], ["new", 1]]);
      expect(instance.noHitQueries(range).find((q) => q.q === "old")).toMatchObject({ count: 2, lastSeen: today });
    });
    await one(yesterday, "late");
    await runInDurableObject(stub, (instance: PortalAnalytics) => expect(instance.searchReport(range, "search").topQueries.map((q) => q.q)).toEqual(["old", "late", "new"]));
  });
});

describe("seeding (local only)", () => {
  it("folds back-dated day batches into the rollups and reports the rows; refuses malformed batches", async () => {
    const token = await createPortal("an-e");
    const day = dayOf(Date.now() - 10 * 86_400_000);
    const res = await SELF.fetch(`${ORIGIN}/v1/analytics/seed`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ batches: [{ day, searches: [{ q: "Pets", results: 2 }, { q: "pets", results: 2 }, { q: "gone", results: 0 }], clicks: [{ q: "pets", position: 4 }], ratings: [{ url: "/p/an-e/guides/intro", helpful: false, comment: "more" }] }] }),
    });
    expect(res.status).toBe(200);
    const seeded: any = await res.json();
    expect(seeded).toMatchObject({ batches: 1, statements: 10, rows: { query_days: 2, query_weeks: 2, query_months: 2, day_totals: 1, position_days: 1, page_days: 1, comments: 1 } });
    expect(seeded.bytes).toBeGreaterThan(0);
    const r = (await report(token, `search?from=${day}&to=${day}`)).json;
    expect(r.totals).toEqual({ searches: 3, noHit: 1, noHitRate: 0.3333, clicks: 1, clickThroughRate: 0.3333, avgClickPosition: 4 });
    const bad = await SELF.fetch(`${ORIGIN}/v1/analytics/seed`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ batches: [{ day: "yesterday" }] }) });
    expect(bad.status).toBe(400);
  });
});
