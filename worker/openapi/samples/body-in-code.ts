/**
 * @module Page weight: a JSON request body is printed twice on an operation page, in the server-rendered cURL sample
 * and in the code-samples island's props. When the body can be read back from the cURL text exactly, the props
 * leave it out ({@link bodyInCode}) and the island reads it from the page ({@link withBodyFromCode}).
 */
import { shellCurl } from "@scalar/snippetz/plugins/shell/curl";
import type { SnippetPlugin } from "./languages";
import { printSample } from "./print";
import { toHar } from "./to-har";
import type { SampleInput } from "./types";

const DATA = "\n  --data '";

/**
 * The JSON body of a cURL sample as @scalar/snippetz prints it (the last `--data '…'` argument, pretty-printed,
 * `'` written `'\''`), as compact JSON; `undefined` when there is none or it is not JSON.
 */
export function jsonBodyFromCurl(curl: string): string | undefined {
  const start = curl.lastIndexOf(DATA);
  if (start === -1 || !curl.endsWith("'")) return undefined;
  try {
    return JSON.stringify(JSON.parse(curl.slice(start + DATA.length, -1).replaceAll("'\\''", "'")));
  } catch {
    return undefined;
  }
}

/** The cURL sample the island renders first (first server, default variables): what the page's HTML holds. */
export function firstCurl(input: SampleInput): string {
  return printSample(shellCurl as unknown as SnippetPlugin, toHar(input, { server: 0, variables: {} }));
}

/**
 * `input` without its body text when that text is exactly what {@link jsonBodyFromCurl} reads back from the page's
 * cURL sample (checked here, so the island never guesses); otherwise `undefined` (the props keep the body).
 */
export function bodyInCode(input: SampleInput): SampleInput | undefined {
  if (!input.body?.text || input.body.mimeType !== "application/json") return undefined;
  if (jsonBodyFromCurl(firstCurl(input)) !== input.body.text) return undefined;
  return { ...input, body: { ...input.body, text: "" } };
}

/** The island's side: `input` with its body text read back from the cURL code `code` (the element's text). */
export function withBodyFromCode(input: SampleInput, code: string | null | undefined): SampleInput {
  const text = code ? jsonBodyFromCurl(code) : undefined;
  return text === undefined || !input.body ? input : { ...input, body: { ...input.body, text } };
}
