import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCESS, get, JWT_SECRET, MARKER, patchAccess, sessionCookie, setUpPortal } from "./fixture";

const HS = "jwt-hs";
const RS = "jwt-rs";
const ES = "jwt-es";
let rsa: { privateKey: CryptoKey; publicKey: CryptoKey };
let ec: { privateKey: CryptoKey; publicKey: CryptoKey };
let rsaPem: string;
const secretKey = new TextEncoder().encode(JWT_SECRET);
const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

function claims(extra: Record<string, unknown> = {}) {
  return { sub: "user-42", email: "ada@acme.test", groups: ["partners"], vars: { api_key: "sk_live_ada", tenant: "ada-co" }, ...extra };
}

async function sign(key: CryptoKey | Uint8Array, alg: string, payload = claims(), opts: { exp?: string | number; iss?: string; aud?: string; kid?: string } = {}) {
  return new SignJWT(payload).setProtectedHeader({ alg, ...(opts.kid ? { kid: opts.kid } : {}) }).setIssuedAt().setIssuer(opts.iss ?? "https://login.acme.test")
    .setAudience(opts.aud ?? "portico").setExpirationTime(opts.exp ?? "5m").sign(key);
}

const handshake = (slug: string, token: string, ret = `/p/${slug}/guides/partners/deals`) => get(`/p/${slug}/auth/jwt?token=${encodeURIComponent(token)}&return=${encodeURIComponent(ret)}`);

beforeAll(async () => {
  rsa = await generateKeyPair("RS256", { extractable: true });
  ec = await generateKeyPair("ES256", { extractable: true });
  rsaPem = await exportSPKI(rsa.publicKey);
  const jwk = { ...(await exportJWK(rsa.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const [hs, rs, es] = await Promise.all([setUpPortal(HS), setUpPortal(RS), setUpPortal(ES)]);
  expect((await patchAccess(hs, ACCESS)).status).toBe(200);
  expect((await patchAccess(rs, { ...ACCESS, methods: ["jwt"], password: null, jwt: { jwks: { keys: [jwk] }, issuer: "https://login.acme.test", audience: "portico" } })).status).toBe(200);
  expect((await patchAccess(es, { ...ACCESS, methods: ["jwt"], password: null, jwt: { publicKey: await exportSPKI(ec.publicKey), issuer: "https://login.acme.test", audience: "portico" } })).status).toBe(200);
});

describe("JWT hand-off", () => {
  it("signs in with HS256, lands back on the page, and fills the reader's variables", async () => {
    const res = await handshake(HS, await sign(secretKey, "HS256"));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/p/${HS}/guides/partners/deals`);
    const page = await get(`/p/${HS}/guides/partners/deals`, sessionCookie(res));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(MARKER);
    expect(html).toContain("<code>sk_live_ada</code>");
    expect(html).toContain("tenant ada-co");
    expect(html).not.toContain("KEY_DEFAULT");
  });

  it("signs in with RS256 against a JWKS and with ES256 against a PEM key", async () => {
    const rs = await handshake(RS, await sign(rsa.privateKey, "RS256", claims(), { kid: "k1" }));
    expect(rs.status).toBe(303);
    expect((await get(`/p/${RS}/reference/internal/`, sessionCookie(rs))).status).toBe(200);
    const es = await handshake(ES, await sign(ec.privateKey, "ES256"));
    expect(es.status).toBe(303);
    expect((await get(`/p/${ES}/guides/partners/deals`, sessionCookie(es))).status).toBe(200);
  });

  it("refuses a token issued in the future beyond the 60 s skew, and accepts one within it", async () => {
    const at = (iat: number) => new SignJWT(claims({ sub: `iat-${iat}` })).setProtectedHeader({ alg: "HS256" }).setIssuedAt(Math.floor(Date.now() / 1000) + iat)
      .setIssuer("https://login.acme.test").setAudience("portico").setExpirationTime("15m").sign(secretKey);
    const future = await handshake(HS, await at(600));
    expect(future.status).toBe(401);
    expect(await future.text()).toContain("issued in the future");
    expect((await handshake(HS, await at(30))).status).toBe(303);
  });

  it("gives a reader without the audience the same 404 as a missing page", async () => {
    const res = await handshake(HS, await sign(secretKey, "HS256", claims({ groups: ["beta"], sub: "bob" })));
    const cookie = sessionCookie(res);
    const gated = await get(`/p/${HS}/guides/partners/deals`, cookie);
    const missing = await get(`/p/${HS}/guides/partners/nothing-here`, cookie);
    expect(gated.status).toBe(404);
    expect(missing.status).toBe(404);
    expect((await gated.text()).replace("partners/deals", "X")).toBe((await missing.text()).replace("partners/nothing-here", "X"));
    const api = await get(`/p/${HS}/reference/internal/2.0.0/readledger`, cookie);
    const noApi = await get(`/p/${HS}/reference/nope/2.0.0/readledger`, cookie);
    expect(api.status).toBe(404);
    expect((await api.text()).replace("internal", "X")).toBe((await noApi.text()).replace("nope", "X"));
  });

  it("refuses a replayed token", async () => {
    const token = await sign(secretKey, "HS256", claims({ jti: "once-1" }));
    expect((await handshake(HS, token)).status).toBe(303);
    const again = await handshake(HS, token);
    expect(again.status).toBe(401);
    expect(again.headers.get("set-cookie")).toBeNull();
    expect(await again.text()).toContain("used already");
    // Without a jti the token itself (its hash) is remembered.
    const plain = await sign(secretKey, "HS256", claims({ sub: "no-jti" }));
    expect((await handshake(HS, plain)).status).toBe(303);
    expect((await handshake(HS, plain)).status).toBe(401);
  });

  it("refuses alg none, HS/RS confusion, expired, wrong audience or issuer, bad signatures and long-lived tokens", async () => {
    const now = Math.floor(Date.now() / 1000);
    const none = `${b64({ alg: "none", typ: "JWT" })}.${b64({ ...claims(), iss: "https://login.acme.test", aud: "portico", exp: now + 300 })}.`;
    const confused = await sign(new TextEncoder().encode(rsaPem), "HS256");
    const cases: [string, string, string][] = [
      [HS, none, "none"],
      [RS, confused, "HS256 tokens are not accepted"],
      [RS, none, "none"],
      [HS, await sign(secretKey, "HS256", claims(), { exp: now - 120 }), "expired"],
      [HS, await sign(secretKey, "HS256", claims(), { aud: "someone-else" }), "claims do not match"],
      [HS, await sign(secretKey, "HS256", claims(), { iss: "https://evil.test" }), "claims do not match"],
      [HS, await sign(new TextEncoder().encode("another-secret-of-enough-length-000"), "HS256"), "signature does not verify"],
      [HS, await sign(secretKey, "HS256", claims(), { exp: now + 7 * 86400 }), "lives too long"],
      [HS, await sign(rsa.privateKey, "RS256"), "RS256"],
      [ES, await sign(rsa.privateKey, "RS256"), "not valid"],
      [HS, "not-a-jwt", "not a JWT"],
    ];
    for (const [slug, token, reason] of cases) {
      const res = await handshake(slug, token);
      expect(res.status, reason).toBe(401);
      expect(res.headers.get("set-cookie"), reason).toBeNull();
      expect(await res.text(), reason).toContain(reason);
    }
  });

  it("never sends the reader off the portal after the hand-off", async () => {
    for (const [i, bad] of ["https://evil.test/", "//evil.test/x", "/p/jwt-rs/guides/partners/deals", `/p/${HS}/../jwt-rs/`, "/%5Cevil.test"].entries()) {
      const res = await handshake(HS, await sign(secretKey, "HS256", claims({ sub: `redir-${i}` })), bad);
      expect(res.status, bad).toBe(303);
      expect(res.headers.get("location"), bad).toBe(`/p/${HS}/`);
    }
  });

  it("reads a session of one portal as signed out on another", async () => {
    const res = await handshake(HS, await sign(secretKey, "HS256", claims({ sub: "cross" })));
    const cookie = sessionCookie(res);
    expect((await get(`/p/${HS}/guides/partners/deals`, cookie)).status).toBe(200);
    expect((await get(`/p/${RS}/guides/partners/deals`, cookie)).status).toBe(303);
  });

  it("accepts a token expired by less than the allowed clock skew", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect((await handshake(HS, await sign(secretKey, "HS256", claims({ sub: "skew" }), { exp: now - 20 }))).status).toBe(303);
  });
});
