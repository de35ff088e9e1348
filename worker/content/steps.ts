/**
 * @module Code steps (docs/content.md, "Code steps"): a walkthrough of numbered steps beside one code sample in
 * several languages. Syntax: fences whose info string starts with `sample` (```` ```sample python Python 3 ````)
 * are the sample's languages; every `## ` heading starts a step and may end with `{lines=1-3,7 python=2-4}`
 * (`lines=` for every language, `<lang>=` for one). Text before the first step is the introduction.
 */
import { highlightCode, splitLines } from "./highlight";
import { renderContentMarkdown } from "./markdown";
import type { RenderEnv } from "./render-env";
import type { SampleLang, StepItem } from "./types";

const SAMPLE_FENCE = /^(`{3,}|~{3,})\s*sample\s+([\w#+-]+)(?:\s+(.*))?$/;
const STEP_HEADING = /^##\s+(.+?)\s*(?:\{([^}]*)\})?\s*$/;

/** Parses `1-3,7` into inclusive ranges; undefined when malformed. */
export function parseRanges(spec: string): [number, number][] | undefined {
  const ranges: [number, number][] = [];
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return undefined;
    const a = Number(m[1]);
    const b = m[2] ? Number(m[2]) : a;
    if (a < 1 || b < a) return undefined;
    ranges.push([a, b]);
  }
  return ranges;
}

export interface ParsedSteps {
  intro: string;
  steps: StepItem[];
  sample: SampleLang[];
  problems: { line: number; message: string }[];
}

/** Splits a code steps page's Markdown body into introduction, steps and sample; renders each part. */
export function renderSteps(body: string, env: RenderEnv): ParsedSteps {
  const lines = body.split("\n");
  const sample: SampleLang[] = [];
  const problems: ParsedSteps["problems"] = [];
  const kept: { text: string; line: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = SAMPLE_FENCE.exec(lines[i]);
    if (!m) {
      kept.push({ text: lines[i], line: i });
      continue;
    }
    const fence = m[1];
    const code: string[] = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].startsWith(fence)) code.push(lines[j++]);
    const source = code.join("\n").replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_s, n: string) => `\uE000${n}\uE001`);
    sample.push({ lang: m[2].toLowerCase(), title: (m[3] ?? "").trim() || m[2], lines: splitLines(highlightCode(source, m[2])) });
    i = j;
  }
  if (sample.length === 0) problems.push({ line: env.bodyLine, message: "a code steps page needs at least one ```sample <language> fence" });

  // Split the remaining lines at step headings.
  const parts: { title: string; spec?: string; line: number; text: string[] }[] = [];
  const intro: string[] = [];
  let inFence = false;
  for (const { text, line } of kept) {
    if (/^(`{3,}|~{3,})/.test(text)) inFence = !inFence;
    const h = !inFence ? STEP_HEADING.exec(text) : null;
    if (h) parts.push({ title: h[1], spec: h[2], line, text: [] });
    else (parts.length ? parts[parts.length - 1].text : intro).push(text);
  }
  const steps: StepItem[] = parts.map((p) => {
    const stepLines: StepItem["lines"] = {};
    for (const token of (p.spec ?? "").split(/\s+/).filter(Boolean)) {
      const m = /^([\w#+-]+)=(.+)$/.exec(token);
      const ranges = m ? parseRanges(m[2]) : undefined;
      if (!m || !ranges) {
        problems.push({ line: env.bodyLine + p.line, message: `step "${p.title}": "${token}" is not a line range (write {lines=1-3} or {python=2-4})` });
        continue;
      }
      stepLines[m[1] === "lines" ? "*" : m[1].toLowerCase()] = ranges;
    }
    const html = renderContentMarkdown(p.text.join("\n"), { ...env, bodyLine: env.bodyLine + p.line + 1 });
    return { title: p.title.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_s, n: string) => `\uE000${n}\uE001`), html, lines: stepLines };
  });
  return { intro: renderContentMarkdown(intro.join("\n"), env), steps, sample, problems };
}
