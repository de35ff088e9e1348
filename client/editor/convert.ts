/** @module One-click YAML ⇄ JSON conversion that keeps key order (and, YAML → JSON aside, nothing is lost). */
import { isCollection, isScalar, visit } from "yaml";
import type { SourceFormat } from "./protocol";
import { jsonOfNode } from "./json-print";
import { detectFormat, parseSource } from "./yaml-source";

export type ConvertResult = { ok: true; text: string; lostComments: number } | { ok: false; message: string };

/**
 * Converts a definition to `to`. JSON output is indented by 2 and keeps source key order; YAML output uses block
 * style, plain scalars where safe and literal blocks for multi-line strings. Comments cannot survive YAML → JSON;
 * `lostComments` counts their lines. Text already in `to` comes back unchanged.
 */
export function convertFormat(text: string, to: SourceFormat): ConvertResult {
  if (detectFormat(text) === to) return { ok: true, text, lostComments: 0 };
  const source = parseSource(text);
  if (source.error) return { ok: false, message: `Fix the syntax error on line ${source.error.line} first: ${source.error.message}` };
  const { doc } = source;
  if (to === "json") {
    let lost = 0;
    const count = (c: string | null | undefined) => (lost += c ? c.split("\n").filter((l) => l.trim() !== "").length : 0);
    count(doc.commentBefore);
    count(doc.comment);
    visit(doc, {
      Node(_k, n) {
        count(n.commentBefore);
        count(n.comment);
      },
    });
    try {
      return { ok: true, text: jsonOfNode(doc, doc.contents, 2, 0) + "\n", lostComments: lost };
    } catch (e) {
      return { ok: false, message: e instanceof Error ? e.message : String(e) };
    }
  }
  visit(doc, {
    Node(_k, n) {
      if (isCollection(n)) n.flow = false;
      // JSON strings are all double-quoted; let the printer choose the plainest safe style instead.
      else if (isScalar(n)) n.type = undefined;
    },
  });
  return { ok: true, text: doc.toString({ indent: 2, indentSeq: true, lineWidth: 0, minContentWidth: 0 }), lostComments: 0 };
}
