/** @module The HTTP answer of a publish (definition or content release): its JSON and a Server-Timing header. */
import type { PublishResponse } from "../publish/types";

/** The publisher's answer as a Response; `timings` (milliseconds by step) become `Server-Timing` (W3C Server Timing). */
export function publishAnswer(result: PublishResponse, timings: Record<string, number> = result.timings): Response {
  const serverTiming = Object.entries(timings).map(([name, dur]) => `${name};dur=${dur}`).join(", ");
  return new Response(result.json, { status: result.status, headers: { "content-type": "application/json; charset=utf-8", "server-timing": serverTiming } });
}

/** How the runtime words a reset for exceeding the CPU or memory limit. */
const RESOURCE_LIMIT = /exceeded (its )?(CPU|memory)|CPU time limit|memory limit|resource limits/i;

/**
 * Runs a publisher call; a resource-limit failure of the publisher (its isolate exceeded the CPU or memory limit
 * and was reset: the upload was too costly, issue 14) is answered 422 like a budget refusal. Other failures throw.
 */
export async function survivingReset(call: () => Promise<PublishResponse>): Promise<PublishResponse> {
  try {
    return await call();
  } catch (error) {
    if (!RESOURCE_LIMIT.test(error instanceof Error ? error.message : String(error))) throw error;
    const message = "the publisher ran out of CPU time or memory on this upload and was reset; nothing was published. Simplify or split it";
    return { status: 422, json: JSON.stringify({ error: { code: "over-budget", message } }), timings: {} };
  }
}
