import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR } from "../../test/harness/corpus-files";
import { fold, tokenize, type Token } from "./tokenize";

const words = (s: string) => tokenize(s).map((t) => (t.joined ? `${t.word}*` : t.word));

describe("tokenize", () => {
  it("splits identifiers into their words, and keeps camel-case pieces joined too", () => {
    expect(words("chat_postMessage")).toEqual(["chat", "post", "message", "postmessage*", "chat_post_message*"]);
    expect(words("ListAvailablePhoneNumberTollFree")).toEqual(["list", "available", "phone", "number", "toll", "free", "listavailablephonenumbertollfree*", "list_available_phone_number_toll_free*"]);
    expect(words("repos/get-content")).toEqual(["repos", "get", "content", "get_content*"]);
    expect(words("admin.users.remove")).toEqual(["admin", "users", "remove", "admin_users_remove*"]);
    expect(words("HTTPServer")).toEqual(["http", "server", "httpserver*", "http_server*"]);
    expect(words("List Floating IPs")).toEqual(["list", "floating", "ips"]);
  });

  it("keeps an identifier whole in one spelling whatever its style, but not a word with an apostrophe", () => {
    const whole = (s: string) => tokenize(s).filter((t) => t.joined && t.word.includes("_")).map((t) => t.word);
    for (const s of ["ParcelLabelVoidedEvent", "parcel_label_voided_event", "parcel.label.voided.event", "parcel-label-voidedEvent"]) {
      expect(whole(s)).toEqual(["parcel_label_voided_event"]);
    }
    expect(whole("user's guide")).toEqual([]);
    expect(whole("S3ConfigCreateRequest")).toEqual(["s3_config_create_request"]);
    expect(whole("see `a.b.c.d.e.f.g.h.i` and v2/items")).toEqual([]);
  });

  it("keeps version numbers whole, in pieces and in runs, and digits inside words", () => {
    expect(words("Version 2.5.1 (2025-05-05)")).toEqual(["version", "2", "5", "1", "2.5.1*", "2.5*", "5.1*", "2025", "05", "05"]);
    expect(words("v1.2")).toEqual(["v1", "2", "1.2*"]);
    expect(words("v2.4.0-beta.1")).toEqual(["v2", "4", "0", "beta", "1", "v2_4_0_beta_1*", "2.4.0*", "2.4*", "4.0*"]);
    expect(words("1.2.3.4.5")).toEqual(["1", "2", "3", "4", "5", "1.2.3.4.5*"]);
    expect(words("k8s ec2")).toEqual(["k8s", "ec2"]);
    expect(words("oauth2")).toEqual(["oauth2", "oauth*"]);
  });

  it("records offsets into the original text", () => {
    const [t] = tokenize("  Élan");
    expect(t).toEqual({ word: "elan", start: 2, end: 6 });
  });

  it("folds case and diacritics, and reads CJK as character pairs", () => {
    expect(fold("Ärger Ñu")).toBe("arger nu");
    expect(words("検索エンジン").slice(0, 2)).toEqual(["検索", "索エ"]);
  });

  it("stops at maxTokens", () => {
    expect(tokenize("a b c d e", 2)).toHaveLength(2);
  });
});

/** scanTokens as it was before its ASCII fast path: every chunk matched by the `u`-flag regex (the reference). */
function referenceTokens(text: string, maxTokens = Infinity): Token[] {
  const CHUNK = /[\p{L}\p{N}]+(?:[_.\/\-'’:][\p{L}\p{N}]+)*/gu;
  const CAMEL = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{N}]*\p{Ll}[\p{Ll}\p{N}]*|\p{Lu}+\p{N}*|\p{N}+|\p{L}+/gu;
  const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
  const out: Token[] = [];
  const emit = (word: string, start: number, end: number, joined: boolean) => out.push(joined ? { word, start, end, joined } : { word, start, end });
  const piece = (p: string, start: number): number => {
    if (/^[A-Z]?[a-z]+$|^\d+$/.test(p)) return emit(p.toLowerCase(), start, start + p.length, false), 1;
    if (CJK.test(p)) {
      const chars = [...p];
      let at = start;
      chars.forEach((ch, i) => {
        const next = chars[i + 1] ?? "";
        emit(fold(ch + next), at, at + ch.length + next.length, false);
        at += ch.length;
      });
      return chars.length;
    }
    const parts = [...p.replace(/(\p{Lu}{2,})s(?=\p{Lu}|$)/gu, (_, a: string) => a + "S").matchAll(CAMEL)];
    let count = 0;
    for (const m of parts) {
      const word = fold(m[0]);
      if (!word) continue;
      emit(word, start + m.index, start + m.index + m[0].length, false);
      count++;
      const letters = /^(\p{L}{3,})\p{N}+$/u.exec(word);
      if (letters) emit(letters[1], start + m.index, start + m.index + m[0].length, true), count++;
    }
    if (parts.length > 1) emit(fold(p), start, start + p.length, true), count++;
    return count;
  };
  let count = 0;
  for (let m = CHUNK.exec(text); m && count < maxTokens; m = CHUNK.exec(text)) {
    const chunk = m[0];
    // A version: its pieces as written, its numbers whole, then every shorter run of 2+ of them (up to 4 numbers).
    const wholes = (pieces: string[], base: number) => {
      const nums = pieces.map((p, i) => (i === 0 ? p.replace(/^v/, "") : p));
      const starts = pieces.map((_, i) => pieces.slice(0, i).join(".").length + (i ? 1 : 0));
      const v = pieces[0].length - nums[0].length;
      const spans: Array<[number, number]> = [[0, nums.length]];
      if (nums.length <= 4) for (let len = nums.length - 1; len >= 2; len--) for (let i = 0; i + len <= nums.length; i++) spans.push([i, len]);
      for (const [i, len] of spans) emit(nums.slice(i, i + len).join("."), base + starts[i] + (i === 0 ? v : 0), base + starts[i + len - 1] + nums[i + len - 1].length, true), count++;
    };
    if (/^v?\d+(?:\.\d+)+$/i.test(chunk)) {
      const pieces = chunk.toLowerCase().split(".");
      pieces.forEach((p, i) => emit(p, m!.index + pieces.slice(0, i).join(".").length + (i ? 1 : 0), m!.index + pieces.slice(0, i + 1).join(".").length, false));
      count += pieces.length;
      wholes(pieces, m.index);
      continue;
    }
    // Each run of pieces up to a `/`, `:` or the chunk's end is an identifier, also kept whole (its parts joined
    // by `_`) after its last piece when it has 2-8 parts and no apostrophe.
    let offset = 0;
    let parts: Token[] = [];
    let apostrophe = false;
    for (const p of chunk.split(/[_.\/\-'’:]+/)) {
      const at = chunk.indexOf(p, offset);
      offset = at + p.length;
      if (!p) continue;
      const before = out.length;
      count += piece(p, m.index + at);
      parts.push(...out.slice(before).filter((t) => !t.joined));
      const sep = chunk[offset] ?? "";
      if (sep === "'" || sep === "’") apostrophe = true;
      if (sep && sep !== "/" && sep !== ":") continue;
      if (!apostrophe && parts.length >= 2 && parts.length <= 8 && !parts.some((t) => CJK.test(t.word)) && parts.some((t) => /\p{L}/u.test(t.word))) {
        emit(parts.map((t) => t.word).join("_"), parts[0].start, parts[parts.length - 1].end, true);
        count++;
      }
      parts = [];
      apostrophe = false;
    }
    const leading = /^v?\d+(?:\.\d+)+(?=[-_+])/i.exec(chunk);
    if (leading) wholes(leading[0].toLowerCase().split("."), m.index);
  }
  return out;
}

/** Every string (keys and values) of a JSON value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) out.push(k), strings(v, out);
  return out;
}

describe("scanTokens", () => {
  it("finds the tokens the regex-only scan found, on real definitions and the dev set", () => {
    const texts = [
      ...strings(JSON.parse(readFileSync(resolve(import.meta.dirname, "../../node_modules/@octokit/openapi/generated/api.github.com.json"), "utf8"))),
      ...strings(JSON.parse(readFileSync(`${CORPUS_DIR}/slack/web-api/slack_web_openapi_v2.json`, "utf8"))),
      ...readFileSync(resolve(CORPUS_DIR, "../search-devset/corpus.jsonl"), "utf8").trim().split("\n").flatMap((l) => strings(JSON.parse(l))),
    ];
    expect(texts.length).toBeGreaterThan(100_000);
    let tokens = 0;
    for (const text of texts) {
      const got = tokenize(text);
      const want = referenceTokens(text);
      if (got.length !== want.length || got.some((t, i) => t.word !== want[i].word || t.start !== want[i].start || t.end !== want[i].end || t.joined !== want[i].joined)) {
        expect({ text, got }).toEqual({ text, got: want });
      }
      tokens += got.length;
    }
    expect(tokens).toBeGreaterThan(1_000_000);
    for (const text of texts.filter((t) => t.length > 200).slice(0, 2000)) expect(tokenize(text, 17)).toEqual(referenceTokens(text, 17));
  });

  it("finds the tokens the regex-only scan found, on random text crossing every ASCII / non-ASCII edge", () => {
    // Letters, digits, every separator (ASCII and `’`), versions, camel case, accents (precomposed and combining),
    // CJK, a Kelvin sign, an astral letter, lone surrogates, punctuation and spaces.
    const alphabet = ["a", "b", "Z", "Q", "s", "v", "V", "0", "7", "_", ".", "/", "-", "'", "’", ":", " ", " ", "\n", ",", "(", "é", "e\u0301", "ß", "検", "索", "İ", "\u212a", "𝒜", "\ud800", "\udc00", "²", "—", "IPs", "HTTPServer", "oauth2", "v1.2", "2.5.1"];
    let seed = 12345;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
    for (let i = 0; i < 20_000; i++) {
      let text = "";
      for (let k = random(24); k >= 0; k--) text += alphabet[random(alphabet.length)];
      expect(tokenize(text)).toEqual(referenceTokens(text));
      expect(tokenize(text, 3)).toEqual(referenceTokens(text, 3));
    }
  });
});
