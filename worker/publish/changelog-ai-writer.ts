/**
 * @module The production `ChangelogWriter` on Workers AI: the embedded writer's draft, with each bullet's wording
 * rewritten by a model into plainer prose. The model sees only the bullets (operation, current text) and may only
 * return new text per bullet: operations and cited change ids are kept from the embedded draft, the text is
 * Markdown-escaped, and the result must pass `checkDraft`; any failure (binding error, unreadable answer, a missing
 * or overlong bullet) keeps the embedded draft. Which model, and the data terms that apply: docs/diff.md.
 */

import { checkDraft, composeBody, embeddedChangelogWriter, escapeMarkdown, type ChangelogWriter, type DraftBullet } from "./changelog-writer";

/** The model asked to reword bullets (a text-generation model of the Workers AI catalogue). */
export const CHANGELOG_MODEL = "@cf/meta/llama-3.1-8b-instruct";

/** What the adapter needs of the `AI` binding (its `run`), so tests can stand in for Workers AI. */
export interface TextModel {
  run(model: string, input: { messages: { role: "system" | "user"; content: string }[]; max_tokens?: number }): Promise<unknown>;
}

/** Longest reworded bullet kept (characters); longer answers keep the embedded wording. */
const MAX_BULLET = 600;

const SYSTEM = [
  "You reword API changelog bullets for developers.",
  "Input: a JSON array of {i, operation, text}. Output: only a JSON array of {i, text}, one per input item, same i.",
  "Keep every fact of each text and add none: no new changes, reasons, dates, versions or advice.",
  "Plain sentences, no Markdown, no HTML.",
].join(" ");

/** A writer that rewords the embedded draft with `ai`; it never states a change the diff lacks. */
export function workersAiChangelogWriter(ai: TextModel): ChangelogWriter {
  return {
    async write(input) {
      const base = await embeddedChangelogWriter.write(input);
      if (!base.bullets.length) return base;
      try {
        const items = base.bullets.map((b, i) => ({ i, operation: b.operation ? `${b.operation.method} ${b.operation.path}` : "whole API", text: b.text }));
        const answer = await ai.run(CHANGELOG_MODEL, { messages: [{ role: "system", content: SYSTEM }, { role: "user", content: JSON.stringify(items) }], max_tokens: 2048 });
        const reworded = parseAnswer(answer, base.bullets.length);
        if (!reworded) return base;
        const bullets: DraftBullet[] = base.bullets.map((b, i) => ({ ...b, text: `${b.text.startsWith("**Breaking:**") ? "**Breaking:** " : ""}${escapeMarkdown(reworded[i])}` }));
        const draft = { ...base, bullets, body: composeBody(input, base.type, base.version, bullets) };
        return checkDraft(draft, input.result).length ? base : draft;
      } catch {
        return base;
      }
    },
  };
}

/** The model's `{response}` as one text per bullet, or undefined when it is not exactly that. */
function parseAnswer(answer: unknown, count: number): string[] | undefined {
  const response = answer && typeof answer === "object" && "response" in answer ? (answer as { response: unknown }).response : undefined;
  if (typeof response !== "string") return undefined;
  const start = response.indexOf("[");
  const end = response.lastIndexOf("]");
  if (start === -1 || end <= start) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.slice(start, end + 1));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== count) return undefined;
  const out: string[] = new Array(count);
  for (const item of parsed) {
    if (!item || typeof item !== "object") return undefined;
    const { i, text } = item as { i?: unknown; text?: unknown };
    if (typeof i !== "number" || !Number.isInteger(i) || i < 0 || i >= count || typeof text !== "string") return undefined;
    const trimmed = text.trim();
    if (!trimmed || trimmed.length > MAX_BULLET) return undefined;
    out[i] = trimmed;
  }
  return out.every((t) => typeof t === "string") ? out : undefined;
}
