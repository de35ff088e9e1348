import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ORIGIN } from "../harness/client";
import { uploadContent } from "../content/bundles";
import { BUNDLE, get, MARKER, patchAccess, PASSWORD, setUpPortal, signInWithPassword } from "./fixture";

describe("PATCH /v1/portal access", () => {
  it("answers the effective settings without secrets, and GET shows the same", async () => {
    const token = await setUpPortal("acc-view");
    const res = await patchAccess(token, { default: "private", methods: ["password", "jwt"], password: PASSWORD, jwt: { secret: "j".repeat(40), audience: "portico" }, sections: [{ prefix: "/guides/partners", audiences: ["partners"] }] });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.json);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain("j".repeat(40));
    expect(res.json.access).toEqual({
      default: "private", methods: ["password", "jwt"], passwordSet: true,
      jwt: { audience: "portico", audiencesClaim: "groups", variablesClaim: "vars", secretSet: true },
      sections: [{ prefix: "/guides/partners", audiences: ["partners"] }],
    });
    const got = await (await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { authorization: `Bearer ${token}` } })).json<any>();
    expect(got.access).toEqual(res.json.access);
    // A later PATCH changes only what it names; the password stays.
    const again = await patchAccess(token, { default: "public" });
    expect(again.json.access).toMatchObject({ default: "public", methods: ["password", "jwt"], passwordSet: true });
    expect((await patchAccess(token, { password: null, methods: ["jwt"] })).json.access.passwordSet).toBe(false);
  });

  it("refuses bad blocks with 400 naming the field, and changes nothing", async () => {
    const token = await setUpPortal("acc-bad");
    expect((await patchAccess(token, { methods: ["password"], password: PASSWORD })).status).toBe(200);
    const before = await (await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { authorization: `Bearer ${token}` } })).text();
    const cases: [unknown, RegExp][] = [
      [{ methods: ["jwt"] }, /jwt has no secret, jwks or publicKey/],
      [{ methods: ["magic-link"] }, /magicLink has no allowedDomains/],
      [{ sections: [{ prefix: "nope", audiences: ["x"] }] }, /sections\[0\]\.prefix/],
      [{ password: null }, /password but no access.password/],
      [{ secret: "x" }, /unknown field/],
    ];
    for (const [access, message] of cases) {
      const res = await SELF.fetch(`${ORIGIN}/v1/portal`, { method: "PATCH", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ access, externalImages: true }) });
      expect(res.status, JSON.stringify(access)).toBe(400);
      expect((await res.json<any>()).error.message).toMatch(message);
    }
    expect(await (await SELF.fetch(`${ORIGIN}/v1/portal`, { headers: { authorization: `Bearer ${token}` } })).text()).toBe(before);
  });

  it("takes portico.yaml's access block (a private portal), with the password set through the API", async () => {
    const token = await setUpPortal("acc-yaml");
    const yaml = BUNDLE["portico.yaml"] + "access:\n  default: private\n  methods: [password]\n  sections:\n    - group: Partners\n      audiences: [partners]\n";
    expect((await uploadContent(token, { ...BUNDLE, "portico.yaml": yaml })).status).toBe(201);
    // No password yet: the portal is private all the same, and the sign-in page offers no form.
    expect((await get("/p/acc-yaml/guides/intro")).status).toBe(303);
    // The page's own forms (the banner has none for a signed-out reader of a private portal).
    expect(await (await get("/p/acc-yaml/auth/signin")).text()).not.toContain("<form");
    expect((await patchAccess(token, { password: PASSWORD, passwordAudiences: ["staff"] })).status).toBe(200);
    const res = await get("/p/acc-yaml/guides/intro");
    expect(res.status).toBe(303);
    expect((await get("/p/acc-yaml/")).status).toBe(303);
    expect((await get("/p/acc-yaml/llms.txt")).status).toBe(303);
    const cookie = await signInWithPassword("acc-yaml");
    expect((await get("/p/acc-yaml/guides/intro", cookie)).status).toBe(200);
    // The Partners navigation group is gated: a "staff" reader does not see its page or API.
    const home = await (await get("/p/acc-yaml/guides/intro", cookie)).text();
    expect(home).not.toContain(MARKER);
    expect((await get("/p/acc-yaml/guides/partners/deals", cookie)).status).toBe(404);
    expect((await get("/p/acc-yaml/reference/internal/", cookie)).status).toBe(404);
    expect((await get("/p/acc-yaml/reference/pets/", cookie)).status).toBe(200);
  });

  it("refuses a portico.yaml access block holding a secret, and publishes nothing", async () => {
    const token = await setUpPortal("acc-secret");
    const res = await uploadContent(token, { ...BUNDLE, "portico.yaml": BUNDLE["portico.yaml"] + "access:\n  password: swordfish-99\n" });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.json)).toContain("cannot be in portico.yaml");
    expect(JSON.stringify(res.json)).not.toContain("swordfish");
  });
});
