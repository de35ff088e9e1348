/**
 * @module Global setup of the playground's OAuth tests (Node): the REAL `oauth2-mock-server` (authorization code +
 * PKCE, client credentials, refresh, OpenID Connect discovery, JWKS) on 127.0.0.1 with an OS-chosen port, and a
 * protected resource beside it that accepts only access tokens signed by that server (checked with jose against
 * its JWKS), both handed to the workerd tests with `provide`.
 *
 * The resource's test-only routes drive the server where the tests, inside workerd, cannot reach its event hooks:
 * - `POST /__oauth/next?expiresIn=1` makes the next token answer say `expires_in: 1` (refresh tests);
 *   `?error=invalid_client` makes it a 400 OAuth error instead;
 * - `GET /__oauth/log` lists the token requests seen (grant type, whether a code_verifier, a client secret or Basic
 *   credentials came), `DELETE` clears it.
 * - `GET /protected` answers 200 `{sub, scope}` for a valid `Authorization: Bearer <token>`, else 401.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { OAuth2Server } from "oauth2-mock-server";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    oauthIssuer: string;
    resourceOrigin: string;
  }
}

interface TokenRequestSeen {
  grantType: string;
  codeVerifier: boolean;
  clientSecretInBody: boolean;
  basic: boolean;
  clientId?: string;
  scope?: string;
}

let oauth: OAuth2Server | undefined;
let resource: Server | undefined;

export async function setup(project: TestProject): Promise<void> {
  oauth = new OAuth2Server();
  await oauth.issuer.keys.generate("RS256");
  await oauth.start(0, "127.0.0.1");
  const issuer = oauth.issuer.url!;
  const seen: TokenRequestSeen[] = [];
  let next: { expiresIn?: number; error?: string } | undefined;
  oauth.service.on("beforeResponse", (response: { body: Record<string, unknown>; statusCode: number }, req: { body: Record<string, string>; headers: Record<string, string | undefined> }) => {
    seen.push({
      grantType: req.body.grant_type, codeVerifier: "code_verifier" in req.body, clientSecretInBody: "client_secret" in req.body,
      basic: (req.headers.authorization ?? "").startsWith("Basic "), clientId: req.body.client_id, scope: req.body.scope,
    });
    if (next?.error) {
      response.statusCode = 400;
      response.body = { error: next.error, error_description: "refused by the test" };
    } else if (next?.expiresIn !== undefined) response.body.expires_in = next.expiresIn;
    next = undefined;
  });
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  resource = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://resource");
    const json = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/__oauth/next") {
      next = { expiresIn: url.searchParams.has("expiresIn") ? Number(url.searchParams.get("expiresIn")) : undefined, error: url.searchParams.get("error") ?? undefined };
      return json(200, next);
    }
    if (url.pathname === "/__oauth/log") {
      if (req.method === "DELETE") seen.length = 0;
      return json(200, seen);
    }
    if (url.pathname === "/protected") {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
      if (!token) return json(401, { error: "no bearer token" });
      jwtVerify(token, jwks, { issuer }).then(
        ({ payload }) => json(200, { sub: payload.sub ?? null, scope: payload.scope ?? null }),
        () => json(401, { error: "invalid token" }),
      );
      return;
    }
    json(404, { error: "not found" });
  });
  await new Promise<void>((resolve) => resource!.listen(0, "127.0.0.1", resolve));
  project.provide("oauthIssuer", issuer);
  project.provide("resourceOrigin", `http://127.0.0.1:${(resource.address() as AddressInfo).port}`);
}

export async function teardown(): Promise<void> {
  await new Promise((r) => resource?.close(r));
  await oauth?.stop();
}
