/**
 * @module What the first bytes of a large definition tell before its streamed build (issue 12): a Swagger 2.0
 * definition is refused by the streamed build (the upgrade to 3.0 needs the whole document) only after its index
 * pass has read every byte; when the head already declares `swagger: "2.0"`, the publisher goes to the whole build
 * at once (bodies within WHOLE_BUILD_MAX_BYTES) instead of paying that pass first.
 *
 * Only a top-level `swagger` member counts: in JSON, a member of the root object (strings and nesting are
 * followed, so `"swagger": "2.0"` inside a description or a nested object does not match); in YAML, a `swagger:`
 * key line at column 0 (a block-style top-level key: every line of a top-level value is indented, docs of
 * yaml-index.ts). A head that ends before the member (keys sorted alphabetically put `swagger` after `paths`) says
 * nothing: the streamed build's own refusal still sends such a body to the whole build. A match only picks the whole
 * build, never a refusal: a later `openapi` member would win (normalize/detect-version.ts), and the whole build
 * reads the document as it is.
 */

/** Bytes of a definition's head that {@link headDeclaresSwagger2} is given (one small R2 range read). */
export const SNIFF_HEAD_BYTES = 4096;

/** A JSON string token (RFC 8259 §7), sticky: matched at `lastIndex` only. */
const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const JSON_SPACE = /[ \t\n\r]*/y;

/** The index after JSON white space from `at`. */
function skipSpace(text: string, at: number): number {
  JSON_SPACE.lastIndex = at;
  JSON_SPACE.exec(text);
  return JSON_SPACE.lastIndex;
}

/** The JSON string starting at `at` (decoded) and the index after it, or undefined when `text` has none there (or ends in it). */
function stringAt(text: string, at: number): { value: string; end: number } | undefined {
  JSON_STRING.lastIndex = at;
  const match = JSON_STRING.exec(text);
  return match ? { value: JSON.parse(match[0]) as string, end: at + match[0].length } : undefined;
}

/** True when the JSON text's root object has a `swagger` member with the string value "2.0" within `text`. */
function jsonDeclaresSwagger2(text: string): boolean {
  let i = skipSpace(text, 0);
  if (text[i] !== "{") return false;
  i++;
  let depth = 1;
  let expectKey = true;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const token = stringAt(text, i);
      if (!token) return false; // cut inside a string (or malformed): nothing is known
      i = token.end;
      if (depth === 1 && expectKey) {
        expectKey = false;
        const colon = skipSpace(text, i);
        if (text[colon] !== ":") return false;
        if (token.value === "swagger") return stringAt(text, skipSpace(text, colon + 1))?.value === "2.0";
        i = colon + 1;
      }
      continue;
    }
    if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      if (--depth === 0) return false;
    } else if (c === "," && depth === 1) expectKey = true;
    i++;
  }
  return false;
}

/** `swagger: "2.0"` (key and value plain, single- or double-quoted; a comment may follow) as a whole line. */
const YAML_SWAGGER2 = /^(?:swagger|"swagger"|'swagger')[ \t]*:[ \t]+(?:2\.0|"2\.0"|'2\.0')[ \t]*(?:#.*)?$/;

/** True when a complete line of the YAML text is a top-level `swagger: "2.0"`. */
function yamlDeclaresSwagger2(text: string): boolean {
  const lines = text.split("\n");
  lines.pop(); // the last line may be cut
  return lines.some((line) => YAML_SWAGGER2.test(line.replace(/\r$/, "")));
}

/**
 * Whether the first bytes of a definition (`head`, from its start; any length, typically {@link SNIFF_HEAD_BYTES})
 * declare it Swagger 2.0 at the top level: `format` says how to read them (a BOM is skipped). False when they do
 * not, or cannot tell (see the module comment); never throws.
 */
export function headDeclaresSwagger2(head: Uint8Array, format: "json" | "yaml"): boolean {
  // A multi-byte character cut at the end decodes to U+FFFD: harmless, the last token is incomplete anyway.
  const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(head);
  return format === "json" ? jsonDeclaresSwagger2(text) : yamlDeclaresSwagger2(text);
}
