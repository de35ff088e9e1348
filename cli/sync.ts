/// <reference types="node" />
/**
 * @module `portico sync` (docs/git.md): posts a folder to a portal as its production release, a release
 * (`--release 2.1.0`) or a branch preview with checks (`--branch name`), for repositories without the GitHub App
 * or GitLab hook: `POST /v1/git/sync` (portal token) with the folder as a .tar.gz (wrapped in one top folder, as a
 * provider's archive is), answered when the portal's queue has run it (a long one answers 202 and its delivery is
 * polled); an `Idempotency-Key` per run makes a retried POST safe. Exit 1 when it failed or a blocking check failed.
 */
import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { createTar } from "nanotar";
import { CheckInputError, folderFiles, parseDefinitions } from "./check";

type Options = (args: string[], allowed: Record<string, readonly string[] | null>) => { positional: string[]; values: Record<string, string> };

interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Runs `portico sync`; resolves to the exit status. */
export async function runSync(args: string[], io: Io, options: Options): Promise<number> {
  const { positional, values } = options(args, { portal: null, token: null, branch: null, release: null, production: ["true"], definition: null, content: null });
  const dir = positional[0] ?? ".";
  const portal = values.portal ?? process.env.PORTICO_URL;
  const token = values.token ?? process.env.PORTICO_TOKEN;
  if (!portal || !token) throw new CheckInputError("sync needs --portal URL (or PORTICO_URL) and --token TOKEN (or PORTICO_TOKEN)");
  const targets = [values.branch, values.release, values.production].filter((v) => v !== undefined).length;
  if (targets !== 1) throw new CheckInputError("sync needs exactly one of --branch NAME, --release LABEL, --production true");
  const query = new URLSearchParams();
  if (values.branch !== undefined) query.set("branch", values.branch);
  if (values.release !== undefined) query.set("release", values.release);
  for (const d of values.definition ? parseDefinitions(values.definition) : []) query.append("definition", `${d.api}=${d.file}`);
  if (values.content !== undefined) query.set("content", values.content);
  const files = folderFiles(dir);
  const body = gzipSync(createTar([...files].map(([name, data]) => ({ name: `portico-sync/${name}`, data }))));
  const service = portal.replace(/\/+$/, "");
  // One key per run: a retry of this POST (a dropped connection) is answered with the same job's result, never a second job.
  const key = randomUUID();
  let res: Response | undefined;
  for (let attempt = 1; !res; attempt++) {
    try {
      res = await fetch(`${service}/v1/git/sync?${query}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/gzip", "idempotency-key": key }, body });
    } catch (e) {
      if (attempt >= 3) throw new CheckInputError(`${portal} could not be reached: ${e instanceof Error ? e.message : String(e)}`);
      await new Promise((r) => setTimeout(r, 2_000 * attempt));
    }
  }
  let answer = (await res.json().catch(() => ({}))) as Record<string, any>;
  // Still running when the service stopped waiting: the job is queued; its delivery says when it is done.
  while (res.status === 202 && typeof answer.poll === "string") {
    await new Promise((r) => setTimeout(r, 3_000));
    const polled = await fetch(`${service}${answer.poll}`, { headers: { authorization: `Bearer ${token}` } });
    const d = ((await polled.json().catch(() => ({}))) as Record<string, any>).delivery;
    if (!polled.ok || !d) throw new CheckInputError(`sync: reading ${answer.poll} failed (HTTP ${polled.status})`);
    if (d.status === "queued") continue;
    const result = d.result ?? {};
    res = new Response(null, { status: result.error || result.failure ? 422 : 200 });
    answer = { delivery: d.deliveryId, ...result };
  }
  if (!res.ok) {
    io.err(`portico: sync failed (HTTP ${res.status}): ${answer.error?.message ?? answer.failure ?? JSON.stringify(answer)}\n`);
    if (answer.summary) io.out(`${answer.summary}\n`);
    return 1;
  }
  if (answer.previewUrl) io.out(`preview: ${answer.previewUrl}\n`);
  for (const d of answer.definitions ?? []) io.out(`published ${d.api} ${d.version ?? ""} ${d.url ?? ""}\n`);
  if (answer.content) io.out(`content: ${answer.content.unchanged ? "unchanged" : `release ${answer.content.release}`} ${answer.content.url ?? ""}\n`);
  if (answer.summary) io.out(`${answer.summary}\n`);
  return answer.conclusion === "failure" ? 1 : 0;
}
