import { describe, expect, it } from "vitest";
import { readConfig } from "../content/config";
import { apiLabels, documentReadable, labelPages, pagePath, policyLabels } from "./labels";
import { hashPassword, verifyPassword } from "./password";
import { effectivePolicy, parseAccessBlock, pathNeedsSignIn, SIGNED_IN, unitLabels, type AccessSettings } from "./policy";
import { canRead, signedInReader } from "./reader";
import { safeReturnPath } from "./return-to";

const settings = (s: Partial<AccessSettings>): AccessSettings => ({ default: "public", methods: ["password"], sections: [], ...s });

describe("parseAccessBlock", () => {
  it("reads the service contract's block and keeps secrets apart", () => {
    const r = parseAccessBlock({ default: "private", methods: ["password", "jwt"], password: "hunter2-long", passwordAudiences: ["Partners"], jwt: { secret: "x".repeat(32), issuer: "i" }, magicLink: { allowedDomains: ["Acme.com"] }, sections: [{ prefix: "/guides/partners/", audiences: ["partners"] }, { group: "Internal", audiences: ["staff"] }] }, true);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.password).toBe("hunter2-long");
    expect(r.value.jwtSecret).toBe("x".repeat(32));
    expect(r.value.settings).toEqual({
      default: "private", methods: ["password", "jwt"], passwordAudiences: ["partners"], jwt: { issuer: "i", audiencesClaim: "groups", variablesClaim: "vars" },
      magicLink: { allowedDomains: ["acme.com"], allowList: [] }, sections: [{ prefix: "/guides/partners", audiences: ["partners"] }, { group: "Internal", audiences: ["staff"] }],
    });
    expect(JSON.stringify(r.value.settings)).not.toContain("hunter2");
  });

  it("refuses what could leave content public or hold a secret in the wrong place, naming the field", () => {
    const bad: [unknown, boolean, RegExp][] = [
      [{ defualt: "private" }, true, /unknown field\(s\) defualt/],
      [{ default: "secret" }, true, /access.default/],
      [{ methods: ["oauth"] }, true, /access.methods/],
      [{ password: "short" }, true, /8-256/],
      [{ password: "long enough" }, false, /cannot be in portico.yaml/],
      [{ jwt: { secret: "x".repeat(40) } }, false, /cannot be in portico.yaml/],
      [{ jwt: { secret: "tooshort" } }, true, /32-512/],
      [{ jwt: { jwks: { keys: [{ kty: "oct", k: "c2VjcmV0" }] } } }, true, /public keys only/],
      [{ jwt: { publicKey: "not a pem" } }, true, /PEM/],
      [{ sections: [{ prefix: "/guides/../x", audiences: ["a"] }] }, true, /prefix/],
      [{ sections: [{ prefix: "guides", audiences: ["a"] }] }, true, /prefix/],
      [{ sections: [{ prefix: "/a", group: "b", audiences: ["a"] }] }, true, /either a prefix/],
      [{ sections: [{ prefix: "/a", audiences: ["Not Valid"] }] }, true, /audiences/],
      [{ magicLink: { allowedDomains: ["not a domain"] } }, true, /allowedDomains/],
      ["private", true, /object/],
    ];
    for (const [value, secrets, message] of bad) {
      const r = parseAccessBlock(value, secrets);
      expect(r.ok, JSON.stringify(value)).toBe(false);
      if (!r.ok) expect(r.message).toMatch(message);
    }
  });

  it("is read from portico.yaml (secrets refused with the line)", () => {
    const { config, problems } = readConfig("name: X\naccess:\n  default: private\n  methods: [magic-link]\n  magicLink: { allowedDomains: [acme.com] }\n");
    expect(problems).toEqual([]);
    expect(config.access).toEqual({ default: "private", methods: ["magic-link"], magicLink: { allowedDomains: ["acme.com"], allowList: [] } });
    const refused = readConfig("name: X\naccess:\n  password: swordfish99\n");
    expect(refused.problems).toEqual([{ file: "portico.yaml", line: 2, message: expect.stringContaining("cannot be in portico.yaml") }]);
  });
});

describe("unit labels", () => {
  const policy = settings({ sections: [{ prefix: "/guides/partners", audiences: ["partners"] }, { prefix: "/guides/partners/gold", audiences: ["gold"] }, { group: "Beta", audiences: ["beta"] }] });
  it("takes the page's own labels, else the most specific section, else the navigation group, else the default", () => {
    expect(unitLabels(policy, "/guides/partners/x", ["staff"])).toEqual(["staff"]);
    expect(unitLabels(policy, "/guides/partners")).toEqual(["partners"]);
    expect(unitLabels(policy, "/guides/partners/x")).toEqual(["partners"]);
    expect(unitLabels(policy, "/guides/partners/gold/y")).toEqual(["gold"]);
    expect(unitLabels(policy, "/guides/partnership")).toEqual([]);
    expect(unitLabels(policy, "/guides/x", [], ["Beta"])).toEqual(["beta"]);
    expect(unitLabels({ ...policy, default: "private" }, "/guides/x")).toEqual([SIGNED_IN]);
  });
  it("labels pages and APIs; a private portal needs any signed-in reader", () => {
    const nav = [{ title: "Beta", items: ["guides/b.md", "api:internal"] }];
    const pages = labelPages([{ kind: "guide", slug: "b", labels: [] }, { kind: "step", slug: "partners/x", labels: [] }, { kind: "guide", slug: "partners/x", labels: [] }], policy, nav);
    expect(pages.map((p) => p.labels)).toEqual([["beta"], [], ["partners"]]);
    expect(apiLabels(policy, "internal", nav)).toEqual(["beta"]);
    const reader = signedInReader({ readerId: "r", audiences: [], variables: {}, method: "password" }, "en");
    expect(canRead(reader, unitLabels(settings({ default: "private" }), "/x"))).toBe(true);
    expect(canRead({ audiences: ["public"] }, unitLabels(settings({ default: "private" }), "/x"))).toBe(false);
  });
  it("gives search documents by their policy path the same labels as the pages and APIs they come from", () => {
    const nav = [{ title: "Beta", items: ["guides/b.md", "steps/s", "api:internal"] }];
    const pages = [{ kind: "guide", slug: "b", labels: [] }, { kind: "step", slug: "s", labels: [] }, { kind: "guide", slug: "partners/x", labels: [] }, { kind: "changelog", slug: "c", labels: [] }];
    const labelled = labelPages(pages, policy, nav);
    expect(pages.map((p) => policyLabels(policy, pagePath(p.kind, p.slug), nav))).toEqual(labelled.map((p) => p.labels));
    expect(policyLabels(policy, "/reference/internal/", nav)).toEqual(apiLabels(policy, "internal", nav));
    expect(policyLabels(policy, "/reference/internal/", nav)).toEqual(["beta"]);
    const access = { policy, navigation: nav };
    const outsider = { audiences: ["public", "signed-in"] };
    expect(documentReadable(outsider, access, [], "/guides/partners/x")).toBe(false);
    expect(documentReadable({ audiences: ["partners"] }, access, [], "/guides/partners/x")).toBe(true);
    // Own labels narrow further: an audience block in a page the reader may open.
    expect(documentReadable({ audiences: ["partners"] }, access, ["gold"], "/guides/partners/x")).toBe(false);
    expect(documentReadable(outsider, access, [], "/guides/other")).toBe(true);
    expect(documentReadable({ audiences: ["public"] }, { ...access, policy: { ...policy, default: "private" } }, [], "/glossary")).toBe(false);
    expect(documentReadable(outsider, { ...access, policy: { ...policy, default: "private" } }, [], "/glossary")).toBe(true);
  });
  it("sends signed-out readers to sign in by path only, and only when there is a way in", () => {
    expect(pathNeedsSignIn(policy, "/guides/partners/anything")).toBe(true);
    expect(pathNeedsSignIn(policy, "/guides/other")).toBe(false);
    expect(pathNeedsSignIn(settings({ default: "private" }), "/")).toBe(true);
    expect(pathNeedsSignIn(settings({ default: "private", methods: [] }), "/")).toBe(false);
  });
  it("knows every audience of the portal (the password's default)", () => {
    expect(effectivePolicy({ sections: [{ prefix: "/a", audiences: ["a"] }] }, { passwordAudiences: ["b"] }, { hasPassword: true, hasJwtSecret: false }, ["c"]).audiences.sort()).toEqual(["a", "b", "c"]);
  });
});

describe("password hashes", () => {
  it("verify the right password only, with a fresh salt each time", async () => {
    const a = await hashPassword("correct horse", 1000);
    const b = await hashPassword("correct horse", 1000);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^pbkdf2-sha256\$1000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horsE", a)).toBe(false);
    expect(await verifyPassword("correct horse", "plain:correct horse")).toBe(false);
  });
  it("use at least 100,000 iterations by default", async () => {
    expect(await hashPassword("x")).toMatch(/^pbkdf2-sha256\$100000\$/);
  });
});

const ACME = { slug: "acme", hostname: null };
/** The same portal served at the root of its custom hostname. */
const ACME_CUSTOM = { slug: "acme", hostname: "docs.acme.example" };

describe("safeReturnPath", () => {
  it("keeps same-portal paths and sends everything else home", () => {
    expect(safeReturnPath(ACME, "/p/acme/guides/x?y=1#z")).toBe("/p/acme/guides/x?y=1");
    expect(safeReturnPath(ACME, "/p/acme")).toBe("/p/acme");
    for (const bad of [undefined, "", "https://evil.test/p/acme/", "//evil.test/p/acme/", "/\\evil", "/p/acme/../evil/", "/p/acme/%2e%2e/evil", "/p/acmex/", "/p/acme/auth/signin", "/p/acme/\n/x"]) {
      expect(safeReturnPath(ACME, bad), String(bad)).toBe("/p/acme/");
    }
  });

  it("on the portal's custom hostname, keeps the host's own paths and still refuses other origins and sign-in handlers", () => {
    expect(safeReturnPath(ACME_CUSTOM, "/guides/x?y=1#z")).toBe("/guides/x?y=1");
    expect(safeReturnPath(ACME_CUSTOM, "/")).toBe("/");
    for (const bad of [undefined, "", "https://evil.test/", "//evil.test/", "/\\evil", "/auth/signin", "/../auth/signin", "/x/\n/y", "guides/x"]) {
      expect(safeReturnPath(ACME_CUSTOM, bad), String(bad)).toBe("/");
    }
  });
});
