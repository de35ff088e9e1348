/** portico.yaml's `playground.oauth` block: per-scheme client ids and URL overrides, never a client secret. */
import { describe, expect, it } from "vitest";
import { readConfig } from "./config";

const yaml = (oauth: string) => `playground:\n  allowPrivateHosts: true\n  oauth:\n${oauth}`;

describe("playground.oauth in portico.yaml", () => {
  it("reads client ids and http(s) URL overrides per security scheme", () => {
    const { config, problems } = readConfig(yaml(
      `    oauth2: { clientId: demo-client, authorizationUrl: "http://127.0.0.1:4011/authorize", tokenUrl: "http://127.0.0.1:4011/token" }\n` +
        `    oidc: { openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration" }\n`,
    ));
    expect(problems).toEqual([]);
    expect(config.playground).toEqual({
      allowHosts: [], allowPrivateHosts: true,
      oauth: {
        oauth2: { clientId: "demo-client", authorizationUrl: "http://127.0.0.1:4011/authorize", tokenUrl: "http://127.0.0.1:4011/token" },
        oidc: { openIdConnectUrl: "https://id.example.com/.well-known/openid-configuration" },
      },
    });
  });

  it("refuses a client secret (a repository is no place for one) and keeps the other schemes", () => {
    const { config, problems } = readConfig(yaml(`    a: { clientId: x, clientSecret: hunter2 }\n    b: { clientId: y }\n`));
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toMatch(/clientSecret is not read/);
    expect(problems[0].message).not.toContain("hunter2");
    expect(config.playground?.oauth).toEqual({ b: { clientId: "y" } });
  });

  it("reports URLs that are not absolute http(s), unknown fields and a block that is not a mapping", () => {
    for (const [entry, pattern] of [
      [`    a: { tokenUrl: "javascript:alert(1)" }\n`, /tokenUrl must be an absolute http\(s\) URL/],
      [`    a: { tokenUrl: "/token" }\n`, /tokenUrl must be an absolute/],
      [`    a: { clientId: x, scope: y }\n`, /unknown field scope/],
      [`    a: [x]\n`, /must be a mapping/],
      [`    "a b": { clientId: x }\n`, /scheme name/],
    ] as const) {
      const { config, problems } = readConfig(yaml(entry));
      expect(problems.map((p) => p.message).join(" | "), entry).toMatch(pattern);
      expect(config.playground?.oauth, entry).toEqual({});
    }
    expect(readConfig("playground:\n  oauth: [1]\n").problems[0].message).toMatch(/must map security scheme names/);
  });
});
