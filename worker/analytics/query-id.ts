/**
 * @module Signed query ids (issue 29): `search.json` (and the assistant) hand each answered query a `queryId` that
 * later `search` and `click` events name. The id carries what the server knew when it answered (portal, kind,
 * whether the reader could read gated sections, when, how many results, the query as stored) and an HMAC-SHA256
 * tag (RFC 2104, Web Crypto) over those fields, so an event cannot claim another portal, another result count, or a
 * gated reader's query. The key is derived from `SESSION_SECRET` under its own label, so it is never the session
 * key. No reader identity is in it.
 */
import { fold } from "../search/tokenize";

/** Search kinds counted: the search box, switcher and search page (`search`), and the assistant's questions. */
export type AnalyticsKind = "search" | "assistant";

/** Longest stored query (characters, after trimming); longer ones are cut here. */
export const MAX_STORED_QUERY_CHARS = 200;
/** A query id older than this (seconds) is refused: a reader's typing session does not last a day. */
export const QUERY_ID_MAX_AGE_SECONDS = 86_400;

/** What a query id states, once verified. */
export interface QueryFacts {
  portalId: number;
  kind: AnalyticsKind;
  /** The reader held an audience other than `public` (the query may name gated material): writers only. */
  gated: boolean;
  /** Seconds since the epoch when the answer was given. */
  issuedAt: number;
  /** Readable results the answer counted (0: a no-hit query). */
  results: number;
  /** The query as stored: trimmed, spaces collapsed, case-folded ({@link normalizeQuery}). */
  q: string;
}

/** The query as analytics stores and groups it: NFC, trimmed, inner whitespace collapsed, case-folded, cut to 200. */
export function normalizeQuery(q: string): string {
  return fold(q.normalize("NFC").replace(/\s+/g, " ").trim()).slice(0, MAX_STORED_QUERY_CHARS);
}

const keys = new Map<string, Promise<CryptoKey>>();

/** The HMAC key for `secret`, or undefined when `SESSION_SECRET` is unset or shorter than 16 characters (no ids then). */
function hmacKey(secret: string | undefined): Promise<CryptoKey> | undefined {
  if (!secret || secret.length < 16) return undefined;
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(`portico-analytics-query-id:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    keys.set(secret, key);
  }
  return key;
}

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Bytes of the HMAC tag kept (128 bits: forging one is 2^128 guesses). */
const TAG_BYTES = 16;
/** Longest id accepted before any decoding (a 200-character query in UTF-8, encoded, plus the tag). */
export const MAX_QUERY_ID_CHARS = 1200;

/** A signed id for `facts`, or undefined when no key is configured (`SESSION_SECRET` unset: events then go unrecorded). */
export async function signQueryId(secret: string | undefined, facts: QueryFacts): Promise<string | undefined> {
  const key = await hmacKey(secret);
  if (!key) return undefined;
  const payload = new TextEncoder().encode([facts.portalId, facts.kind === "assistant" ? "a" : "s", facts.gated ? 1 : 0, facts.issuedAt, facts.results, facts.q].join("\n"));
  const tag = new Uint8Array(await crypto.subtle.sign("HMAC", key, payload)).slice(0, TAG_BYTES);
  return `${b64url(payload)}.${b64url(tag)}`;
}

/**
 * The facts of a query id if its tag is ours, it names `portalId`, and it is at most a day old at `nowSeconds`;
 * else undefined (forged, altered, another portal's, expired, or no key configured). Never throws.
 */
export async function verifyQueryId(secret: string | undefined, id: string, portalId: number, nowSeconds: number): Promise<QueryFacts | undefined> {
  const key = await hmacKey(secret);
  if (!key || id.length > MAX_QUERY_ID_CHARS) return undefined;
  const dot = id.indexOf(".");
  const payload = fromB64url(id.slice(0, dot));
  const tag = fromB64url(id.slice(dot + 1));
  if (dot < 0 || !payload || !tag || tag.length !== TAG_BYTES) return undefined;
  const full = new Uint8Array(await crypto.subtle.sign("HMAC", key, payload));
  // Compared in full, not short-circuited (the tag is public once issued, but an oracle for prefixes is not).
  let diff = 0;
  for (let i = 0; i < TAG_BYTES; i++) diff |= full[i] ^ tag[i];
  if (diff !== 0) return undefined;
  const parts = new TextDecoder().decode(payload).split("\n");
  if (parts.length < 6) return undefined;
  const [portal, , , issued, results] = parts.map(Number);
  const facts: QueryFacts = { portalId: portal, kind: parts[1] === "a" ? "assistant" : "search", gated: parts[2] === "1", issuedAt: issued, results, q: parts.slice(5).join("\n") };
  if (facts.portalId !== portalId || !Number.isFinite(facts.issuedAt) || nowSeconds - facts.issuedAt > QUERY_ID_MAX_AGE_SECONDS || facts.issuedAt - nowSeconds > 300) return undefined;
  return facts;
}
