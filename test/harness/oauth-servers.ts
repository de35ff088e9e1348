/**
 * @module The OAuth side of the playground's tests (Node): the REAL `oauth2-mock-server` (authorization code + PKCE,
 * client credentials, refresh, OpenID Connect discovery, JWKS) on 127.0.0.1 with an OS-chosen port, and a protected
 * resource beside it that accepts only access tokens signed by that server (checked with jose against its JWKS).
 * Used by test/playground/oauth-setup.ts (workerd tests) and the browser test (test/e2e/playground-oauth.test.ts).
 *
 * The resource's test-only routes drive the server where a test cannot reach its event hooks (inside workerd):
 * - `POST /__oauth/next?expiresIn=1` makes the next token answer say `expires_in: 1` (refresh tests);
 *   `?error=invalid_client` makes it a 400 OAuth error instead; `?accessTokenChars=3500` an access token that long;
 * - `GET /__oauth/log` lists the token requests seen (grant type, whether a code_verifier, a client secret or Basic
 *   credentials came), `DELETE` clears it.
 * - `GET /protected` (any path but those) answers 200 `{sub, scope}` for a valid `Authorization: Bearer <token>`,
 *   else 401.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { OAuth2Server } from "oauth2-mock-server";

/** The running pair; `stop` closes both. */
export interface OAuthServers {
  issuer: string;
  resourceOrigin: string;
  stop(): Promise<void>;
}

interface TokenRequestSeen {
  grantType: string;
  codeVerifier: boolean;
  clientSecretInBody: boolean;
  basic: boolean;
  clientId?: string;
  scope?: string;
}

/** Starts the authorization server and the resource it protects, both on 127.0.0.1. */
export async function startOAuthServers(): Promise<OAuthServers> {
  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate("RS256");
  await oauth.start(0, "127.0.0.1");
  const issuer = oauth.issuer.url!;
  const seen: TokenRequestSeen[] = [];
  let next: { expiresIn?: number; error?: string; accessTokenChars?: number } | undefined;
  oauth.service.on("beforeResponse", (response: { body: Record<string, unknown>; statusCode: number }, req: { body: Record<string, string>; headers: Record<string, string | undefined> }) => {
    seen.push({
      grantType: req.body.grant_type, codeVerifier: "code_verifier" in req.body, clientSecretInBody: "client_secret" in req.body,
      basic: (req.headers.authorization ?? "").startsWith("Basic "), clientId: req.body.client_id, scope: req.body.scope,
    });
    if (next?.error) {
      response.statusCode = 400;
      response.body = { error: next.error, error_description: "refused by the test" };
    } else if (next?.expiresIn !== undefined) response.body.expires_in = next.expiresIn;
    if (next?.accessTokenChars) response.body.access_token = "a".repeat(next.accessTokenChars);
    next = undefined;
  });
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const resource = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://resource");
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/__oauth/next") {
      const number = (name: string) => (url.searchParams.has(name) ? Number(url.searchParams.get(name)) : undefined);
      next = { expiresIn: number("expiresIn"), accessTokenChars: number("accessTokenChars"), error: url.searchParams.get("error") ?? undefined };
      return json(200, next);
    }
    if (url.pathname === "/__oauth/log") {
      if (req.method === "DELETE") seen.length = 0;
      return json(200, seen);
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!token) return json(401, { error: "no bearer token" });
    jwtVerify(token, jwks, { issuer }).then(
      ({ payload }) => json(200, { sub: payload.sub ?? null, scope: payload.scope ?? null }),
      () => json(401, { error: "invalid token" }),
    );
  });
  await new Promise<void>((resolve) => resource.listen(0, "127.0.0.1", resolve));
  return {
    issuer,
    resourceOrigin: `http://127.0.0.1:${(resource.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise((r) => resource.close(r));
      await oauth.stop();
    },
  };
}

