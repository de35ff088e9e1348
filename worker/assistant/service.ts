/**
 * @module One assistant turn, from a checked question to a stored answer: the portal's live index (the search
 * engine's, loaded as search loads it), the thread re-checked for the reader, retrieval with the reader's filter,
 * the answer model (Workers AI when bound, else embedded), sources mapped to the reader's URLs, the turn stored.
 * Nothing here sees a document the reader cannot open: the engine filters before ranking, and stored turns are
 * re-checked before they are replayed or carried.
 */
import { documentReadable } from "../access/labels";
import type { ReaderContext } from "../access/reader";
import { fillPlaceholders } from "../lib/placeholders";
import { withinMs } from "../lib/time-limit";
import { portalBasePath } from "../render/shell/base-path";
import { getDb } from "../store/db";
import type { PortalAccess } from "../store/readers";
import { loadIndex, pointerFromRow, searchLoaded, type SearchPointer } from "../store/search";
import { DECLINE_TEXT, type AnswerModel, type AnswerOutput, type ModelInfo } from "./answer-model";
import { EMBEDDED_MODEL, embeddedAnswerModel, extractiveAnswer } from "./embedded";
import { DEFAULT_WORKERS_AI_MODEL, registeredModel } from "./models";
import { isInjection } from "./question";
import { retrieve, type Passage } from "./retrieve";
import { appendTurn, createThread, loadThread, type StoredSource, type StoredTurn } from "./threads";
import { workersAiAnswerModel, type TextGenerationBinding } from "./workers-ai";

/** A turn answers or declines within this (milliseconds); past it, the embedded answer is given. */
export const ANSWER_BUDGET_MS = 15_000;

/** The portal facts a turn needs (one D1 read). */
export interface AssistantPortal {
  id: number;
  slug: string;
  /** The active custom hostname (reader URLs without `/p/{slug}`), or null. */
  hostname: string | null;
  name: string;
  pointer?: SearchPointer;
  /** The owning organisation's id and its plan as mirrored on the portal row (worker/workspace/); absent: unmanaged. */
  owner?: { organisationId: number; plan: string; trialEndsAt: string | null };
}

/**
 * Reads the portal and its live search pointer; undefined for an unknown slug. Like the search route, the pointer
 * carries the row's generation, not the shards' pointers (a portal of 200 APIs made every turn read and parse them):
 * loadIndex reads them only when this isolate holds no merge of that generation.
 */
export async function loadAssistantPortal(db: D1Database, slug: string): Promise<AssistantPortal | undefined> {
  const row = await db
    .prepare(`SELECT p.id, p.slug, p.hostname, p.name, p.organisation_id AS organisationId, p.plan, p.trial_ends_at AS trialEndsAt, s.index_key AS indexKey, s.parts, s.documents, s.variables, s.built_at AS builtAt, s.stats, s.generation
      FROM portals p LEFT JOIN search_live s ON s.portal_id = p.id WHERE p.slug = ?`)
    .bind(slug)
    .first<{ id: number; slug: string; hostname: string | null; name: string; organisationId: number | null; plan: string; trialEndsAt: string | null; indexKey: string | null; parts: number | null; documents: number | null; variables: string | null; builtAt: string | null; stats: string | null; generation: number | null }>();
  if (!row) return undefined;
  return {
    id: row.id, slug: row.slug, hostname: row.hostname ?? null, name: row.name,
    ...(row.indexKey ? { pointer: pointerFromRow({ ...row, indexKey: row.indexKey }) } : {}),
    ...(row.organisationId !== null ? { owner: { organisationId: row.organisationId, plan: row.plan, trialEndsAt: row.trialEndsAt } } : {}),
  };
}

/** The answer model of this deployment: Workers AI when the `AI` binding exists ([env.production]), else embedded. */
export function answerModelFor(env: { AI?: unknown; ASSISTANT_MODEL?: unknown; ASSISTANT_GATEWAY?: unknown }): AnswerModel {
  if (!env.AI) return embeddedAnswerModel;
  const chosen = registeredModel(typeof env.ASSISTANT_MODEL === "string" ? env.ASSISTANT_MODEL : DEFAULT_WORKERS_AI_MODEL);
  const model = chosen && chosen.adapter === "workers-ai" ? chosen : registeredModel(DEFAULT_WORKERS_AI_MODEL)!;
  return workersAiAnswerModel(env.AI as TextGenerationBinding, model, typeof env.ASSISTANT_GATEWAY === "string" && env.ASSISTANT_GATEWAY ? env.ASSISTANT_GATEWAY : "portico");
}

/** A source as the contract answers it. */
export type AnswerSource = Omit<StoredSource, "labels" | "policyPath">;

/** The JSON answer of one turn (`done` carries the same). */
export interface TurnAnswer {
  threadId: string;
  turn: number;
  answered: boolean;
  answer: string;
  sources: AnswerSource[];
  /** Declined only: the closest readable pages, as search results (empty for declined instructions). */
  results?: Array<{ kind: string; title: string; url: string }>;
  model: ModelInfo;
  credits: { used: number | null; remaining: number | null };
  /** Only with the var ASSISTANT_EXPLAIN=1 (the benchmark's `--explain`): retrieval's figures, never in production. */
  explain?: { query: string; carried: string[]; confidence: number; topConfidence: number; words: Array<[string, number, number]>; passages: Array<[string, number, string[]]> };
}

/** Why a thread cannot take the turn. */
export class ThreadProblem extends Error {
  constructor(readonly code: "thread-not-found" | "thread-full") {
    super(code);
  }
}

/** Everything one turn needs from the request. */
export interface TurnRequest {
  env: Env;
  portal: AssistantPortal;
  reader: ReaderContext;
  access: PortalAccess;
  owner: string;
  question: string;
  threadId?: string;
  /**
   * The credit this answer costs: its spend may still be in flight (worker/routes/assistant.ts starts it beside the
   * thread read and the retrieval); the model is not asked and nothing is stored until it has succeeded, and a
   * refused spend (402 `credits-exhausted`) rejects the turn.
   */
  credits: TurnAnswer["credits"] | Promise<TurnAnswer["credits"]>;
  /** Told how long (ms) the turn waited for `credits` once it needed them: what metering adds beyond the answer. */
  creditWait?: (ms: number) => void;
  model?: AnswerModel;
  now?: number;
}

function sourceOf(p: Passage, portal: AssistantPortal, fill: (s: string) => string): StoredSource {
  const d = p.doc;
  return {
    kind: d.kind, title: fill(d.title), url: portalBasePath(portal) + d.url,
    ...(d.section ? { section: fill(d.section) } : {}), ...(d.api ? { api: d.api } : {}), ...(d.fields?.operationId ? { operationId: d.fields.operationId } : {}),
    labels: d.labels, ...(d.policyPath ? { policyPath: d.policyPath } : {}),
  };
}

/**
 * Answers one turn: loads (and re-checks) the thread or starts one, retrieves, answers, stores the turn.
 * @throws ThreadProblem for an unknown, expired, foreign or full thread.
 */
export async function answerTurn(t: TurnRequest): Promise<TurnAnswer> {
  const db = getDb(t.env.DB);
  const now = t.now ?? Date.now();
  const readable = (s: Pick<StoredSource, "labels" | "policyPath">) => documentReadable(t.reader, t.access, s.labels, s.policyPath);
  let credits: TurnAnswer["credits"] | undefined;
  const paid = async () => {
    if (credits) return;
    const waitStarted = Date.now();
    credits = await t.credits;
    t.creditWait?.(Date.now() - waitStarted);
  };
  let threadId = t.threadId;
  let history: StoredTurn[] = [];
  let count = 0;
  if (threadId) {
    const thread = await loadThread(db, t.portal.id, t.owner, threadId, readable, now);
    if (!thread) throw new ThreadProblem("thread-not-found");
    if (thread.count >= 20) throw new ThreadProblem("thread-full");
    history = thread.turns;
    count = thread.count;
  }
  const variables = t.portal.pointer?.variables ?? {};
  const fill = (s: string) => fillPlaceholders(s, [t.reader.variables, variables], {});
  const model = t.model ?? answerModelFor(t.env as never);
  let out: AnswerOutput;
  let passages: Passage[] = [];
  let results: TurnAnswer["results"] = [];
  let explain: TurnAnswer["explain"];
  if (isInjection(t.question)) {
    out = { answered: false, markdown: DECLINE_TEXT.replace(/ The closest.*$/, " I only answer questions about these docs."), cited: [], model: model.info };
  } else {
    const index = t.portal.pointer ? await loadIndex(t.env.MODELS, t.portal.pointer, t.portal.id, t.env.DB) : undefined;
    const last = history.filter((h) => h.answered).at(-1);
    const found = index
      ? await searchLoaded(t.env.MODELS, index, () => retrieve(index, t.question, { canRead: (labels, policyPath) => documentReadable(t.reader, t.access, labels, policyPath), locale: t.reader.locale, ...(last ? { previous: { question: last.question, titles: last.sources.map((s) => s.title) } } : {}) }))
      : undefined;
    passages = found?.passages ?? [];
    if (found && (t.env as { ASSISTANT_EXPLAIN?: unknown }).ASSISTANT_EXPLAIN === "1" && t.env.PORTICO_ENVIRONMENT === "local") {
      explain = { query: found.query, carried: found.carried, confidence: found.confidence, topConfidence: found.topConfidence, words: found.words.map((w) => [w.folded, w.df, Math.round(w.weight * 100) / 100]), passages: passages.map((p) => [p.doc.url, Math.round(p.score * 1000) / 1000, p.covers]) };
    }
    const input = { question: t.question, history: history.map((h) => ({ question: h.question, answer: h.answer })), passages, confidence: found?.confidence ?? 0, topConfidence: found?.topConfidence ?? 0, fill };
    // A model (Workers AI in production) is asked only once the credit is spent.
    await paid();
    try {
      out = await withinMs(ANSWER_BUDGET_MS, model.answer(input));
    } catch (error) {
      console.error("assistant: the answer model took too long or failed; answering extractively", error instanceof Error ? error.message : error);
      out = extractiveAnswer(input);
    }
    if (!out.answered) results = passages.slice(0, 3).map((p) => ({ kind: p.doc.kind, title: fill(p.doc.title), url: portalBasePath(t.portal) + p.doc.url }));
  }
  // Sources in the order the answer rests on them: its citations' order; renumbered 1..n in the Markdown.
  const stored = out.answered ? out.cited.map((n) => sourceOf(passages[n - 1]!, t.portal, fill)) : [];
  const renumber = new Map(out.cited.map((n, i) => [n, i + 1]));
  const answer = out.answered ? out.markdown.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g, (_m, list: string) => `[${list.split(",").map((x) => renumber.get(Number(x.trim())) ?? x.trim()).join(", ")}]`) : out.markdown;
  await paid();
  if (!threadId) threadId = await createThread(db, t.portal.id, t.owner, now);
  const turn = count + 1;
  await appendTurn(db, threadId, { turn, question: t.question, answered: out.answered, answer, sources: stored }, now);
  return {
    threadId, turn, answered: out.answered, answer, sources: stored.map(({ labels: _l, policyPath: _p, ...s }) => s),
    ...(out.answered ? {} : { results }), model: out.model ?? EMBEDDED_MODEL, credits: credits!, ...(explain ? { explain } : {}),
  };
}
