/**
 * @module Code highlighting at the edge with highlight.js (core + a fixed set of languages: no eval, no
 * auto-detection, so the cost is one pass of the chosen grammar). `{{variable}}` markers survive highlighting
 * as whole tokens, and output can be split per line (code steps) with spans re-opened on every line.
 */
import hljs from "highlight.js/lib/core";
import bash from "highlight.js/lib/languages/bash";
import csharp from "highlight.js/lib/languages/csharp";
import go from "highlight.js/lib/languages/go";
import http from "highlight.js/lib/languages/http";
import java from "highlight.js/lib/languages/java";
import javascript from "highlight.js/lib/languages/javascript";
import json from "highlight.js/lib/languages/json";
import php from "highlight.js/lib/languages/php";
import plaintext from "highlight.js/lib/languages/plaintext";
import python from "highlight.js/lib/languages/python";
import ruby from "highlight.js/lib/languages/ruby";
import shell from "highlight.js/lib/languages/shell";
import typescript from "highlight.js/lib/languages/typescript";
import xml from "highlight.js/lib/languages/xml";
import yaml from "highlight.js/lib/languages/yaml";
import { VAR_MARKER } from "./markers";
import { escapeHtml } from "../lib/html-escape";

const LANGS = { bash, csharp, go, http, java, javascript, json, php, plaintext, python, ruby, shell, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGS)) hljs.registerLanguage(name, lang);
const ALIASES: Record<string, string> = { js: "javascript", ts: "typescript", py: "python", sh: "bash", curl: "bash", console: "shell", "c#": "csharp", cs: "csharp", html: "xml", yml: "yaml", text: "plaintext", txt: "plaintext", node: "javascript", golang: "go", rb: "ruby" };

/** The registered grammar for a fence's language name, or undefined (rendered escaped, not highlighted). */
export function languageOf(name: string): string | undefined {
  const n = name.toLowerCase();
  const resolved = ALIASES[n] ?? n;
  return hljs.getLanguage(resolved) ? resolved : undefined;
}

/** Highlighted inner HTML of a code block (escaped plain text for unknown languages). Variable markers kept. */
export function highlightCode(code: string, lang: string | undefined): string {
  const grammar = lang ? languageOf(lang) : undefined;
  // Variable markers become one identifier each, so no grammar splits them across tokens; then they come back.
  const names: string[] = [];
  const guarded = code.replace(VAR_MARKER, (_m, name: string) => `PorticoVar${names.push(name) - 1}Z`);
  let html = grammar ? hljs.highlight(guarded, { language: grammar, ignoreIllegals: true }).value : escapeHtml(guarded);
  if (names.length > 0) html = html.replace(/PorticoVar(\d+)Z/g, (_m, i: string) => `\uE000${names[Number(i)]}\uE001`);
  return html;
}

/** Splits highlighted HTML into lines, closing the spans open at each line end and re-opening them on the next. */
export function splitLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let current = "";
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let last = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    current += html.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === "\n") {
      lines.push(current + "</span>".repeat(open.length));
      current = open.join("");
    } else if (m[0] === "</span>") {
      open.pop();
      current += m[0];
    } else {
      open.push(m[0]);
      current += m[0];
    }
  }
  current += html.slice(last);
  lines.push(current);
  if (lines.length > 1 && lines[lines.length - 1].replace(/<[^>]*>/g, "") === "") lines.pop();
  return lines;
}
