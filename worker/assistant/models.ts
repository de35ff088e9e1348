/**
 * @module The model registry: every answer model a portal may choose and every sub-processor that sees a reader's
 * question, with provider, region, retention and training terms and where those terms are stated. One list: the
 * assistant picks from it, answers name the entry, and `/legal/subprocessors` renders it. Only providers that keep
 * nothing and train on nothing may be listed (checked by `assertAllowListed`).
 */
import { EMBEDDED_MODEL } from "./embedded";

/** One registry entry. */
export interface RegisteredModel {
  id: string;
  provider: string;
  /** Where it runs, honestly (Workers AI: no regional pinning). */
  region: string;
  /** What it processes. */
  processes: string;
  retention: string;
  training: string;
  /** Where the retention and training terms are stated. */
  termsSource: string;
  /** Whether the provider keeps prompts or outputs after answering. Must be false to be listed. */
  retains: boolean;
  /** Whether the provider trains on prompts or outputs. Must be false to be listed. */
  trains: boolean;
  /** `embedded` runs in the Worker; `workers-ai` needs the `AI` binding ([env.production]). */
  adapter: "embedded" | "workers-ai";
}

const WORKERS_AI_TERMS = "https://developers.cloudflare.com/workers-ai/platform/data-usage/";
const WORKERS_AI_REGION = "Cloudflare global network; no regional pinning";
const WORKERS_AI_RETENTION = "Not stored after the answer (Workers AI does not keep inputs or outputs); AI Gateway payload logging is off for these calls";
const WORKERS_AI_TRAINING = "Not used for training (Cloudflare does not train on customer content sent to Workers AI)";

/** The allow-list. The first Workers AI entry is the production default. */
export const MODELS: readonly RegisteredModel[] = [
  {
    id: EMBEDDED_MODEL.id, provider: EMBEDDED_MODEL.provider, region: EMBEDDED_MODEL.region,
    processes: "The reader's question and the passages of the portal's docs they may open", retention: "Threads are kept in the portal's own D1 database for 24 hours",
    training: "No training: an extractive answerer with no learned weights", termsSource: "docs/assistant.md", retains: false, trains: false, adapter: "embedded",
  },
  {
    id: "@cf/meta/llama-3.3-70b-instruct-fp8-fast", provider: "Cloudflare Workers AI (Meta Llama 3.3 70B Instruct)", region: WORKERS_AI_REGION,
    processes: "The reader's question, earlier turns of the thread and the passages of the portal's docs they may open",
    retention: WORKERS_AI_RETENTION, training: WORKERS_AI_TRAINING, termsSource: WORKERS_AI_TERMS, retains: false, trains: false, adapter: "workers-ai",
  },
  {
    id: "@cf/meta/llama-3.1-8b-instruct-fast", provider: "Cloudflare Workers AI (Meta Llama 3.1 8B Instruct)", region: WORKERS_AI_REGION,
    processes: "The reader's question, earlier turns of the thread and the passages of the portal's docs they may open",
    retention: WORKERS_AI_RETENTION, training: WORKERS_AI_TRAINING, termsSource: WORKERS_AI_TERMS, retains: false, trains: false, adapter: "workers-ai",
  },
];

/** Sub-processors other than answer models that see a reader's question. */
export const SUBPROCESSORS: ReadonlyArray<Omit<RegisteredModel, "id" | "adapter" | "retains" | "trains"> & { name: string }> = [
  {
    name: "Cloudflare AI Gateway", provider: "Cloudflare", region: WORKERS_AI_REGION, processes: "Routes Workers AI calls (metadata: model, tokens, latency)",
    retention: "Payload logging is off for the assistant's calls (collectLog: false): prompts and answers are not stored", training: "None", termsSource: "https://developers.cloudflare.com/ai-gateway/observability/logging/",
  },
  {
    name: "Cloudflare D1", provider: "Cloudflare", region: "The database's location (chosen when it is created)", processes: "Assistant threads: questions, answers, cited pages, feedback",
    retention: "24 hours, then deleted", training: "None", termsSource: "https://www.cloudflare.com/cloudflare-customer-dpa/",
  },
];

/** The production default model id. */
export const DEFAULT_WORKERS_AI_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";

/** The registry entry of `id`, or undefined (not allow-listed). */
export function registeredModel(id: string): RegisteredModel | undefined {
  return MODELS.find((m) => m.id === id);
}

/** Throws when an entry keeps or trains on what it is sent (the allow-list's rule). */
export function assertAllowListed(models: readonly RegisteredModel[] = MODELS): void {
  for (const m of models) if (m.retains || m.trains) throw new Error(`model ${m.id} retains or trains on data and may not be listed`);
}
