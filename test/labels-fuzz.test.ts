import { env, SELF } from "cloudflare:test";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeLabel } from "../worker/publish/names";
import { createPortal, ORIGIN } from "./harness/client";

/** Unicode general categories (UAX #44) and the first code point of each, found by scanning. */
const CATEGORIES = ["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So",
  "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn"] as const;
/** Categories no label may contain (besides U+0020 for Zs, checked separately). */
const REFUSED = new Set(["Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn"]);

function representatives(): Map<string, string[]> {
  const found = new Map<string, string[]>(CATEGORIES.map((c) => [c, []]));
  const tests = CATEGORIES.map((c) => [c, new RegExp(`^\\p{${c}}$`, "u")] as const);
  for (let cp = 0; cp < 0x30000; cp++) {
    const ch = String.fromCodePoint(cp);
    for (const [name, re] of tests) {
      const list = found.get(name)!;
      if (list.length < 3 && (re.test(ch) || (name === "Cs" && cp >= 0xd800 && cp <= 0xdfff))) list.push(ch);
    }
  }
  return found;
}

const MINI = (version: string) => JSON.stringify({ openapi: "3.0.3", info: { title: "Fuzz", version }, paths: { "/x": { get: { responses: { "200": { description: "ok" } } } } } });
const BODY = MINI("1.0.0");

/** Percent-encodes a string's UTF-16 units as UTF-8, lone surrogates included (as their 3-byte WTF-8 form). */
function rawQueryValue(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
    const cp = pair ? s.codePointAt(i)! : unit;
    if (pair) i++;
    const bytes = cp < 0x80 ? [cp] : cp < 0x800 ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)] : cp < 0x10000
      ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
      : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    out += bytes.map((b) => "%" + b.toString(16).toUpperCase().padStart(2, "0")).join("");
  }
  return out;
}

async function post(token: string, body: string, version?: string): Promise<{ status: number; json: any }> {
  const qs = version === undefined ? "api=fuzz" : `api=fuzz&version=${rawQueryValue(version)}`;
  const res = await SELF.fetch(`${ORIGIN}/v1/apis/upload?${qs}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) };
}

/** The published state is whole: no pending row, the live pointer on a published row, every published label servable. */
async function expectConsistent(portal: string): Promise<number> {
  const pending = await env.DB.prepare("select count(*) as n from versions where status = 'pending'").first<{ n: number }>();
  expect(pending?.n).toBe(0);
  const apis = await env.DB.prepare("select a.id, a.live_version_id, v.status from apis a join portals p on p.id = a.portal_id left join versions v on v.id = a.live_version_id where p.slug = ?")
    .bind(portal).all<{ id: number; live_version_id: number; status: string }>();
  for (const api of apis.results) expect(api.status).toBe("published");
  const rows = await env.DB.prepare("select distinct v.label from versions v join apis a on a.id = v.api_id join portals p on p.id = a.portal_id where p.slug = ? and v.status = 'published'")
    .bind(portal).all<{ label: string }>();
  for (const { label } of rows.results) {
    const checked = normalizeLabel(label);
    expect(checked.ok && checked.label === label, JSON.stringify(label)).toBe(true);
    const page = await SELF.fetch(`${ORIGIN}/p/${portal}/reference/fuzz/${encodeURIComponent(label)}/`);
    await page.arrayBuffer();
    expect(page.status, JSON.stringify(label)).toBe(200);
  }
  return rows.results.length;
}

describe("label checks (info.version, ?version=) under fuzzing", () => {
  it("normalizeLabel never throws; what it accepts is NFC, well-formed and free of control, bidi and format characters", () => {
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)),
      fc.constantFrom("\u202e", "\u2066", "\u200e", "\u061c", "\u200b", "\u00ad", "\ufeff", "\u3164", "e\u0301", " ", "/", "."),
      fc.constantFrom(..."v1.0-beta".split("")),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (s) => {
        const r = normalizeLabel(s);
        if (!r.ok) return typeof r.reason === "string" && r.reason.length > 0;
        return r.label === r.label.normalize("NFC") && !/[\uD800-\uDFFF]/.test(r.label.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, "")) && !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u.test(r.label) && r.label.length <= 64;
      }),
      { numRuns: 5000 },
    );
    expect(normalizeLabel("e\u0301")).toEqual({ ok: true, label: "\u00e9" });
    expect(normalizeLabel("1.0 beta")).toEqual({ ok: true, label: "1.0 beta" });
    expect(normalizeLabel("1.0\u202e")).toMatchObject({ ok: false, reason: expect.stringContaining("U+202E, a bidirectional control") });
  });

  it("every general category, lone surrogates and 1,000 random labels: never a 5xx, never a half-written publication", async () => {
    const token = await createPortal("labels");
    expect((await post(token, BODY)).status).toBe(201);
    const statuses = new Map<number, number>();
    const seen = (status: number, what: string) => {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      expect(status, what).toBeLessThan(500);
      expect([200, 201, 400, 422], what).toContain(status);
    };
    for (const [category, chars] of representatives()) {
      expect(chars.length, category).toBeGreaterThan(0);
      for (const ch of chars) {
        for (const label of [ch, `1.${ch}.0`]) {
          const what = `${category} U+${ch.charCodeAt(0).toString(16)} in ${JSON.stringify(label)}`;
          const viaInfo = await post(token, MINI(label));
          seen(viaInfo.status, `info.version ${what}`);
          const viaQuery = await post(token, BODY, label);
          seen(viaQuery.status, `?version= ${what}`);
          const mustRefuse = REFUSED.has(category) || (category === "Zs" && ch !== " ") || (ch === " " && label === " ");
          if (mustRefuse && category !== "Cs") {
            // Lone surrogates cannot travel in a query as UTF-8; info.version (a JSON escape) carries them.
            expect(viaQuery.status, `?version= ${what}`).toBe(400);
            expect(viaQuery.json.error.message).toMatch(/^\?version= /);
          }
          if (label.trim() === "") {
            // White space only reads as no version (issue 12): published under the fallback label, the upload date.
            expect(viaInfo.status, `info.version ${what}`).toBe(201);
            expect(viaInfo.json.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          } else if (mustRefuse) {
            expect(viaInfo.status, `info.version ${what}`).toBe(422);
            expect(viaInfo.json.error.message).toMatch(/^info\.version /);
          }
        }
      }
    }
    for (const raw of ["%ED%A0%80", "%ED%B0%80", "1.0%ED%A0%80", "%FF%FE", "%C0%AF", "%E2%80%AE1.0", "%00"]) {
      const res = await SELF.fetch(`${ORIGIN}/v1/apis/upload?api=fuzz&version=${raw}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: BODY });
      await res.text();
      seen(res.status, `raw ?version=${raw}`);
      expect(res.status, raw).toBe(400);
    }

    const unit = fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((cp) => String.fromCodePoint(cp)) },
      { weight: 2, arbitrary: fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)) },
      { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((u) => String.fromCharCode(u)) },
      { weight: 1, arbitrary: fc.constantFrom("\u202e", "\u2067", "\u200f", "\u200d", "\u3164", "\u00a0", "\u0301", "/", "..") },
    );
    const labels = fc.sample(fc.string({ unit, minLength: 0, maxLength: 70 }), { numRuns: 1000, seed: 15 });
    let i = 0;
    for (const label of labels) {
      const viaInfo = i++ % 2 === 0;
      const res = viaInfo ? await post(token, MINI(label)) : await post(token, BODY, label);
      seen(res.status, `${viaInfo ? "info.version" : "?version="} ${JSON.stringify(label)}`);
      if (res.status === 201) expect(normalizeLabel(res.json.version)).toEqual({ ok: true, label: res.json.version });
    }
    const published = await expectConsistent("labels");
    expect(statuses.get(201) ?? 0).toBeGreaterThan(50);
    expect((statuses.get(400) ?? 0) + (statuses.get(422) ?? 0)).toBeGreaterThan(100);
    expect(published).toBeGreaterThan(50);
  }, 300_000);

  it("a decomposed ?version= is stored in NFC, and both spellings of its URL serve it", async () => {
    const token = await createPortal("nfc");
    const res = await post(token, BODY, "caf\u0065\u0301");
    expect(res.status).toBe(201);
    expect(res.json.version).toBe("caf\u00e9");
    for (const spelling of ["caf\u00e9", "caf\u0065\u0301"]) {
      const page = await SELF.fetch(`${ORIGIN}/p/nfc/reference/fuzz/${encodeURIComponent(spelling)}/`);
      await page.arrayBuffer();
      expect(page.status, spelling).toBe(200);
    }
  });

  it("a lone-surrogate info.version is refused with 422 before anything is written, so retries add nothing", async () => {
    const token = await createPortal("surrogate");
    for (let retry = 0; retry < 3; retry++) {
      const res = await post(token, MINI("\ud800"));
      expect(res.status).toBe(422);
      expect(res.json.error).toMatchObject({ code: "invalid-version", details: { field: "info.version" } });
      expect(res.json.error.message).toContain("lone surrogate");
    }
    const rows = await env.DB.prepare("select count(*) as n from versions v join apis a on a.id = v.api_id join portals p on p.id = a.portal_id where p.slug = 'surrogate'").first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});
