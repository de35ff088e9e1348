/** @module Test helpers for the team side: a writer signed in through the real magic link and the dev outbox. */
import { env, SELF } from "cloudflare:test";
import { ORIGIN } from "./client";

/** The newest message to `to` in the dev outbox, as `/dev/outbox?format=json` lists it. */
export async function lastMail(to: string): Promise<{ to: string; subject: string; text: string; links: string[] }> {
  const res = await SELF.fetch(`${ORIGIN}/dev/outbox?to=${encodeURIComponent(to)}&format=json`);
  if (res.status !== 200) throw new Error(`outbox ${res.status}`);
  const list = (await res.json()) as Array<{ to: string; subject: string; text: string; links: string[] }>;
  if (!list.length) throw new Error(`no mail to ${to}`);
  return list[0]!;
}

/** Follows a link from a mail (no redirects followed) and returns the session cookie it set, if any. */
export async function follow(url: string): Promise<{ res: Response; cookie?: string }> {
  const res = await SELF.fetch(url.replace(/^https?:\/\/[^/]+/, ORIGIN), { redirect: "manual" });
  const set = res.headers.get("set-cookie") ?? "";
  const m = /portico_writer=([^;]+)/.exec(set);
  return { res, ...(m && m[1] ? { cookie: `portico_writer=${m[1]}` } : {}) };
}

/** Signs `email` in as a writer would (magic link → outbox → link) and returns the cookie header value. */
export async function signIn(email: string): Promise<string> {
  const ask = await SELF.fetch(`${ORIGIN}/v1/auth/magic-link`, { method: "POST", headers: { "content-type": "application/json", origin: ORIGIN }, body: JSON.stringify({ email }) });
  if (ask.status !== 202) throw new Error(`magic-link ${ask.status}`);
  const mail = await lastMail(email);
  const { cookie } = await follow(mail.links[0]!);
  if (!cookie) throw new Error("no session cookie");
  return cookie;
}

/** A cookie-authenticated call from the dashboard's own origin. */
export function asWriter(cookie: string, method: string, path: string, body?: unknown): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method,
    headers: { cookie, origin: ORIGIN, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A call with the service admin token. */
export function asAdmin(method: string, path: string, body?: unknown): Promise<Response> {
  return SELF.fetch(`${ORIGIN}${path}`, {
    method,
    headers: { authorization: `Bearer ${env.PORTICO_ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A writer who owns a new organisation with one portal: `{cookie, org, portal, token}`. */
export async function ownerWithPortal(email: string, portal: string): Promise<{ cookie: string; org: string; portal: string; token: string }> {
  const cookie = await signIn(email);
  const org = (await (await asWriter(cookie, "POST", "/v1/orgs", { name: `Org of ${portal}` })).json()) as { org: { id: string } };
  const res = await asWriter(cookie, "POST", `/v1/orgs/${org.org.id}/portals`, { slug: portal, name: `Portal ${portal}` });
  if (res.status !== 201) throw new Error(`portal ${res.status} ${await res.text()}`);
  const created = (await res.json()) as { token: string };
  return { cookie, org: org.org.id, portal, token: created.token };
}
