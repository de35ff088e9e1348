/**
 * @module A backlog draft (issue 29, docs/analytics.md) proposed to the content repository as a pull request (GitLab:
 * a merge request) through the portal's Git connection (docs/git.md): the draft's Markdown as one new file under the
 * connection's content folder (`{content}guides/{slug}.md`, never replacing a file), on a new branch from the
 * production branch, with the evidence (the queries readers asked, their counts) in the request's description. The
 * request is the review: nothing here publishes, and the portal publishes the guide only once a person merges it.
 * Platform-free: the provider calls are the `GitHost` port's `openPullRequest` (github.ts, gitlab.ts).
 */
import type { FileProposal } from "./host";
import type { GitPaths } from "./config";

/** What a pull request is made from: a draft as stored by the PortalAnalytics object. */
export interface DraftForReview {
  id: string;
  title: string;
  body: string;
  evidence: {
    label: string;
    count: number;
    lastSeen: string;
    gated: boolean;
    queries: Array<{ q: string; kind: string; count: number }>;
  } | null;
}

/** Characters of a draft's file name (its slug), at most. */
export const MAX_DRAFT_SLUG = 60;
/** Evidence queries listed in a pull request's description, at most. */
export const MAX_EVIDENCE_QUERIES = 20;

/**
 * A file name from a draft's title: lower-case ASCII letters, digits and single hyphens (`Web hooks: retries?` →
 * `web-hooks-retries`), at most {@link MAX_DRAFT_SLUG} characters; `draft-{first 8 of id}` when nothing is left
 * (a title in another script). Never a path: no dot, slash or backslash can survive.
 */
export function draftSlug(title: string, id: string): string {
  const slug = title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, MAX_DRAFT_SLUG).replace(/^-+|-+$/g, "");
  return slug || `draft-${id.replace(/[^a-z0-9]/gi, "").slice(0, 8).toLowerCase()}`;
}

/** The new file's repository path: `{content folder}guides/{slug}.md` (the folder ends with `/` or is ""). */
export function draftPath(paths: GitPaths, slug: string): string {
  return `${paths.content ?? ""}guides/${slug}.md`;
}

/** The branch the draft is committed on: one per draft (`portico/backlog/{slug}-{first 8 of id}`). */
export function draftBranch(slug: string, id: string): string {
  return `portico/backlog/${slug}-${id.replace(/[^a-z0-9]/gi, "").slice(0, 8).toLowerCase()}`;
}

/**
 * A reader's query as Markdown that cannot do anything: in a code span (no `@mention`, `#123` link, HTML or
 * emphasis), backticks and line breaks replaced, at most 120 characters.
 */
export function inertQuery(q: string): string {
  const text = q.replace(/[`\r\n\t]/g, " ").replace(/\s+/g, " ").trim().slice(0, 120);
  return `\`${text || " "}\``;
}

/**
 * The request's description (Markdown): why the page exists (the evidence), where it was reviewed, and what merging
 * does. A group holding queries from gated sections lists none of them (the repository may be readable by people
 * who may not read those sections): its counts only, the queries stay on the writers' backlog page.
 */
export function pullRequestBody(draft: DraftForReview, portalName: string, backlogUrl: string, path: string): string {
  const lines = [
    `Readers of **${portalName.replace(/[\\`*_[\]<>#@|]/g, "")}** searched for this and found nothing. Portico drafted \`${path}\` from its search backlog; review it, edit it on this branch, and merge it to publish the page (or close the request).`,
    "",
  ];
  const e = draft.evidence;
  if (e) {
    lines.push(`### Evidence`, "", `${e.count} ${e.count === 1 ? "search" : "searches"} without a result, last on ${e.lastSeen.replace(/[^0-9-]/g, "")}.`, "");
    if (e.gated) lines.push("Some of these queries came from readers of gated sections, so they are not listed here: see the backlog.");
    else {
      lines.push("| query | asked | as |", "|---|---:|---|");
      for (const q of e.queries.slice(0, MAX_EVIDENCE_QUERIES)) lines.push(`| ${inertQuery(q.q).replace(/\|/g, "\\|")} | ${q.count} | ${q.kind === "assistant" ? "assistant question" : "search"} |`);
      if (e.queries.length > MAX_EVIDENCE_QUERIES) lines.push("", `…and ${e.queries.length - MAX_EVIDENCE_QUERIES} more forms of the same question.`);
    }
    lines.push("");
  } else lines.push("The evidence (queries and counts) is on the backlog page.", "");
  lines.push(`Backlog: ${backlogUrl}`, "", "<sub>Opened by Portico from a backlog draft. The draft's evidence block stays on the backlog page, not in the file.</sub>");
  return lines.join("\n");
}

/** The marker line the guide writer opens a draft's evidence block with (analytics/guide-writer.ts). */
const EVIDENCE_MARKER = "<!-- Evidence: remove this block before publishing. -->";

/**
 * A draft's Markdown without its evidence block (the marker line and the quoted lines after it): the queries go in
 * the request's description, where a gated group's are left out; in the file they would reach the repository, which
 * may be readable by people who may not read those sections, whatever the group.
 */
export function withoutEvidence(body: string): string {
  const lines = body.split("\n");
  const at = lines.findIndex((l) => l.trim() === EVIDENCE_MARKER);
  if (at < 0) return body;
  let end = at + 1;
  while (end < lines.length && lines[end].startsWith(">")) end++;
  while (end < lines.length && lines[end].trim() === "" && at > 0 && lines[at - 1].trim() === "") end++;
  return [...lines.slice(0, at), ...lines.slice(end)].join("\n");
}

/** The whole proposal for a draft: branch, path, file (without its evidence block), commit message, title and description. */
export function draftProposal(draft: DraftForReview, paths: GitPaths, base: string, portalName: string, backlogUrl: string): FileProposal {
  const slug = draftSlug(draft.title, draft.id);
  const path = draftPath(paths, slug);
  const title = draft.title.replace(/\s+/g, " ").trim().slice(0, 200);
  return {
    base, branch: draftBranch(slug, draft.id), path,
    content: ((body) => (body.endsWith("\n") ? body : `${body}\n`))(withoutEvidence(draft.body)),
    commitMessage: `docs: draft "${title}" from the search backlog`,
    title: `Docs: ${title}`,
    body: pullRequestBody(draft, portalName, backlogUrl, path),
  };
}
