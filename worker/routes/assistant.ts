/**
 * @module The assistant's reader routes (issue 28): `POST /p/{portal}/assistant/ask` (JSON, or a stream of
 * `sources`, `delta`, `done` events with `Accept: text/event-stream`), `GET /p/{portal}/assistant/threads/{id}`
 * (the reader's own thread replayed, re-checked), `POST /p/{portal}/assistant/feedback` (204), and `/legal/subprocessors`
 * (HTML and `.json`). Only the portal's own pages may call them (the playground's same-site check); questions are
 * rate-limited per reader and per portal (the portal's SignInLimiter, assistant/limiter.ts); plans and credits go through one seam (entitlement.ts).
 */
import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { streamSSE } from "hono/streaming";
import { readerState, requireSignInFor, type ReaderState } from "../access/resolve";
import { secure } from "../access/session";
import type { AppEnv } from "../env";
import { ApiError } from "../http/errors";
import { readJsonObject } from "../http/read-json";
import { escapeHtml as htmlEscape } from "../lib/html-escape";
import { getDb } from "../store/db";
import { documentReadable } from "../access/labels";
import { spendAssistantCredit } from "../assistant/entitlement";
import { assistantLimits, spendQuestion } from "../assistant/limiter";
import { MODELS, SUBPROCESSORS } from "../assistant/models";
import { MAX_QUESTION_CHARS } from "../assistant/question";
import { answerTurn, loadAssistantPortal, ThreadProblem, type AssistantPortal, type TurnAnswer } from "../assistant/service";
import { loadThread, publicSource, recordFeedback } from "../assistant/threads";
import { sameSiteOnly } from "./playground";
import { recordServerSearch } from "../analytics/record";
import { loadChrome } from "./shell-chrome";
import { renderAssistantPage } from "../render/assistant-page";
import { portalBasePath, portalCookiePath } from "../render/shell/base-path";

/** Bytes of a question or feedback body, at most. */
const MAX_BODY_BYTES = 16 * 1024;
/** The anonymous reader's thread-owner cookie. */
const OWNER_COOKIE = "portico_assistant";
/** Characters of a feedback comment kept. */
const MAX_COMMENT_CHARS = 2000;

async function portalOf(c: Context<AppEnv>): Promise<AssistantPortal> {
  const slug = c.req.param("portal") ?? "";
  const portal = await loadAssistantPortal(c.env.DB, slug);
  if (!portal) throw new ApiError(404, "not-found", `no portal "${slug}"`);
  return portal;
}

/** Who owns threads: a signed-in reader by id, else an anonymous reader by a random cookie set on first use. */
function ownerOf(c: Context<AppEnv>, portal: AssistantPortal, state: ReaderState, create: boolean): string | undefined {
  if (state.identity?.readerId) return `reader:${state.identity.readerId}`;
  const existing = getCookie(c, OWNER_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{22}$/.test(existing)) return `anon:${existing}`;
  if (!create) return undefined;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const id = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  setCookie(c, OWNER_COOKIE, id, { path: portalCookiePath(portal), httpOnly: true, sameSite: "Lax", secure: secure(c), maxAge: 24 * 60 * 60 });
  return `anon:${id}`;
}

async function jsonBody(c: Context<AppEnv>, code: string): Promise<Record<string, unknown>> {
  try {
    return await readJsonObject(c.req.raw, MAX_BODY_BYTES);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) throw new ApiError(400, code, `the body must be a JSON object: ${e.message}`);
    throw e;
  }
}

/** `{question, threadId?}` checked: 400 `invalid-question` for a missing, empty, too long or non-string question. */
export function parseAsk(body: Record<string, unknown>): { question: string; threadId?: string } {
  if (typeof body.question !== "string") throw new ApiError(400, "invalid-question", "question must be a string");
  const question = body.question.normalize("NFC").trim();
  if (!question) throw new ApiError(400, "invalid-question", "question is empty");
  if (question.length > MAX_QUESTION_CHARS) throw new ApiError(400, "invalid-question", `question is ${question.length} characters; at most ${MAX_QUESTION_CHARS}`);
  if (body.threadId !== undefined && (typeof body.threadId !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(body.threadId))) {
    throw new ApiError(404, "thread-not-found", "no such thread");
  }
  return { question, ...(typeof body.threadId === "string" ? { threadId: body.threadId } : {}) };
}

function privateAnswer(c: Context<AppEnv>): void {
  c.header("cache-control", "private, no-store");
  c.header("vary", "Cookie, Authorization, Accept");
}

/** The answer's text in chunks of a few words (the `delta` events). */
function chunks(text: string): string[] {
  return text.match(/\S+\s*|\s+/g)?.reduce<string[]>((acc, w, i) => {
    if (i % 6 === 0) acc.push(w);
    else acc[acc.length - 1] += w;
    return acc;
  }, []) ?? [];
}

function subprocessorsJson() {
  return {
    models: MODELS.map((m) => ({ id: m.id, provider: m.provider, region: m.region, processes: m.processes, retention: m.retention, training: m.training, termsSource: m.termsSource, runsWhere: m.adapter === "embedded" ? "embedded (default)" : "Workers AI ([env.production])" })),
    subprocessors: SUBPROCESSORS,
  };
}

function subprocessorsHtml(): string {
  const j = subprocessorsJson();
  const row = (cells: string[]) => `<tr>${cells.map((x) => `<td>${htmlEscape(x)}</td>`).join("")}</tr>`;
  const link = (u: string) => (u.startsWith("https://") ? `<a href="${htmlEscape(u)}">${htmlEscape(u)}</a>` : htmlEscape(u));
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sub-processors · Portico</title></head><body><main>
<h1>Sub-processors</h1><p>Every model provider and sub-processor that sees a reader's question to the docs assistant, what it processes, where it runs, and its retention and training terms with their source. Only providers that keep nothing and train on nothing are listed. Also as <a href="/legal/subprocessors.json">JSON</a>.</p>
<h2>Answer models</h2><table><thead><tr><th scope="col">Model</th><th scope="col">Provider</th><th scope="col">Region</th><th scope="col">Processes</th><th scope="col">Retention</th><th scope="col">Training</th><th scope="col">Source of terms</th></tr></thead><tbody>
${j.models.map((m) => row([m.id, m.provider, m.region, m.processes, m.retention, m.training]).replace(/<\/tr>$/, `<td>${link(m.termsSource)}</td></tr>`)).join("\n")}
</tbody></table>
<h2>Other sub-processors</h2><table><thead><tr><th scope="col">Name</th><th scope="col">Provider</th><th scope="col">Region</th><th scope="col">Processes</th><th scope="col">Retention</th><th scope="col">Training</th><th scope="col">Source of terms</th></tr></thead><tbody>
${j.subprocessors.map((s) => row([s.name, s.provider, s.region, s.processes, s.retention, s.training]).replace(/<\/tr>$/, `<td>${link(s.termsSource)}</td></tr>`)).join("\n")}
</tbody></table></main></body></html>`;
}

/**
 * Checks the reader's limits and the plan seam for one question, then returns the turn to run (so a stream's errors
 * before its first byte still answer JSON with their status). 429 `rate-limited` per reader and per portal.
 * `anonymousOwner` (MCP, the Docs API: callers without cookies) owns a signed-out reader's threads instead of the cookie.
 */
export async function prepareTurn(c: Context<AppEnv>, portal: AssistantPortal, input: { question: string; threadId?: string }, anonymousOwner?: string): Promise<() => Promise<TurnAnswer>> {
  const state = await readerState(c, portal);
  // Machines (MCP, the Docs API) keep no cookie: their caller names the anonymous owner.
  const owner = state.identity?.readerId || !anonymousOwner ? ownerOf(c, portal, state, true)! : anonymousOwner;
  const spent = await spendQuestion(c.env, portal.id, owner, Date.now(), assistantLimits(c.env as never));
  if (!spent.ok) {
    c.header("retry-after", String(spent.retryAfterSeconds));
    throw new ApiError(429, "rate-limited", spent.scope === "reader" ? "too many questions; wait a minute and ask again" : "this portal's assistant is busy; wait a minute and ask again");
  }
  const entitlementStarted = Date.now();
  // The plan is checked now (a refusal throws here); the credit's Durable Object round trip runs beside the thread
  // read and the retrieval, and answerTurn waits for it before the model or any write (exact under concurrency:
  // the spend itself is one atomic step, and a refused one answers 402 with nothing stored).
  const credits = spendAssistantCredit(c.env, portal).then((spent) => {
    // The spend's own time (bench/workspace.mjs reads it): workerd's clock moves across its I/O.
    c.header("server-timing", `entitlement;dur=${Date.now() - entitlementStarted}`, { append: true });
    return spent;
  });
  // Awaited by the turn; this only keeps an early failure of the turn from leaving the rejection unobserved.
  credits.catch(() => undefined);
  const reader = state.reader("en");
  return () =>
    answerTurn({ env: c.env, portal, reader, access: state.access, owner, question: input.question, ...(input.threadId ? { threadId: input.threadId } : {}), credits, creditWait: (ms) => c.header("server-timing", `credit-wait;dur=${ms}`, { append: true }) }).catch((e) => {
      if (e instanceof ThreadProblem) {
        throw e.code === "thread-full" ? new ApiError(409, "thread-full", "this thread has 20 turns; start a new thread") : new ApiError(404, "thread-not-found", "no such thread (unknown, expired, or another reader's)");
      }
      throw e;
    });
}

/** Counts the question in the portal's analytics as a search of kind `assistant`; a declined one is a no-hit (docs/analytics.md). */
async function countQuestion(c: Context<AppEnv>, portal: AssistantPortal, question: string, answer: TurnAnswer): Promise<void> {
  const state = await readerState(c, portal);
  recordServerSearch(c, portal.id, "assistant", state.reader("en"), question, answer.answered ? Math.max(1, answer.sources.length) : 0);
}

export const assistantRoutes = new Hono<AppEnv>()
  .post("/p/:portal/assistant/ask", async (c) => {
    privateAnswer(c);
    sameSiteOnly(c);
    const portal = await portalOf(c);
    const input = parseAsk(await jsonBody(c, "invalid-question"));
    const started = Date.now();
    const turn = await prepareTurn(c, portal, input);
    if ((c.req.header("accept") ?? "").includes("text/event-stream")) {
      // Errors found before the first byte (thread, limits) still answer JSON with their status.
      const answer = await turn();
      await countQuestion(c, portal, input.question, answer);
      c.header("server-timing", `answer;dur=${Date.now() - started}`, { append: true });
      return streamSSE(c, async (stream) => {
        await stream.writeSSE({ event: "sources", data: JSON.stringify({ threadId: answer.threadId, turn: answer.turn, sources: answer.sources }) });
        for (const text of chunks(answer.answer)) await stream.writeSSE({ event: "delta", data: JSON.stringify({ text }) });
        await stream.writeSSE({ event: "done", data: JSON.stringify(answer) });
      });
    }
    const answer = await turn();
    await countQuestion(c, portal, input.question, answer);
    c.header("server-timing", `answer;dur=${Date.now() - started}`, { append: true });
    return c.json(answer);
  })
  .get("/p/:portal/assistant", async (c) => {
    // The no-script form (search page): a new thread per question, answered in the reader shell.
    privateAnswer(c);
    const portal = await portalOf(c);
    // A private portal's answer page asks signed-out readers to sign in, like its search page.
    requireSignInFor(c, await readerState(c, portal), portal, "/search");
    const q = c.req.query("q") ?? "";
    const chrome = (await loadChrome(c, portal.slug))?.chrome;
    const page = (p: { answer?: TurnAnswer; error?: string }, status: 200 | 400 | 402 | 403 | 429 = 200) =>
      c.html(renderAssistantPage({ ...(chrome ? { chrome } : {}), basePath: portalBasePath(portal), portalName: portal.name, question: q, ...p }), status);
    if (!q.trim()) return page({});
    try {
      const input = parseAsk({ question: q });
      const answer = await (await prepareTurn(c, portal, input))();
      await countQuestion(c, portal, input.question, answer);
      return page({ answer });
    } catch (e) {
      // Refusals a reader can act on (a bad question, too many, the plan or its credits) are a page like any answer,
      // never the JSON error the panel reads.
      if (e instanceof ApiError && (e.status === 400 || e.status === 402 || e.status === 403 || e.status === 429)) return page({ error: e.message }, e.status);
      throw e;
    }
  })
  .get("/p/:portal/assistant/threads/:id", async (c) => {
    privateAnswer(c);
    sameSiteOnly(c);
    const portal = await portalOf(c);
    const state = await readerState(c, portal);
    const owner = ownerOf(c, portal, state, false);
    const reader = state.reader("en");
    const thread = owner ? await loadThread(getDb(c.env.DB), portal.id, owner, c.req.param("id"), (s) => documentReadable(reader, state.access, s.labels, s.policyPath)) : undefined;
    if (!thread) throw new ApiError(404, "thread-not-found", "no such thread (unknown, expired, or another reader's)");
    return c.json({ threadId: thread.id, turns: thread.turns.map((t) => ({ turn: t.turn, question: t.question, answered: t.answered, answer: t.answer, sources: t.sources.map(publicSource), helpful: t.helpful })) });
  })
  .post("/p/:portal/assistant/feedback", async (c) => {
    privateAnswer(c);
    sameSiteOnly(c);
    const portal = await portalOf(c);
    const body = await jsonBody(c, "invalid-feedback");
    const { threadId, turn, helpful, comment } = body;
    if (typeof threadId !== "string" || !Number.isInteger(turn) || typeof helpful !== "boolean" || (comment !== undefined && typeof comment !== "string")) {
      throw new ApiError(400, "invalid-feedback", "send {threadId: string, turn: integer, helpful: boolean, comment?: string}");
    }
    const state = await readerState(c, portal);
    const owner = ownerOf(c, portal, state, false);
    const reader = state.reader("en");
    // The turn must still be the reader's to see: the re-check deletes turns they lost access to.
    const thread = owner ? await loadThread(getDb(c.env.DB), portal.id, owner, threadId, (s) => documentReadable(reader, state.access, s.labels, s.policyPath)) : undefined;
    if (!thread || !owner || !thread.turns.some((t) => t.turn === turn)) throw new ApiError(404, "thread-not-found", "no such thread or turn");
    await recordFeedback(getDb(c.env.DB), portal.id, owner, threadId, turn as number, helpful, typeof comment === "string" ? comment.slice(0, MAX_COMMENT_CHARS) : undefined);
    return c.body(null, 204);
  })
  .get("/legal/subprocessors.json", (c) => c.json(subprocessorsJson()))
  .get("/legal/subprocessors", (c) => c.html(subprocessorsHtml()));
