/**
 * @module The assistant's answer Markdown to HTML (platform-free; the panel and the no-script answer page share it).
 * A small, closed subset: paragraphs, `-` lists, fenced code, inline code, **bold**, and `[n]` citations turned into
 * links to the numbered sources. Every character of the input is HTML-escaped first; the only tags in the output are
 * the ones written here, so a model's output can never inject markup.
 */

import { escapeHtml as escape } from "../../worker/lib/html-escape";

/** One answer's source as the panel links it. */
export interface CitedSource {
  url: string;
  title: string;
}

function inline(text: string, sources: readonly CitedSource[], idPrefix: string): string {
  // Markdown escapes the answerer wrote (`\*`) are kept as literal characters.
  const held: string[] = [];
  let s = text.replace(/\\([\\`*_[\]<>#|])/g, (_m, c: string) => {
    held.push(c);
    return `\u0000${held.length - 1}\u0000`;
  });
  const code: string[] = [];
  s = s.replace(/`([^`\n]+)`/g, (_m, c: string) => {
    code.push(c);
    return `\u0001${code.length - 1}\u0001`;
  });
  s = escape(s)
    .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
    .replace(/\[(\d{1,2}(?:,\s*\d{1,2})*)\](?!\()/g, (_m, list: string) =>
      list.split(",").map((x) => {
        const n = Number(x.trim());
        const src = sources[n - 1];
        return src ? `<a class="ask-cite" href="#${idPrefix}-${n}" title="${escape(src.title)}">[${n}]</a>` : "";
      }).join(""));
  s = s.replace(/\u0001(\d+)\u0001/g, (_m, i: string) => `<code>${escape(code[Number(i)]!)}</code>`);
  return s.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => escape(held[Number(i)]!));
}

/** HTML of an answer; `idPrefix` names the source list items (`{idPrefix}-{n}`) the citations link to. */
export function answerHtml(markdown: string, sources: readonly CitedSource[], idPrefix: string): string {
  const out: string[] = [];
  const lines = markdown.replace(/\r/g, "").split("\n");
  let para: string[] = [];
  let list: string[] = [];
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(" "), sources, idPrefix)}</p>`);
    if (list.length) out.push(`<ul>${list.map((l) => `<li>${inline(l, sources, idPrefix)}</li>`).join("")}</ul>`);
    para = [];
    list = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = /^```\s*([\w-]*)\s*$/.exec(line);
    if (fence) {
      flush();
      const body: string[] = [];
      for (i++; i < lines.length && !/^```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
      out.push(`<pre><code${fence[1] ? ` class="language-${escape(fence[1])}"` : ""}>${escape(body.join("\n"))}</code></pre>`);
      continue;
    }
    if (/^\s*[-*]\s+/.test(line)) {
      if (para.length) flush();
      list.push(line.replace(/^\s*[-*]\s+/, ""));
    } else if (!line.trim()) flush();
    else {
      if (list.length) flush();
      para.push(line.trim());
    }
  }
  flush();
  return out.join("");
}
