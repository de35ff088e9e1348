/** @module Launching Debian Chromium through playwright-core with the flags this machine needs, and page helpers. */
import { chromium, type Browser, type Page } from "playwright-core";
import { inject } from "vitest";

/** Headless Chromium, no sandbox (we run as root), no background network (the machine has none). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}

/** Collects console errors and uncaught page errors, for "no console errors" assertions. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  return errors;
}

/** The dev server's URL. */
export function baseUrl(): string {
  return inject("baseUrl");
}

/** Creates a portal over HTTP and returns its token. */
export async function createPortal(slug: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/v1/portals`, {
    method: "POST",
    headers: { authorization: `Bearer ${inject("adminToken")}`, "content-type": "application/json" },
    body: JSON.stringify({ slug, name: `Portal ${slug}` }),
  });
  if (res.status !== 201) throw new Error(`createPortal: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** Uploads a definition over HTTP; throws unless 200/201. */
export async function publish(token: string, body: string | Uint8Array<ArrayBuffer>, query: Record<string, string> = {}): Promise<any> {
  const qs = new URLSearchParams(query).toString();
  const res = await fetch(`${baseUrl()}/v1/apis/upload${qs ? `?${qs}` : ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/yaml" },
    body,
  });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`publish: ${res.status} ${JSON.stringify(json)}`);
  return json;
}
