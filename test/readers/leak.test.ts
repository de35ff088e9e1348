/**
 * The leak suite: for every reader surface, the private page's (and the internal API's) unique marker word never
 * appears for a reader without access (signed out, or signed in without the audience) and appears for one with it.
 */
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS, get, JWT_SECRET, MARKER, patchAccess, sessionCookie, setUpPortal } from "./fixture";

const P = "leaky";
const readers: Record<"anonymous" | "outsider" | "partner", string | undefined> = { anonymous: undefined, outsider: undefined, partner: undefined };

async function jwtCookie(sub: string, groups: string[]): Promise<string> {
  const token = await new SignJWT({ sub, groups }).setProtectedHeader({ alg: "HS256" }).setIssuer("https://login.acme.test").setAudience("portico")
    .setExpirationTime("5m").sign(new TextEncoder().encode(JWT_SECRET));
  return sessionCookie(await get(`/p/${P}/auth/jwt?token=${token}`));
}

/**
 * Surfaces: path, and what a partner must see there (the marker, unless the surface shows a URL instead). `echoes`:
 * the reader's own query, which the answer repeats back to them (not a leak), removed before checking.
 */
const SURFACES: { name: string; path: string | (() => Promise<string>); partnerSees?: string; echoes?: string }[] = [
  { name: "the private page", path: `/p/${P}/guides/partners/deals` },
  { name: "the private page in another locale URL", path: `/p/${P}/guides/partners/deals?lang=de` },
  { name: "navigation, related pages and prev/next of a public page", path: `/p/${P}/guides/intro` },
  { name: "the portal home", path: `/p/${P}/` },
  { name: "a tag list", path: `/p/${P}/tags/shared` },
  { name: "the changelog", path: `/p/${P}/changelog` },
  { name: "RSS", path: `/p/${P}/changelog.rss` },
  { name: "llms.txt", path: `/p/${P}/llms.txt` },
  { name: "llms-full.txt", path: `/p/${P}/llms-full.txt` },
  { name: "the sitemap", path: `/p/${P}/sitemap.xml`, partnerSees: "/guides/partners/deals" },
  { name: "the API switcher and linked guides of a public operation", path: `/p/${P}/reference/pets/1.0.0/listpets` },
  { name: "the private API's index", path: `/p/${P}/reference/internal/` },
  { name: "the private API's operation", path: `/p/${P}/reference/internal/2.0.0/readledger` },
  { name: "the private API's version switcher", path: `/p/${P}/reference/internal/2.0.0/` },
  { name: "an operation link into the private API", path: `/p/${P}/op/internal/readledger`, partnerSees: "/reference/internal/2.0.0/readledger" },
  { name: "the glossary", path: `/p/${P}/glossary`, partnerSees: "" },
  // Search: the content and APIs were indexed before the policy gated them (beforeAll), so these also prove the
  // policy applies to an index built earlier.
  { name: "search.json for a word of the private page", path: `/p/${P}/search.json?q=terms` },
  { name: "search.json for the marker itself", path: `/p/${P}/search.json?q=${MARKER}`, echoes: MARKER, partnerSees: "/guides/partners/deals" },
  { name: "search.json by prefix", path: `/p/${P}/search.json?q=${MARKER.slice(0, 6).toLowerCase()}` },
  { name: "search.json with a typo (and its did-you-mean)", path: `/p/${P}/search.json?q=${MARKER.slice(0, -1).toLowerCase()}` },
  { name: "search.json for the private API's operation", path: `/p/${P}/search.json?q=ledger` },
  { name: "the search page", path: `/p/${P}/search?q=terms` },
];

async function read(path: string, cookie: string | undefined, echoes?: string): Promise<{ status: number; all: string }> {
  const res = await get(path, cookie);
  const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join("\n");
  const all = `${headers}\n${await res.text()}`;
  return { status: res.status, all: echoes ? all.split(echoes).join("") : all };
}

let assetPath = "";

beforeAll(async () => {
  const token = await setUpPortal(P);
  expect((await patchAccess(token, ACCESS)).status).toBe(200);
  readers.outsider = await jwtCookie("outsider", ["beta"]);
  readers.partner = await jwtCookie("partner", ["partners"]);
  const page = await (await get(`/p/${P}/guides/partners/deals`, readers.partner)).text();
  assetPath = /src="(\/p\/leaky\/_content\/[0-9a-f]{64}\.png)"/.exec(page)![1];
});

describe("leak suite", () => {
  for (const s of SURFACES) {
    it(`${s.name}: nothing for readers without access, everything for a partner`, async () => {
      const path = typeof s.path === "string" ? s.path : await s.path();
      for (const who of ["anonymous", "outsider"] as const) {
        const { all } = await read(path, readers[who], s.echoes);
        expect(all, `${who} on ${path}`).not.toContain(MARKER);
        expect(all.toLowerCase(), `${who} on ${path}`).not.toContain(MARKER.toLowerCase());
        if (s.partnerSees) expect(all, `${who} on ${path}`).not.toContain(s.partnerSees);
      }
      const partner = await read(path, readers.partner, s.echoes);
      if (s.partnerSees !== "") expect(partner.all, `partner on ${path}`).toContain(s.partnerSees ?? MARKER);
    });
  }

  it("the private page's image: 404 for readers without access, served (never publicly cached) to a partner", async () => {
    expect((await get(assetPath)).status).toBe(404);
    expect((await get(assetPath, readers.outsider)).status).toBe(404);
    const res = await get(assetPath, readers.partner);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("404 text: a page the reader may not open reads exactly like a page that does not exist", async () => {
    const gated = await get(`/p/${P}/guides/partners/deals`, readers.outsider);
    const missing = await get(`/p/${P}/guides/partners/nothing`, readers.outsider);
    expect([gated.status, missing.status]).toEqual([404, 404]);
    expect((await gated.text()).replace("partners/deals", "X")).toBe((await missing.text()).replace("partners/nothing", "X"));
  });

  it("signed-out readers are sent to sign in on gated paths whether or not the page exists", async () => {
    for (const path of [`/p/${P}/guides/partners/deals`, `/p/${P}/guides/partners/nothing`, `/p/${P}/reference/internal/`, `/p/${P}/reference/internal/9.9.9/x`]) {
      const res = await get(path);
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toBe(`/p/${P}/auth/signin?return=${encodeURIComponent(path)}`);
    }
  });

  it("every reader-dependent answer is Cache-Control: private, no-store", async () => {
    for (const path of [`/p/${P}/guides/intro`, `/p/${P}/changelog.rss`, `/p/${P}/sitemap.xml`, `/p/${P}/reference/pets/1.0.0/listpets`, `/p/${P}/llms.txt`, `/p/${P}/search.json?q=public`]) {
      for (const cookie of [undefined, readers.partner]) expect((await get(path, cookie)).headers.get("cache-control"), path).toBe("private, no-store");
    }
  });
});
