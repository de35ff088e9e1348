// Playground OAuth benchmark (issue 10): over HTTP against `wrangler dev` and the real oauth2-mock-server on
// 127.0.0.1, the reader-visible costs of OAuth done by the Worker: a whole authorization-code + PKCE sign-in
// (start → authorization server → callback, which exchanges the code from the Worker), the callback alone,
// client credentials (`/playground/oauth/token`), and what `auth` adds to a proxied call (token cookie opened and
// the header set) beside the same call without it, interleaved. Prints figures; asserts nothing.
// BENCH_OAUTH_SIGNINS (20), BENCH_OAUTH_SENDS (40 per kind).
import { createServer } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";
import { uploadContent, zipFiles } from "../scripts/lib/content-bundle.mjs";
import { createPortal, startDevServer } from "../scripts/lib/dev-server.mjs";

const SIGNINS = Number(process.env.BENCH_OAUTH_SIGNINS ?? 20);
const SENDS = Number(process.env.BENCH_OAUTH_SENDS ?? 40);
const PORTAL = "bench-oauth";

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => `${x.toFixed(2)} ms`;
const line = (label, xs) => `${label}: p50 ${ms(pct(xs, 50))}  p95 ${ms(pct(xs, 95))}  max ${ms(Math.max(...xs))}  (n=${xs.length})`;

/** Cookies kept as a browser would for the portal (every path is under /p/{portal}/). */
class Jar {
  cookies = new Map();
  take(res) {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const at = pair.indexOf("=");
      if (/max-age=0/i.test(c)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  }
  header() {
    return [...this.cookies].map(([n, v]) => `${n}=${v}`).join("; ");
  }
}

let ip = 0;
/** Each call from its own client address, so the playground's per-reader rate limit (30 a minute) does not bite. */
async function call(base, jar, path, init = {}) {
  const res = await fetch(`${base}${path}`, { redirect: "manual", ...init, headers: { cookie: jar.header(), "sec-fetch-site": "same-origin", "cf-connecting-ip": `198.18.${(++ip >> 8) & 255}.${ip & 255}`, ...(init.headers ?? {}) } });
  jar.take(res);
  return res;
}

export async function main() {
  const oauth = new OAuth2Server();
  await oauth.issuer.keys.generate("RS256");
  await oauth.start(0, "127.0.0.1");
  const resource = createServer((req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'));
  await new Promise((r) => resource.listen(0, "127.0.0.1", r));
  const resourceOrigin = `http://127.0.0.1:${resource.address().port}`;
  const server = await startDevServer();
  try {
    const base = server.baseUrl;
    const token = await createPortal(base, server.adminToken, PORTAL);
    const definition = {
      openapi: "3.0.3", info: { title: "Bench OAuth", version: "1.0.0" }, servers: [{ url: resourceOrigin }],
      paths: { "/things": { get: { operationId: "listThings", security: [{ oauth2: ["read"] }], responses: { 200: { description: "ok" } } } } },
      components: { securitySchemes: { oauth2: { type: "oauth2", flows: {
        authorizationCode: { authorizationUrl: "https://auth.example.invalid/authorize", tokenUrl: "https://auth.example.invalid/token", scopes: { read: "Read" } },
        clientCredentials: { tokenUrl: "https://auth.example.invalid/token", scopes: { read: "Read" } },
      } } } },
    };
    const up = await fetch(`${base}/v1/apis/upload?api=bench`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(definition) });
    if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const yaml = `playground:\n  allowPrivateHosts: true\n  oauth:\n    oauth2: { clientId: bench, authorizationUrl: "${oauth.issuer.url}/authorize", tokenUrl: "${oauth.issuer.url}/token" }\n`;
    const content = await uploadContent(base, token, zipFiles({ "portico.yaml": yaml, "guides/intro.md": "---\ntitle: Intro\n---\nHi.\n" }));
    if (content.status !== 201) throw new Error(`content: ${content.status}`);

    const o = `/p/${PORTAL}/playground/oauth`;
    const start = `${o}/start?${new URLSearchParams({ api: "bench", version: "1.0.0", scheme: "oauth2", scopes: "read", return: `/p/${PORTAL}/` })}`;
    const whole = [];
    const callbacks = [];
    let jar;
    for (let i = 0; i < SIGNINS + 2; i++) {
      jar = new Jar();
      const t0 = performance.now();
      const s = await call(base, jar, start);
      const authorize = await fetch(s.headers.get("location"), { redirect: "manual" });
      const back = new URL(authorize.headers.get("location"));
      const t1 = performance.now();
      const cb = await call(base, jar, back.pathname + back.search);
      const t2 = performance.now();
      if (cb.status !== 303 || cb.headers.get("location") !== `/p/${PORTAL}/`) throw new Error(`callback: ${cb.status} ${cb.headers.get("location")}`);
      if (i < 2) continue; // warm-up
      whole.push(t2 - t0);
      callbacks.push(t2 - t1);
    }
    const tokens = [];
    for (let i = 0; i < SIGNINS + 2; i++) {
      const t0 = performance.now();
      const r = await call(base, new Jar(), `${o}/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ api: "bench", version: "1.0.0", scheme: "oauth2", scopes: ["read"] }) });
      const t = performance.now() - t0;
      if (r.status !== 200) throw new Error(`token: ${r.status} ${await r.text()}`);
      if (i >= 2) tokens.push(t);
    }
    const send = (auth) => call(base, jar, `/p/${PORTAL}/playground/send`, {
      method: "POST", headers: { "content-type": "application/json" },
      body: JSON.stringify({ api: "bench", version: "1.0.0", operationId: "listThings", method: "GET", url: `${resourceOrigin}/things`, headers: {}, ...(auth ? { auth: { scheme: "oauth2" } } : {}) }),
    });
    const withAuth = [];
    const without = [];
    const direct = [];
    for (let i = 0; i < SENDS + 3; i++) {
      for (const [auth, into] of [[true, withAuth], [false, without]]) {
        const t0 = performance.now();
        const r = await send(auth);
        const t = performance.now() - t0;
        if (r.status !== 200) throw new Error(`send: ${r.status} ${await r.text()}`);
        await r.arrayBuffer();
        if (i >= 3) into.push(t);
      }
      const t0 = performance.now();
      await (await fetch(`${resourceOrigin}/things`)).arrayBuffer();
      if (i >= 3) direct.push(performance.now() - t0);
    }
    console.log("playground OAuth (wrangler dev + oauth2-mock-server on 127.0.0.1; the shared 2-core machine)");
    console.log(line("  sign-in, start → authorization server → callback (code exchanged by the Worker)", whole));
    console.log(line("  callback alone (state check, code exchange, token cookie sealed)", callbacks));
    console.log(line("  client credentials, POST /playground/oauth/token", tokens));
    console.log(line("  /playground/send with auth (token cookie opened, Authorization set)", withAuth));
    console.log(line("  /playground/send without auth, same call", without));
    console.log(line("  the resource called directly from Node", direct));
    console.log(`  auth adds p50 ${ms(pct(withAuth, 50) - pct(without, 50))} to a proxied call`);
  } finally {
    await server.stop();
    await new Promise((r) => resource.close(r));
    await oauth.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
