/** @module Helpers of the Git sync tests: connecting a portal, signed webhook deliveries, the stand-in's log. */
import { env, SELF } from "cloudflare:test";
import { expect, inject } from "vitest";
import { createPortal, ORIGIN } from "../harness/client";
import { signGitHubBody } from "../../worker/git/signature";

/** The repository every test portal connects is `acme/<portal slug>` (the stand-in serves one repository under every name). */
export const repoOf = (slug: string) => `acme/${slug}`;
export const INSTALLATION = 77;
export const PATHS = { definitions: [{ api: "parcel-logistics-api", file: "openapi/parcel.yaml" }], content: "docs/" };

export interface LoggedCall { method: string; path: string; authorization?: string; body?: any }

export function fake() {
  return inject("gitFake");
}

/** Creates a portal and connects the test repository; returns its token. */
export async function connectedPortal(slug: string, extra: Record<string, unknown> = {}): Promise<string> {
  const token = await createPortal(slug);
  const res = await SELF.fetch(`${ORIGIN}/v1/portal/git`, {
    method: "PUT", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ provider: "github", apiUrl: fake().origin, repository: repoOf(slug), installationId: INSTALLATION, productionBranch: "main", paths: PATHS, previews: "pull-requests", ...extra }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return token;
}

let counter = 0;
/** A fresh delivery id. */
export function deliveryId(): string {
  return `d-${Date.now()}-${++counter}-${crypto.randomUUID()}`;
}

/** POSTs a GitHub delivery signed with the test secret (or with `signature` as given). */
export async function deliver(event: string, payload: unknown, id = deliveryId(), signature?: string | null): Promise<{ status: number; json: any; id: string }> {
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { "content-type": "application/json", "x-github-event": event, "x-github-delivery": id };
  const sig = signature === undefined ? await signGitHubBody(env.GITHUB_WEBHOOK_SECRET!, body) : signature;
  if (sig !== null) headers["x-hub-signature-256"] = sig;
  const res = await SELF.fetch(`${ORIGIN}/v1/git/github/webhook`, { method: "POST", headers, body });
  return { status: res.status, json: await res.json(), id };
}

/** Waits until every delivery of the portal has finished; returns them newest first. */
export async function settled(token: string, count = 1): Promise<any[]> {
  for (let i = 0; i < 600; i++) {
    const res = await SELF.fetch(`${ORIGIN}/v1/portal/git/deliveries`, { headers: { authorization: `Bearer ${token}` } });
    const { deliveries } = (await res.json()) as { deliveries: any[] };
    if (deliveries.length >= count && deliveries.every((d) => d.status !== "queued")) return deliveries;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("deliveries did not settle");
}

/** The stand-in's recorded calls (cleared with `clear`). */
export async function fakeLog(clear = false): Promise<LoggedCall[]> {
  const res = await fetch(`${fake().origin}/__log`, { method: clear ? "DELETE" : "GET" });
  return (await res.json()) as LoggedCall[];
}

/** A push payload of @octokit/webhooks-examples rewritten for the test repository. */
export function pushPayload(slug: string, branch: string, sha: string, installation = INSTALLATION): Record<string, unknown> {
  const example = structuredClone(fake().examples.push) as any;
  return { ...example, ref: `refs/heads/${branch}`, after: sha, deleted: false, repository: { ...example.repository, full_name: repoOf(slug) }, installation: { id: installation } };
}

/** A pull_request payload (opened by default) for `branch` at `sha`. */
export function pullRequestPayload(slug: string, branch: string, sha: string, number: number, action = "opened"): Record<string, unknown> {
  const example = structuredClone(action === "closed" ? fake().examples.pullRequestClosed : fake().examples.pullRequestOpened) as any;
  return {
    ...example, action, number,
    pull_request: { ...example.pull_request, number, head: { ...example.pull_request.head, ref: branch, sha }, base: { ...example.pull_request.base, ref: "main" } },
    repository: { ...example.repository, full_name: repoOf(slug) }, installation: { id: INSTALLATION },
  };
}

/** A release (published) payload for `tag`. */
export function releasePayload(slug: string, tag: string): Record<string, unknown> {
  const example = structuredClone(fake().examples.release) as any;
  return { ...example, action: "published", release: { ...example.release, tag_name: tag, draft: false }, repository: { ...example.repository, full_name: repoOf(slug) }, installation: { id: INSTALLATION } };
}

/** 1-based line of the first line of `text` matching `pattern` after the line matching `after` (if given). */
export function lineOf(text: string, pattern: RegExp, after?: RegExp): number {
  const lines = text.split("\n");
  let from = 0;
  if (after) from = lines.findIndex((l) => after.test(l));
  const i = lines.findIndex((l, n) => n >= from && pattern.test(l));
  if (i < 0) throw new Error(`no line matches ${pattern}`);
  return i + 1;
}
