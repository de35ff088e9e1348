/** @module Inline and block code whose text is escaped minimally (`&`, `<`, `>`): JSON quotes stay one byte each. */

import { escapeText } from "../../lib/html-escape";

export { escapeText };

/** `<code>` with `text` as its content. */
export function Code({ text, id }: { text: string; id?: string }) {
  return <code id={id} dangerouslySetInnerHTML={{ __html: escapeText(text) }} />;
}
