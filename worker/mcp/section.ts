/**
 * @module One section of a guide's Markdown, for `get_page` with a URL fragment (`/guides/x#rate-limits`): the heading
 * whose anchor is the fragment and everything up to the next heading of its level or above. Anchors are the reader
 * page's (markdown-it-anchor over levels 2-4, content/markdown.ts), read from the stored page's table of contents, so
 * the fragment a reader copies from the page is the one that works here. Pure: no bindings.
 */
import type { TocEntry } from "../content/types";

interface Heading {
  line: number;
  level: number;
}

/** ATX headings of levels 2-4 outside fenced code, in order (the levels the reader page anchors). */
function headings(lines: readonly string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | undefined;
  lines.forEach((line, i) => {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1]![0]!.repeat(f[1]!.length);
      else if (line.trim().startsWith(fence)) fence = undefined;
      return;
    }
    if (fence) return;
    const h = /^ {0,3}(#{2,4})[ \t]+\S/.exec(line);
    if (h) out.push({ line: i, level: h[1]!.length });
  });
  return out;
}

/**
 * The section of `markdown` (the page as the reader sees it: audience blocks already filtered) whose anchor is `id`,
 * or undefined when the reader's page has no such heading. `toc` is the reader's table of contents (the entries they
 * may read, in order): the n-th heading of the Markdown is its n-th entry.
 */
export function sectionMarkdown(markdown: string, toc: readonly TocEntry[], id: string): string | undefined {
  const lines = markdown.split("\n");
  const found = headings(lines);
  const index = toc.findIndex((t) => t.id === id);
  // Entries and headings line up unless a heading was written in a form this scan does not read (Setext, HTML).
  if (index < 0 || found.length !== toc.length) return undefined;
  const start = found[index]!;
  const end = found.slice(index + 1).find((h) => h.level <= start.level);
  return lines.slice(start.line, end ? end.line : lines.length).join("\n").trim();
}
