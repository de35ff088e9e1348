import { env, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createPortal, getPage, ORIGIN, upload } from "./harness/client";
import { ACCESS, patchAccess } from "./readers/fixture";

/** Version 1: list and create pets, an optional `limit`. */
const V1 = `openapi: 3.0.3
info: {title: Pets, version: 1.0.0}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
    post:
      operationId: createPet
      responses: {'201': {description: created}}
components:
  schemas:
    Pet:
      type: object
      required: [id]
      properties:
        id: {type: integer}
        kind: {type: string, enum: [cat]}
`;

/** Version 2: \`limit\` required, createPet removed, a new enum value (a hostile one), showPet added. */
const V2 = V1.replace("{name: limit, in: query, schema: {type: integer}}", "{name: limit, in: query, required: true, schema: {type: integer}}")
  .replace("    post:\n      operationId: createPet\n      responses: {'201': {description: created}}\n", "")
  .replace("enum: [cat]", `enum: [cat, "<script>alert(1)</script>"]`)
  .replace("components:", "  /pets/{petId}:\n    get:\n      operationId: showPet\n      parameters: [{name: petId, in: path, required: true, schema: {type: string}}]\n      responses: {'200': {description: ok}}\ncomponents:");

const changes = (token: string, api: string, query = "") =>
  SELF.fetch(`${ORIGIN}/v1/apis/${api}/changes${query}`, { headers: { authorization: `Bearer ${token}` } });

async function portalWithVersions(slug: string, v1 = V1): Promise<string> {
  const token = await createPortal(slug);
  expect((await upload(token, v1, { api: "pets", version: "1.0.0" })).status).toBe(201);
  expect((await upload(token, V2, { api: "pets", version: "2.0.0" })).status).toBe(201);
  return token;
}

describe("changes between versions", () => {
  it("GET /v1/apis/{api}/changes answers the diff with the portal token, live vs previous by default", async () => {
    const token = await portalWithVersions("chg-api");
    const res = await changes(token, "pets", "?from=1.0.0&to=2.0.0");
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.from.label).toBe("1.0.0");
    expect(body.to.label).toBe("2.0.0");
    expect(body.breaking).toBe(true);
    expect(body.changes.map((c: any) => `${c.id} ${c.level} ${c.operation?.method ?? ""} ${c.operation?.path ?? ""}`).sort()).toEqual([
      "api-removed-without-deprecation ERR POST /pets",
      "endpoint-added INFO GET /pets/{petId}",
      "request-parameter-became-required ERR GET /pets",
      "response-property-enum-value-added WARN GET /pets",
    ]);
    const byDefault = (await (await changes(token, "pets")).json()) as any;
    expect([byDefault.from.label, byDefault.to.label]).toEqual(["1.0.0", "2.0.0"]);
    expect(byDefault.changes).toEqual(body.changes);
    const reverse = (await (await changes(token, "pets", "?from=2.0.0&to=1.0.0")).json()) as any;
    expect(reverse.changes.map((c: any) => c.id).sort()).toEqual(["api-path-removed-without-deprecation", "endpoint-added", "request-parameter-became-optional", "response-property-enum-value-removed"]);
  });

  it("refuses without a token, for an unknown version (404 naming the side) and a bad label (400)", async () => {
    const token = await portalWithVersions("chg-refuse");
    expect((await SELF.fetch(`${ORIGIN}/v1/apis/pets/changes`)).status).toBe(401);
    const unknown = await changes(token, "pets", "?from=0.9.0&to=2.0.0");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as any).error.message).toContain('from: API "pets" has no published version "0.9.0"');
    const unknownTo = await changes(token, "pets", "?from=1.0.0&to=3.0.0");
    expect(unknownTo.status).toBe(404);
    expect(((await unknownTo.json()) as any).error.details).toEqual({ side: "to" });
    expect((await changes(token, "pets", "?from=%FF")).status).toBe(400);
    expect((await changes(token, "nope")).status).toBe(404);
    const other = await createPortal("chg-other");
    expect((await changes(other, "pets")).status).toBe(404);
  });

  it("answers 422 naming the side and line when a stored version no longer reads", async () => {
    // Bytes of its own (diffs are cached by the content address of both models, and other tests diffed V1), and a
    // pair nothing compared yet: publishing drafts consecutive pairs (1.0.0 → 2.0.0 → 3.0.0), not 1.0.0 → 3.0.0.
    const token = await portalWithVersions("chg-broken", `${V1}# this portal's copy\n`);
    expect((await upload(token, `${V2}# version 3\n`, { api: "pets", version: "3.0.0" })).status).toBe(201);
    const listing = (await (await SELF.fetch(`${ORIGIN}/v1/apis`, { headers: { authorization: `Bearer ${token}` } })).json()) as any;
    const v1 = listing.apis[0].versions.find((v: any) => v.label === "1.0.0");
    // A raw body that stopped parsing (an engine change would look the same to this route).
    await env.DEFINITIONS.put(`definitions/${v1.sha256}`, "openapi: 3.0.3\ninfo: {title: t\n  version: 1\n");
    const res = await changes(token, "pets", "?from=1.0.0&to=3.0.0");
    expect(res.status).toBe(422);
    const body = (await res.json()) as any;
    expect(body.error.code).toBe("unreadable-version");
    expect(body.error.details).toMatchObject({ side: "from", version: "1.0.0", line: 2 });
    expect(body.error.message).toMatch(/^from: version "1.0.0" cannot be read \(line 2/);
  });

  it("the reader page lists the changes grouped by operation, linked, escaped", async () => {
    await portalWithVersions("chg-page");
    const page = await getPage("/p/chg-page/reference/pets/changes?from=1.0.0&to=2.0.0");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Changes from 1.0.0 to 2.0.0");
    expect(page.html).toContain('<a href="/p/chg-page/reference/pets/2.0.0/listpets"><code>GET /pets</code></a>');
    // a removed operation links to its page in the older version
    expect(page.html).toContain('<a href="/p/chg-page/reference/pets/1.0.0/createpet"><code>POST /pets</code></a>');
    expect(page.html).toContain("request-parameter-became-required");
    expect(page.html).not.toContain("<script>alert(1)</script>");
    expect(page.html).toContain("&lt;script>alert(1)&lt;/script>");
    expect((await getPage("/p/chg-page/reference/pets/changes?from=0.1")).status).toBe(404);
  });

  it("GET /v1/apis/{api}/changelog-draft proposes a Breaking draft whose bullets cite only the diff's changes", async () => {
    const token = await portalWithVersions("chg-draft");
    const res = await SELF.fetch(`${ORIGIN}/v1/apis/pets/changelog-draft?from=1.0.0&to=2.0.0`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.status).toBe("draft");
    expect(body.draft).toMatchObject({ type: "Breaking", version: "v2.0.0", title: "Pets v2.0.0" });
    const diffIds = new Set(((await (await changes(token, "pets", "?from=1.0.0&to=2.0.0")).json()) as any).changes.map((c: any) => c.id));
    for (const bullet of body.draft.bullets) for (const id of bullet.changeIds) expect(diffIds.has(id)).toBe(true);
    expect(body.draft.body).toContain("(http://portico.test/p/chg-draft/reference/pets/2.0.0/listpets)".replace("(", "(<").replace(")", ">)"));
    expect(body.draft.body).not.toContain("<script>");
    expect((await SELF.fetch(`${ORIGIN}/v1/apis/pets/changelog-draft`)).status).toBe(401);
  });

  it("the reader page is access-checked like other reference pages", async () => {
    const token = await createPortal("chg-gated");
    expect((await patchAccess(token, ACCESS)).status).toBe(200);
    expect((await upload(token, V1, { api: "internal", version: "1.0.0" })).status).toBe(201);
    expect((await upload(token, V2, { api: "internal", version: "2.0.0" })).status).toBe(201);
    const page = await getPage("/p/chg-gated/reference/internal/changes");
    expect([303, 404]).toContain(page.status);
    expect(page.html).not.toContain("request-parameter-became-required");
  });
});
