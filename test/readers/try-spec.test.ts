/**
 * The Try-it panel's spec route (`GET …/{operation}/try.json`, worker/openapi/samples/try-spec.ts) answers as the
 * operation's page does for the same reader: a gated API is the same 404 until the reader may read it, and the
 * reader's API key ("API key once") travels in it, never cached.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { upload } from "../harness/client";
import { ACCESS, get, patchAccess, postForm, sessionCookie, setUpPortal, signInWithPassword } from "./fixture";

const SLUG = "try-spec";

const TENANTS_API = `openapi: 3.0.3
info: { title: Tenants, version: 1.0.0 }
paths:
  /tenants/{tenant}:
    get:
      operationId: getTenant
      parameters:
        - { name: tenant, in: path, required: true, schema: { type: string }, example: "{{tenant}}" }
      responses: { '200': { description: ok } }
`;

beforeAll(async () => {
  const token = await setUpPortal(SLUG);
  expect((await upload(token, TENANTS_API, { api: "tenants" })).status).toBe(201);
  expect((await patchAccess(token, ACCESS)).status).toBe(200);
});

describe("try.json", () => {
  it("gives a public operation's spec, private and not cached", async () => {
    const res = await get(`/p/${SLUG}/reference/pets/1.0.0/listpets/try.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const spec = (await res.json()) as any;
    expect(spec).toMatchObject({ api: "pets", version: "1.0.0", operationId: "listPets", method: "GET", path: "/pets", params: [], security: [] });
    expect(spec.apiKey).toBeUndefined();
  });

  it("is the 404 of a missing API for a gated one until the reader may read it", async () => {
    const path = `/p/${SLUG}/reference/internal/2.0.0/readledger/try.json`;
    const anonymous = await get(path);
    expect([303, 404]).toContain(anonymous.status);
    expect(await anonymous.text()).not.toContain("readLedger");
    const cookie = await signInWithPassword(SLUG);
    const allowed = await get(path, cookie);
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as any).operationId).toBe("readLedger");
    expect((await get(`/p/${SLUG}/reference/pets/1.0.0/nosuchop/try.json`)).status).toBe(404);
  });

  it("fills {{name}} placeholders as the page's code samples do (the content's defaults)", async () => {
    const res = await get(`/p/${SLUG}/reference/tenants/1.0.0/gettenant/try.json`);
    const spec = (await res.json()) as any;
    expect(spec.params).toEqual([expect.objectContaining({ name: "tenant", in: "path", value: "TENANT_DEFAULT" })]);
  });

  it("carries the reader's API key once they entered it", async () => {
    const stored = await postForm(`/p/${SLUG}/auth/api-key`, { key: "sk_try_1234", return: `/p/${SLUG}/` });
    expect(stored.status).toBe(303);
    const res = await get(`/p/${SLUG}/reference/pets/1.0.0/listpets/try.json`, sessionCookie(stored));
    expect(((await res.json()) as any).apiKey).toBe("sk_try_1234");
  });
});
