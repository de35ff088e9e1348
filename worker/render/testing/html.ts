/** @module Test support: a minimal HTML walk (htmlparser2, already a dependency of sanitize-html) for assertions. */
import { Parser } from "htmlparser2";
import type { CodeSamplesProps } from "../../../client/islands/types";
import { withBodyFromCode } from "../../openapi/samples/body-in-code";

/** One element as the parser saw it. */
export interface Element {
  tag: string;
  attrs: Record<string, string>;
}

/** Every element of `html`, in document order, with attributes (names lower-cased). */
export function elements(html: string): Element[] {
  const out: Element[] = [];
  const parser = new Parser({ onopentag: (tag, attrs) => out.push({ tag, attrs }) }, { decodeEntities: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  return out;
}

/** Ids that appear more than once. */
export function duplicateIds(html: string): string[] {
  const seen = new Map<string, number>();
  for (const e of elements(html)) if (e.attrs.id !== undefined) seen.set(e.attrs.id, (seen.get(e.attrs.id) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}

/** `#fragment` links whose target id is not on the page. */
export function danglingFragments(html: string): string[] {
  const els = elements(html);
  const ids = new Set(els.map((e) => e.attrs.id).filter((x): x is string => x !== undefined));
  return els.filter((e) => e.tag === "a" && e.attrs.href?.startsWith("#") && e.attrs.href.length > 1 && !ids.has(decodeURIComponent(e.attrs.href.slice(1))))
    .map((e) => e.attrs.href);
}

/** Text between the first `<tag ...>` and its matching close (naive, for simple elements like title). */
export function firstText(html: string, tag: string): string | undefined {
  const m = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(html);
  return m?.[1];
}

/** Decoded text of the element whose id is `id` (`undefined` when there is none). */
export function textOfId(html: string, id: string): string | undefined {
  let depth = 0;
  let text: string | undefined;
  const parser = new Parser({
    onopentag: (_tag, attrs) => { if (depth > 0) depth++; else if (attrs.id === id) { depth = 1; text = ""; } },
    ontext: (t) => { if (depth > 0) text += t; },
    onclosetag: () => { if (depth > 0) depth--; },
  }, { decodeEntities: true });
  parser.write(html);
  parser.end();
  return text;
}

/**
 * The code-samples islands' props as the island completes them: a body left out of the props (`bodyInCode`) read
 * back from the page's cURL code, as client/islands/code-samples.tsx does.
 */
export function codeSampleProps(html: string): CodeSamplesProps[] {
  return elements(html).filter((e) => e.attrs["data-island"] === "code-samples").map((e) => {
    const props = JSON.parse(e.attrs["data-props"]!) as CodeSamplesProps;
    return props.bodyInCode ? { ...props, input: withBodyFromCode(props.input, textOfId(html, `${props.id}-code`)) } : props;
  });
}
