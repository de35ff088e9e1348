/**
 * @module Lazy JSON-pointer → source position lookup over valid JSON text. Nothing is computed at parse time;
 * each container on a looked-up path is indexed once (offsets of its members), so repeated lookups are cheap
 * and a 13 MB file costs only the containers actually visited.
 */

import { LineIndex } from "./line-index";
import { skipString } from "./json-scan";
import type { SourcePosition } from "./types";

type ContainerIndex = { members: Map<string, { key: number; value: number }> } | { items: number[] };

/** Builds a `locate` function for `text`, which must be valid JSON (JSON.parse accepted it). */
export function createJsonLocator(text: string): (path: readonly (string | number)[]) => SourcePosition | undefined {
  const lines = new LineIndex(text);
  const cache = new Map<number, ContainerIndex | null>();
  const root = skipWhitespace(text, 0);
  const indexAt = (offset: number): ContainerIndex | null => {
    let index = cache.get(offset);
    if (index === undefined) {
      index = indexContainer(text, offset);
      cache.set(offset, index);
    }
    return index;
  };
  return (path) => {
    if (root >= text.length) return undefined;
    let offset = root;
    let found = root;
    for (const segment of path) {
      const index = indexAt(offset);
      if (!index) break;
      if ("members" in index) {
        const member = index.members.get(String(segment));
        if (!member) break;
        found = member.key;
        offset = member.value;
      } else {
        const at = typeof segment === "number" ? segment : /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : -1;
        const item = index.items[at];
        if (item === undefined) break;
        found = offset = item;
      }
    }
    return lines.position(found);
  };
}

function indexContainer(text: string, start: number): ContainerIndex | null {
  const open = text[start];
  if (open !== "{" && open !== "[") return null;
  const members = new Map<string, { key: number; value: number }>();
  const items: number[] = [];
  let i = skipWhitespace(text, start + 1);
  while (i < text.length && text[i] !== "}" && text[i] !== "]") {
    if (open === "{") {
      const keyEnd = skipString(text, i);
      if (keyEnd === -1) break;
      const raw = text.slice(i + 1, keyEnd - 1);
      const key = raw.includes("\\") ? (JSON.parse(text.slice(i, keyEnd)) as string) : raw;
      const value = skipWhitespace(text, skipWhitespace(text, keyEnd) + 1);
      members.set(key, { key: i, value });
      i = value;
    } else items.push(i);
    i = skipWhitespace(text, skipValue(text, i));
    if (text[i] !== ",") break;
    i = skipWhitespace(text, i + 1);
  }
  return open === "{" ? { members } : { items };
}

/** Index just past the value that starts at `start`. */
function skipValue(text: string, start: number): number {
  const c = text[start];
  if (c === '"') {
    const end = skipString(text, start);
    return end === -1 ? text.length : end;
  }
  if (c !== "{" && c !== "[") {
    let i = start;
    while (i < text.length && !",}] \n\r\t".includes(text[i])) i++;
    return i;
  }
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 0x22) {
      const end = skipString(text, i);
      if (end === -1) return text.length;
      i = end - 1;
    } else if (ch === 0x7b || ch === 0x5b) depth++;
    else if ((ch === 0x7d || ch === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}

function skipWhitespace(text: string, start: number): number {
  let i = start;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}
