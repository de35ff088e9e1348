// A realistic month of reader events for the demo portal (issue 29, docs/analytics.md), seeded once by `npm start`
// through POST /v1/analytics/seed (local only). Built from the demo itself: every query is run against the live
// search.json first, so its result count and the pages its clicks open are the engine's real answers; a few
// queries the demo does not cover (invoices, websockets, SDKs, Postman: typed several ways) fill the no-hit backlog.
// Deterministic (a seeded PRNG): the same demo gets the same month.
import { request } from "node:http";

/** What readers of a parcel API's docs search for, with a relative weight (Zipf-like: a few queries dominate). */
const QUERIES = [
  ["create shipment", 40], ["tracking", 34], ["webhooks", 30], ["api key", 26], ["authentication", 22], ["label", 20],
  ["cancel shipment", 18], ["rates", 16], ["pickup", 14], ["errors", 12], ["pagination", 10], ["zpl label", 9],
  ["webhook retries", 8], ["track parcel", 8], ["parcel weight", 7], ["rate limit", 6], ["shipmnet", 5], ["trackng", 4],
  ["label format", 4], ["schedule pickup", 4], ["idempotency", 3], ["status codes", 3],
  // Partly covered: found, but the answers are weak (few clicks).
  ["customs declaration", 5], ["return label", 4], ["insurance", 3], ["dangerous goods", 2],
  // Not covered by the demo at all (no result): the backlog's groups, typed several ways.
  ["invoices", 7], ["invoice", 4], ["invoicing", 2], ["invoce", 2], ["invioce", 1],
  ["websockets", 4], ["websocket", 3], ["web socket", 2], ["websoket", 2],
  ["sdk", 5], ["sdks", 2], ["postman", 3], ["postmn", 1], ["graphql", 3], ["hazmat", 2],
];
/** Questions to the assistant, answered or not. */
const QUESTIONS = [
  ["how do I cancel a shipment that already has a label?", 6, true], ["which label formats are supported?", 5, true],
  ["how are webhooks retried?", 4, true], ["how do I declare customs for an international parcel?", 4, false],
  ["can I create a return label?", 3, false], ["is there a sandbox environment?", 3, false],
];
const COMMENTS = ["An example in Python would help.", "The retry schedule is unclear.", "Which statuses can be cancelled?", "Missing the error body format.", "Could use a diagram."];

/** mulberry32: a small seeded PRNG (0 <= x < 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** GET `path` under the portal's reader origin `site`, sent to the service `origin` with the site's Host (a custom domain resolves to 127.0.0.1 only in browsers), as JSON. */
function getJson(origin, site, path) {
  const s = new URL(site);
  const host = s.host;
  const u = new URL(s.pathname.replace(/\/$/, "") + path, origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname: u.hostname, port: u.port, path: u.pathname + u.search, headers: { host, accept: "application/json" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Seeds the 30 days before today for the demo portal; returns the seed answer (rows, bytes).
 * @param {{ origin: string, site: string, token: string }} demo the service origin, the portal's reader base (its custom
 *   domain's origin, or `{origin}/p/{slug}`) and its token
 */
export async function seedDemoAnalytics({ origin, site, token }) {
  const answers = new Map();
  const titles = new Map();
  for (const [q] of QUERIES) {
    const a = await getJson(origin, site, `/search.json?q=${encodeURIComponent(q)}&limit=10`);
    answers.set(q, { total: a.total, urls: a.results.map((r) => r.url) });
    for (const r of a.results) if (r.kind === "guide" && !r.url.includes("#")) titles.set(r.url, r.title);
  }
  // Reader URLs are under the portal's base path (`/p/{slug}`, or none on its custom domain).
  const base = new URL(site).pathname.replace(/\/$/, "");
  const local = (u) => u.slice(base.length);
  const pages = [...new Set([...answers.values()].flatMap((a) => a.urls).map(local).filter((u) => u.startsWith("/guides/") && !u.includes("#") && !u.startsWith("/guides/partners")))].slice(0, 12);
  const random = prng(29);
  const pick = (list) => {
    const total = list.reduce((n, x) => n + x[1], 0);
    let r = random() * total;
    for (const x of list) if ((r -= x[1]) < 0) return x;
    return list[list.length - 1];
  };
  const batches = [];
  const DAY = 86_400_000;
  for (let back = 30; back >= 1; back--) {
    const date = new Date(Date.now() - back * DAY);
    const weekday = date.getUTCDay() % 6 !== 0;
    // Traffic grows a little over the month; weekends are quieter.
    const volume = Math.round((weekday ? 140 : 60) * (0.8 + 0.4 * (30 - back) / 30) * (0.85 + 0.3 * random()));
    const searches = [];
    const clicks = [];
    for (let i = 0; i < volume; i++) {
      const [q] = pick(QUERIES);
      const a = answers.get(q);
      searches.push({ kind: "search", q, results: a.total });
      if (a.total > 0 && random() < 0.62) {
        // Position 1 most often, then a long tail (the geometric shape search analytics usually shows).
        let position = 1;
        while (position < Math.min(a.total, 10) && random() < 0.33) position++;
        clicks.push({ kind: "search", q, position });
      }
    }
    for (let i = 0; i < Math.round(volume / 25); i++) {
      const [q, , answered] = pick(QUESTIONS);
      searches.push({ kind: "assistant", q, results: answered ? 3 : 0 });
    }
    const ratings = [];
    for (let i = 0; i < Math.round(volume / 12); i++) {
      const p = Math.floor(random() * pages.length);
      const url = pages[p];
      // Each page has its own share of "helpful" (some pages clearly weaker than others).
      const helpful = random() < 0.9 - (p % 4) * 0.15;
      ratings.push({ url: base + url, helpful, ...(titles.has(base + url) ? { title: titles.get(base + url) } : {}), ...(!helpful && random() < 0.3 ? { comment: COMMENTS[Math.floor(random() * COMMENTS.length)] } : {}) });
    }
    batches.push({ day: date.toISOString().slice(0, 10), searches, clicks, ratings });
  }
  const res = await fetch(`${origin}/v1/analytics/seed`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ batches }) });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`seeding the demo's analytics failed: ${res.status} ${JSON.stringify(body)}`);
  return body;
}
