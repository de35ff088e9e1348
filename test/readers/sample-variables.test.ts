/**
 * Variables in operation code samples and examples (readers issue): `{{name}}` in a definition's examples is filled
 * with the live content's default for everyone, with the reader's own value once signed in (JWT `vars`), and with
 * the API key they entered; the values are escaped where they land.
 */
import { SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { upload } from "../harness/client";
import { ACCESS, get, JWT_SECRET, patchAccess, sessionCookie, setUpPortal } from "./fixture";

const SLUG = "sample-vars";
const TENANTS_API = `openapi: 3.0.3
info: { title: Tenants, version: 1.0.0 }
servers: [{ url: "https://api.example.test" }]
paths:
  /tenants/{tenant}:
    get:
      operationId: getTenant
      parameters:
        - { name: tenant, in: path, required: true, schema: { type: string }, example: "{{tenant}}" }
      responses:
        '200':
          description: ok
          content:
            application/json:
              example: { id: "{{tenant}}", unknown: "{{nobody_defines_this}}" }
`;

let token: string;
beforeAll(async () => {
  token = await setUpPortal(SLUG);
  expect((await upload(token, TENANTS_API, { api: "tenants" })).status).toBe(201);
  expect((await patchAccess(token, ACCESS)).status).toBe(200);
});

async function signIn(vars: Record<string, string>): Promise<string> {
  const jwt = await new SignJWT({ sub: "user-7", email: "ada@acme.test", groups: [], vars }).setProtectedHeader({ alg: "HS256" }).setIssuedAt()
    .setIssuer("https://login.acme.test").setAudience("portico").setExpirationTime("5m").sign(new TextEncoder().encode(JWT_SECRET));
  const res = await get(`/p/${SLUG}/auth/jwt?token=${encodeURIComponent(jwt)}&return=${encodeURIComponent(`/p/${SLUG}/`)}`);
  expect(res.status).toBe(303);
  return sessionCookie(res);
}

const examples = (html: string) => html.slice(html.indexOf('<aside class="op-x"'));
const PAGE = `/p/${SLUG}/reference/tenants/1.0.0/gettenant`;

describe("variables in operation code samples and examples", () => {
  it("fills the content's default for an anonymous reader, in the sample and the response example", async () => {
    const html = await (await get(PAGE)).text();
    expect(html).toContain("https://api.example.test/tenants/TENANT_DEFAULT");
    expect(html).toContain('"id": "TENANT_DEFAULT"');
    // The examples column is filled; the parameter's documented example stays as the definition writes it.
    expect(examples(html)).not.toMatch(/\{\{tenant\}\}|%7B%7Btenant/);
    // A name nobody defines stays as written.
    expect(html).toContain("{{nobody_defines_this}}");
  });

  it("fills the signed-in reader's own value, escaped", async () => {
    const cookie = await signIn({ tenant: "ada-co<b>" });
    const res = await get(PAGE, cookie);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const html = await res.text();
    expect(html).toContain("ada-co&lt;b&gt;");
    expect(html).toContain("/tenants/ada-co%3Cb%3E");
    expect(html).not.toContain("ada-co<b>");
    expect(html).not.toContain("TENANT_DEFAULT");
  });
});
