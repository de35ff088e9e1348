/**
 * @module Backlog drafts (issue 29): a guide page drafted for a group of no-hit queries, through the writer port the
 * changelog drafts use (publish/changelog-ai-writer.ts `TextModel`: Workers AI in production, and the deterministic
 * embedded writer here everywhere else and whenever the model fails). The draft is Markdown with front matter, the
 * evidence (the queries and their counts) at the top, and an outline built from the operations and pages the search
 * engine finds nearest. Every name from readers or definitions is Markdown-escaped. A draft is only ever stored for
 * review: nothing here publishes.
 */
import { escapeMarkdown } from "../publish/changelog-writer";
import { CHANGELOG_MODEL, type TextModel } from "../publish/changelog-ai-writer";
import type { BacklogGroup } from "./backlog";

/** An operation or page the engine found near the group's queries. */
export interface NearbyUnit {
  kind: string;
  title: string;
  url: string;
  method?: string | null;
  path?: string | null;
}

/** What a guide writer is given. `date` is YYYY-MM-DD. */
export interface GuideDraftInput {
  group: BacklogGroup;
  nearby: NearbyUnit[];
  date: string;
}

/** A drafted guide: its title and whole Markdown file (front matter included). */
export interface GuideDraft {
  title: string;
  body: string;
}

/** The port (one `write`), as the changelog writer's. */
export interface GuideDraftWriter {
  write(input: GuideDraftInput): Promise<GuideDraft>;
}

/** `webhook retries` → `Webhook retries` (the label as readers typed it, first letter raised). */
export function draftTitle(label: string): string {
  const t = label.replace(/\s+/g, " ").trim().slice(0, 80);
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** A YAML double-quoted scalar (YAML 1.2 §7.3.1). */
function yamlString(s: string): string {
  return JSON.stringify(s);
}

/** The deterministic writer: same group and neighbours, same draft. */
export const embeddedGuideWriter: GuideDraftWriter = {
  async write({ group, nearby, date }) {
    const title = draftTitle(group.label);
    const ops = nearby.filter((n) => n.kind === "operation");
    const pages = nearby.filter((n) => n.kind !== "operation");
    const lines: string[] = [
      "---",
      `title: ${yamlString(title)}`,
      `description: ${yamlString(`What readers searching for “${group.label}” need to know.`)}`,
      "tags: [draft]",
      `# Drafted ${date} from the search backlog (${group.count} searches found nothing); review before publishing.`,
      "---",
      "",
      "<!-- Evidence: remove this block before publishing. -->",
      `> **Readers asked for this ${group.count} ${group.count === 1 ? "time" : "times"}** (last on ${group.lastSeen}) and no page answered:`,
      ...group.queries.slice(0, 20).map((q) => `> - “${escapeMarkdown(q.q)}”: ${q.count} (${q.kind === "assistant" ? "assistant questions" : "searches"})`),
      "",
      `# ${escapeMarkdown(title)}`,
      "",
      `<!-- One paragraph: what ${escapeMarkdown(group.label)} is, and when a developer needs it. -->`,
      "",
      "## Overview",
      "",
      "## How it works",
      "",
    ];
    if (ops.length) {
      lines.push("## Endpoints involved", "");
      for (const o of ops.slice(0, 8)) lines.push(`- [${o.method && o.path ? `\`${o.method} ${o.path.replace(/`/g, "")}\`` : escapeMarkdown(o.title)}](${o.url})${o.method && o.path ? `: ${escapeMarkdown(o.title)}` : ""}`);
      lines.push("");
    }
    lines.push("## Example", "", "<!-- A complete request and response. -->", "");
    if (pages.length) {
      lines.push("## See also", "");
      for (const p of pages.slice(0, 6)) lines.push(`- [${escapeMarkdown(p.title)}](${p.url})`);
      lines.push("");
    }
    return { title, body: lines.join("\n") };
  },
};

/** Longest model-written overview kept (characters). */
const MAX_OVERVIEW = 1200;

/**
 * The production writer: the embedded draft, with an overview paragraph written by the model from the group's
 * queries and the nearby titles only; any failure or an unusable answer keeps the embedded draft.
 */
export function workersAiGuideWriter(ai: TextModel): GuideDraftWriter {
  return {
    async write(input) {
      const base = await embeddedGuideWriter.write(input);
      try {
        const answer = await ai.run(CHANGELOG_MODEL, {
          messages: [
            { role: "system", content: "You write the first paragraph of a developer guide. Input: JSON with the questions readers asked and related endpoint and page titles. Output: one plain paragraph, no Markdown, no HTML, stating only what the titles support; say what the reader will learn." },
            { role: "user", content: JSON.stringify({ queries: input.group.queries.slice(0, 10).map((q) => q.q), related: input.nearby.map((n) => n.title) }) },
          ],
          max_tokens: 400,
        });
        const text = answer && typeof answer === "object" && typeof (answer as { response?: unknown }).response === "string" ? (answer as { response: string }).response.trim() : "";
        if (!text || text.length > MAX_OVERVIEW) return base;
        return { ...base, body: base.body.replace("## Overview\n", `## Overview\n\n${escapeMarkdown(text)}\n`) };
      } catch {
        return base;
      }
    },
  };
}
