import { readFileSync } from "node:fs";
import { h } from "preact";
import { renderToString } from "preact-render-to-string";
import { describe, expect, it } from "vitest";
import { buildText } from "../../../worker/render/testing/reference";
import { buildTrySpec, type TrySpec } from "../../../worker/openapi/samples/try-spec";
import { initialFields, LOCAL_MOCK_CREDENTIAL, preferredSecurity } from "./initial-fields";
import { OutcomeView } from "./outcome";
import { buildRequest } from "./request";

const demo = buildText(readFileSync(new URL("../../../demo/definition.yaml", import.meta.url), "utf8"));
const MOCK = "http://127.0.0.1:4010";
/** The demo's operation as the local portal serves it: the Local mock listed last (`withLocalMock`). */
const spec = (operationId: string): TrySpec => {
  const op = demo.operations.find((o) => o.operationId === operationId && o.kind === "operation")!;
  const s = buildTrySpec(demo.slice(op.slug), demo.header, "parcel-logistics-api", "2.4.0");
  return { ...s, servers: [...s.servers, { url: MOCK, description: "Local mock", variables: {} }] };
};
const chosen = (s: TrySpec, i: number) => s.security[i]!.map((r) => r.scheme).join(" + ");

describe("the requirement the Try-it panel starts with (issue 38: the first Send must not be a 401)", () => {
  it("on a local portal with the mock, a scheme the mock accepts, filled, rather than OAuth without a token", async () => {
    const s = spec("listShipments"); // oauth2 | bearerAuth | apiKey
    const f = initialFields(s, true);
    expect(s.servers[f.server]!.url).toBe(MOCK);
    expect(chosen(s, f.security)).toBe("apiKey");
    expect(f.credentials.apiKey).toEqual({ value: LOCAL_MOCK_CREDENTIAL });
    const { payload } = await buildRequest(s, f);
    expect(payload.auth).toBeUndefined();
    expect(payload.headers["X-API-Key"]).toBe(LOCAL_MOCK_CREDENTIAL);
    // Bearer only (recordTrackingEvent: oauth2 | bearerAuth): the mock takes any bearer token too.
    const t = spec("recordTrackingEvent");
    const g = initialFields(t, true);
    expect(chosen(t, g.security)).toBe("bearerAuth");
    expect((await buildRequest(t, g)).payload.headers.Authorization).toBe(`Bearer ${LOCAL_MOCK_CREDENTIAL}`);
  });

  it("the reader's API key first; an OAuth scheme already authorized next; then no authorization; OAuth alone stays", () => {
    const s = spec("listShipments");
    expect(chosen(s, initialFields({ ...s, apiKey: "pl_test_key" }, true).security)).toBe("apiKey");
    expect(initialFields({ ...s, apiKey: "pl_test_key" }, true).credentials.apiKey).toEqual({ value: "pl_test_key" });
    expect(chosen(s, preferredSecurity(s, { mock: true, authorized: new Set(["oauth2"]) }))).toBe("oauth2");
    const optional = { ...s, security: [[{ scheme: "oauth2", scopes: [] }], []] };
    expect(preferredSecurity(optional, { mock: false })).toBe(1);
    // Away from a mock nothing is filled in for the reader: the real API's first usable requirement, as before.
    expect(chosen(s, initialFields(s, false).security)).toBe("oauth2");
    expect(initialFields(s, false).credentials).toEqual({});
    const oauthOnly = spec("createLabel"); // oauth2 only: nothing else to choose
    expect(chosen(oauthOnly, initialFields(oauthOnly, true).security)).toBe("oauth2");
  });
});

describe("a refused send", () => {
  it("no-token: the message ends in an Authorize first button; other refusals have none", () => {
    const html = renderToString(h(OutcomeView, { outcome: { error: { code: "no-token", message: "no token for oauth2: authorize first" }, status: 401, ms: 3 }, download: {}, onAuthorize: () => undefined }));
    expect(html).toContain('<code>no-token</code> no token for oauth2 <button type="button" class="try-auth-first">Authorize first</button>');
    const again = renderToString(h(OutcomeView, { outcome: { error: { code: "no-token", message: "the token for oauth2 has expired: authorize again" }, status: 401, ms: 3 }, download: {}, onAuthorize: () => undefined }));
    expect(again).toContain('<button type="button" class="try-auth-first">Authorize again</button>');
    const blocked = renderToString(h(OutcomeView, { outcome: { error: { code: "blocked-host", message: "10.0.0.1 is private" }, status: 403, ms: 3 }, download: {}, onAuthorize: () => undefined }));
    expect(blocked).not.toContain("<button");
  });
});
