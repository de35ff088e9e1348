/**
 * @module The readers test portal: a public guide, a partners-only section (`/guides/partners`) whose page carries
 * a unique marker word, an internal API (`/reference/internal`) with its own marker, and helpers to sign in.
 */
import { env, runInDurableObject, SELF } from "cloudflare:test";
import { signInLimiter } from "../../worker/access/sign-in-limiter";
import { createPortal, ORIGIN, upload } from "../harness/client";
import { uploadContent } from "../content/bundles";

/** Appears only in private units (page body, title, tag, asset name, changelog entry, API title). */
export const MARKER = "ZEBRAQUARTZ";
export const PASSWORD = "correct horse battery";
export const JWT_SECRET = "s".repeat(16) + "-hs256-secret-for-the-tests-0123";

const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 7]);

export const PUBLIC_API = "openapi: 3.0.3\ninfo: { title: Pets, version: 1.0.0 }\npaths:\n  /pets:\n    get:\n      operationId: listPets\n      responses: { '200': { description: ok } }\n";
export const INTERNAL_API = `openapi: 3.0.3\ninfo: { title: Internal ${MARKER} API, version: 2.0.0 }\npaths:\n  /ledger:\n    get:\n      operationId: readLedger\n      summary: Ledger ${MARKER}\n      responses: { '200': { description: ok } }\n`;

export const BUNDLE = {
  "portico.yaml": "name: Readers docs\naudiences: [partners]\nvariables:\n  api_key: { default: KEY_DEFAULT }\n  tenant: { default: TENANT_DEFAULT }\nnavigation:\n  - title: Start\n    items: [guides/intro, guides/other, api:pets]\n  - title: Partners\n    items: [guides/partners/deals, api:internal]\n",
  "guides/intro.md": "---\ntitle: Introduction\ntags: [shared]\n---\nPublic words. Your key is `{{api_key}}`.\n\nRead [the ledger](op:internal#readLedger).\n",
  "guides/other.md": "---\ntitle: Other\ntags: [shared]\n---\nMore public words.\n",
  "guides/partners/deals.md": `---\ntitle: Deals ${MARKER}\ntags: [shared, ${MARKER.toLowerCase()}]\ndescription: Partner terms ${MARKER}\n---\nThe ${MARKER} terms. Key \`{{api_key}}\`, tenant {{tenant}}.\n\n![chart](../../img/chart.png)\n\nList [pets](op:pets#listPets).\n`,
  "img/chart.png": PNG,
  "changelog/2026-03-01-deal.md": `---\ntitle: Deal ${MARKER} change\ntype: New\nversion: v2.0.0\ndate: 2026-03-01\naudiences: [partners]\n---\nEntry ${MARKER}.\n`,
  "changelog/2026-01-01-pub.md": "---\ntitle: Public change\ntype: New\nversion: v1.0.0\ndate: 2026-01-01\n---\nPublic entry.\n",
};

/** Creates the portal, publishes both APIs and the bundle; returns the portal token. */
export async function setUpPortal(slug: string): Promise<string> {
  const token = await createPortal(slug, "Readers docs");
  for (const [api, body] of [["pets", PUBLIC_API], ["internal", INTERNAL_API]]) {
    const r = await upload(token, body, { api });
    if (r.status !== 201) throw new Error(`upload ${api}: ${r.status} ${JSON.stringify(r.json)}`);
  }
  const c = await uploadContent(token, BUNDLE);
  if (c.status !== 201) throw new Error(`content: ${c.status} ${JSON.stringify(c.json)}`);
  return token;
}

/** PATCH /v1/portal with `{access}`; returns status and JSON. */
export async function patchAccess(token: string, access: unknown): Promise<{ status: number; json: any }> {
  const res = await SELF.fetch(`${ORIGIN}/v1/portal`, {
    method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ access }),
  });
  return { status: res.status, json: await res.json() };
}

/** The standard gated set-up: partners section and internal API gated, password and JWT (HS256) enabled. */
export const ACCESS = {
  methods: ["password", "jwt", "magic-link"], password: PASSWORD, passwordAudiences: ["partners"],
  jwt: { secret: JWT_SECRET, issuer: "https://login.acme.test", audience: "portico" },
  magicLink: { allowedDomains: ["acme.test"], allowList: ["solo@other.test"] },
  sections: [{ prefix: "/guides/partners", audiences: ["partners"] }, { prefix: "/reference/internal", audiences: ["partners"] }, { prefix: "/changelog/2026-03-01-deal", audiences: ["partners"] }],
};

/** A form POST as a browser on the portal's origin sends it. */
export function postForm(path: string, fields: Record<string, string>, init: { cookie?: string; ip?: string; origin?: string } = {}): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method: "POST", redirect: "manual", body: new URLSearchParams(fields).toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded", origin: init.origin ?? ORIGIN,
      ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.ip ? { "cf-connecting-ip": init.ip } : {}),
    },
  });
}

/** GET with an optional session cookie, redirects not followed. */
export function get(path: string, cookie?: string): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
}

/** The `name=value` of a response's Set-Cookie. */
export function sessionCookie(res: Response): string {
  const set = res.headers.get("set-cookie");
  if (!set) throw new Error(`no Set-Cookie (status ${res.status})`);
  return set.split(";")[0];
}

/** Signs in with the shared password from a fresh IP; returns the cookie. */
export async function signInWithPassword(slug: string, ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`): Promise<string> {
  const res = await postForm(`/p/${slug}/auth/password`, { password: PASSWORD, return: `/p/${slug}/` }, { ip });
  if (res.status !== 303) throw new Error(`password sign-in: ${res.status} ${await res.text()}`);
  return sessionCookie(res);
}

export { env };

/**
 * Empties the sign-in attempt counts of portal `slug` (its SignInLimiter's storage). Locally every request is the
 * one client `local`, so tests that sign in many times reset between cases; the limits have tests of their own.
 */
export async function resetSignInLimits(slug: string): Promise<void> {
  const row = await env.DB.prepare("SELECT id FROM portals WHERE slug = ?").bind(slug).first<{ id: number }>();
  await runInDurableObject(signInLimiter(env, row!.id), (_instance, state) => {
    state.storage.sql.exec("DELETE FROM attempts");
  });
}
