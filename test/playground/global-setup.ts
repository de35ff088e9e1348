/**
 * @module Global setup of the playground tests (Node): a tiny upstream API and a DNS-over-HTTPS JSON responder,
 * both on 127.0.0.1 with ports chosen by the OS, handed to the workerd tests with `provide`.
 *
 * - The upstream records every request it receives (method, path, headers, body) so the SSRF suite can assert
 *   it was never reached; `GET /__log` lists them and `DELETE /__log` clears the list (those calls are not logged).
 *   Routes: `/echo` (the request back as JSON), `/binary` (256 bytes 0..255), `/big?mib=n` (n MiB of "a"),
 *   `/slow?ms=n`, `/redirect?to=URL&status=302`, `/cookie` (sets a cookie), anything else → echo.
 * - The DoH responder answers Cloudflare's JSON API shape (`/dns-query?name=&type=A|AAAA`) from a fixed zone:
 *   it stands in for cloudflare-dns.com, a third-party service the tests cannot reach.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    upstreamOrigin: string;
    dohEndpoint: string;
  }
}

interface Logged {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const log: Logged[] = [];

/** name → [type, data, ttl][]; type 1 = A, 28 = AAAA, 5 = CNAME. */
const ZONE: Record<string, [number, string, number][]> = {
  "public.test": [[1, "93.184.215.14", 300]],
  "private.test": [[1, "10.1.2.3", 300]],
  "loopback.test": [[1, "127.0.0.1", 300]],
  "mixed.test": [[1, "93.184.215.14", 300], [1, "192.168.1.20", 300]],
  "metadata.test": [[1, "169.254.169.254", 300]],
  "v6private.test": [[28, "fd00:ec2::254", 300]],
  "v6mapped.test": [[28, "::ffff:127.0.0.1", 300]],
  "cname.test": [[5, "loopback.test.", 300], [1, "127.0.0.1", 300]],
  "shortttl.test": [[1, "93.184.215.14", 1]],
};

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

async function upstream(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://upstream");
  if (url.pathname === "/__log") {
    if (req.method === "DELETE") log.length = 0;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(log));
    return;
  }
  const body = await bodyOf(req);
  log.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: body.toString("base64") });
  switch (url.pathname) {
    case "/binary":
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
      return;
    case "/big":
      res.writeHead(200, { "content-type": "text/plain" }).end(Buffer.alloc(Number(url.searchParams.get("mib") ?? 1) * 1024 * 1024, "a"));
      return;
    case "/slow":
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? 1000)));
      res.writeHead(200, { "content-type": "text/plain" }).end("late");
      return;
    case "/redirect":
      res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/echo" }).end();
      return;
    case "/cookie":
      res.writeHead(200, { "set-cookie": "upstream=1; Path=/", "content-type": "text/plain; charset=utf-8" }).end("héllo");
      return;
    default:
      res.writeHead(201, { "content-type": "application/json", "x-upstream": "yes" })
        .end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: body.toString("utf8") }));
  }
}

function doh(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? "/", "http://doh");
  const name = (url.searchParams.get("name") ?? "").toLowerCase().replace(/\.$/, "");
  const type = url.searchParams.get("type") === "AAAA" ? 28 : 1;
  const records = ZONE[name];
  const answer = (records ?? []).filter(([t]) => t === type || t === 5).map(([t, data, ttl]) => ({ name: `${name}.`, type: t, TTL: ttl, data }));
  res.writeHead(200, { "content-type": "application/dns-json" })
    .end(JSON.stringify({ Status: records ? 0 : 3, TC: false, RD: true, RA: true, AD: false, CD: false, Question: [{ name, type }], ...(answer.length ? { Answer: answer } : {}) }));
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>): Promise<Server> {
  const server = createServer((req, res) => {
    Promise.resolve(handler(req, res)).catch((error) => res.writeHead(500).end(String(error)));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let servers: Server[] = [];

export async function setup(project: TestProject): Promise<void> {
  const up = await listen(upstream);
  const dns = await listen(doh);
  servers = [up, dns];
  project.provide("upstreamOrigin", `http://127.0.0.1:${(up.address() as AddressInfo).port}`);
  project.provide("dohEndpoint", `http://127.0.0.1:${(dns.address() as AddressInfo).port}/dns-query`);
}

export async function teardown(): Promise<void> {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
}
