/**
 * @module Text to index terms: folding (case, diacritics), identifier splitting (`chat_postMessage`,
 * `ListAvailablePhoneNumberTollFree`, `repos/get-content`, `admin.users.remove`) with each identifier also kept
 * whole (`chat_post_message`), version numbers in pieces and whole (`v2.3.0` → v2, 3, 0, `2.3.0`, `2.3`, `3.0`), CJK as
 * character bigrams. Used identically at build and
 * query time so both sides agree on terms.
 */

/** One word found in a text: its folded surface form and where it sits in the original string. */
export interface Token {
  /** Lower-cased, diacritics removed; never empty. */
  word: string;
  /** UTF-16 offsets into the original text (end exclusive). */
  start: number;
  end: number;
  /** True for the joined form of a split identifier (`postmessage` for `postMessage`, `chat_post_message`). */
  joined?: boolean;
}

/**
 * Longest identifier kept whole, in parts: past it a chunk is a path or a URL, not a name a reader types.
 * `/` and `:` end an identifier (`repos/get-content` is two), an apostrophe means a word (`user's`), not a name.
 */
const MAX_IDENT_PARTS = 8;
const LETTER = /\p{L}/u;

/**
 * Whether `word` is a whole identifier as {@link tokenize} keeps it: its parts folded and joined by `_`, whatever
 * the source's style (`ParcelLabelVoidedEvent`, `parcel_label.voided_event` → `parcel_label_voided_event`). Never
 * stemmed (no letters-only word has `_`), so `requestDownloadShares` and `requestDownloadShare` stay apart.
 */
export function isWholeIdentifier(word: string): boolean {
  return word.includes("_");
}

// A chunk is a run of letters/digits, possibly joined by identifier punctuation (`_ . / - '`).
const CHUNK = /[\p{L}\p{N}]+(?:[_.\/\-'’:][\p{L}\p{N}]+)*/gu;
const VERSION = /^v?\d+(?:\.\d+)+$/i;
// A version leading a longer chunk (`2.4.0-beta.1`, `1.2.0_rc`): its numbers before the first other separator.
const LEADING_VERSION = /^v?\d+(?:\.\d+)+(?=[-_+])/i;
/** Most numbers of a version whose runs are kept (`1.2.3.4`); a longer dotted run of numbers is kept whole only. */
const MAX_VERSION_RUN = 4;

/** Whether `word` is a version number as {@link tokenize} keeps it whole (`2.3.0`, `2.3`: numbers joined by dots, no `v`). */
export function isVersion(word: string): boolean {
  return /^\d+(?:\.\d+)+$/.test(word);
}
const SEPARATOR = /[_.\/\-'’:]+/;
// Camel-case parts: an acronym before a capitalised word (`HTTPServer` → HTTP, Server), a capitalised or lower
// word with the digits inside or after it (`k8s`, `oauth2`, `V2`), an acronym, a number.
const CAMEL = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?[\p{Ll}\p{N}]*\p{Ll}[\p{Ll}\p{N}]*|\p{Lu}+\p{N}*|\p{N}+|\p{L}+/gu;
// A word with a version-like digit suffix (`oauth2`, `ipv4`) is also found by its letters.
const DIGIT_SUFFIX = /^(\p{L}{3,})\p{N}+$/u;
const ASCII = /^[\x00-\x7f]*$/;
const PLAIN = /^[A-Z]?[a-z]+$|^\d+$/;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Lower-cases and strips combining marks (`Élan` → `elan`); keeps the string's length stable per character. */
export function fold(s: string): string {
  if (ASCII.test(s)) return s.toLowerCase();
  return s.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** Receives each token of {@link scanTokens}: its folded word, UTF-16 offsets (end exclusive), and whether it is a joined form. */
export type TokenSink = (word: string, start: number, end: number, joined: boolean) => void;

/**
 * Splits `text` into tokens. Identifiers yield their parts, and camel-case pieces also yield their joined lower
 * form (flagged `joined`), so `postMessage` is found by "post message" and by "postmessage".
 */
export function tokenize(text: string, maxTokens = Infinity): Token[] {
  const out: Token[] = [];
  scanTokens(text, maxTokens, (word, start, end, joined) => out.push(joined ? { word, start, end, joined } : { word, start, end }));
  return out;
}

/**
 * {@link tokenize} without the token objects (the index build reads millions of tokens): each token goes to
 * `emit`, in the same order. Stops before the next chunk once `maxTokens` were emitted (a chunk's pieces may
 * pass it, as tokenize's do). Returns the number emitted.
 *
 * Chunks made only of ASCII (most of an API's text) are found by char codes, without the `u`-flag regex, a split
 * and a substring per chunk; a chunk touching any other character (a letter of another script, `’`) is matched by
 * {@link CHUNK} from its start, as before. Both give the same tokens (worker/search/tokenize.test.ts compares them
 * with the regex-only scan).
 */
export function scanTokens(text: string, maxTokens: number, emit: TokenSink): number {
  let count = 0;
  const n = text.length;
  let p = 0;
  while (count < maxTokens) {
    // The next chunk starts at an ASCII letter or digit, or maybe at a non-ASCII character (the regex decides).
    let c = 0;
    while (p < n) {
      c = text.charCodeAt(p);
      if (c >= 0x80 || isAsciiAlnum(c)) break;
      p++;
    }
    if (p >= n) break;
    const start = p;
    let ascii = c < 0x80;
    // How many pieces (runs of letters and digits, one separator apart), and whether every separator is `.` (for
    // VERSION's quick refusal).
    let pieces = 0;
    let onlyDots = true;
    if (ascii) {
      for (;;) {
        while (p < n && isAsciiAlnum((c = text.charCodeAt(p)))) p++;
        if (p < n && c >= 0x80) {
          ascii = false;
          break;
        }
        pieces++;
        if (p + 1 < n && isSeparator(c)) {
          const next = text.charCodeAt(p + 1);
          if (isAsciiAlnum(next)) {
            if (c !== 0x2e) onlyDots = false;
            p++;
            continue;
          }
          if (next < 0x80) break;
          // A separator before a non-ASCII character: the regex decides.
          ascii = false;
        }
        break;
      }
    }
    if (!ascii) {
      CHUNK.lastIndex = start;
      const m = CHUNK.exec(text);
      if (!m) break;
      count += scanChunk(m[0], m.index, emit);
      p = m.index + m[0].length;
      continue;
    }
    const first = text.charCodeAt(start);
    if (pieces > 1 && onlyDots && (isDigit(first) || (first | 0x20) === 0x76)) {
      const chunk = text.slice(start, p);
      if (VERSION.test(chunk)) {
        count += scanVersion(chunk, start, emit);
        continue;
      }
    }
    if (pieces === 1) {
      // Most chunks: one plain word, no identifier to keep whole.
      const plain = plainPiece(text, start, p);
      if (plain) {
        emit(plain === 1 ? text.slice(start, p) : text.slice(start, p).toLowerCase(), start, p, false);
        count++;
        continue;
      }
    }
    const whole = new WholeIdentifier(emit);
    for (let from = start; from < p; ) {
      let to = from + 1;
      while (to < p && isAsciiAlnum(text.charCodeAt(to))) to++;
      const plain = plainPiece(text, from, to);
      if (plain === 1) whole.part(emit, text.slice(from, to), from, to);
      else if (plain === 2) whole.part(emit, text.slice(from, to).toLowerCase(), from, to);
      else {
        count += pushPiece(text.slice(from, to), from, whole.sink);
        count += whole.after(to < p ? text.charCodeAt(to) : 0);
        from = to + 1;
        continue;
      }
      count++;
      count += whole.after(to < p ? text.charCodeAt(to) : 0);
      from = to + 1;
    }
    if (isDigit(first) || (first | 0x20) === 0x76) count += leadingVersion(text.slice(start, p), start, emit);
  }
  return count;
}

/**
 * A version number (`v2.3.0`, `2.3.0`, `1.2`): its pieces as written (`v2`, `3`, `0`), then the numbers kept whole
 * without the `v` (`2.3.0`, joined), then every shorter run of two or more of them (`2.3`, `3.0`, joined). Readers
 * and tools write one version many ways (`v2.3.0`, "2.3.0", "v2 3.0", the series "2.3"): each finds it, and the whole
 * (a query's typed version, expand.ts) tells `2.3.0` from `2.0.3`, which share every piece. Returns the tokens emitted.
 */
function scanVersion(chunk: string, base: number, emit: TokenSink): number {
  const pieces = chunk.toLowerCase().split(".");
  const starts: number[] = [];
  let at = 0;
  for (const p of pieces) {
    emit(p, base + at, base + at + p.length, false);
    starts.push(at);
    at += p.length + 1;
  }
  return pieces.length + versionWholes(pieces, starts, base, emit);
}

/** The whole and runs of {@link scanVersion} for `pieces` (the first may carry a `v`) starting at `starts` (offsets from `base`). */
function versionWholes(pieces: string[], starts: number[], base: number, emit: TokenSink): number {
  const nums = pieces.map((p, i) => (i === 0 ? p.replace(/^v/, "") : p));
  const v = pieces[0].length - nums[0].length;
  let count = 0;
  const longest = nums.length <= MAX_VERSION_RUN ? nums.length : 0;
  emit(nums.join("."), base + v, base + starts[nums.length - 1] + nums[nums.length - 1].length, true);
  count++;
  for (let len = Math.min(longest, nums.length - 1); len >= 2; len--) {
    for (let i = 0; i + len <= nums.length; i++) {
      emit(nums.slice(i, i + len).join("."), base + starts[i] + (i === 0 ? v : 0), base + starts[i + len - 1] + nums[i + len - 1].length, true);
      count++;
    }
  }
  return count;
}

/** A version leading a longer chunk (`2.4.0-beta.1`): its whole and runs, after the chunk's own tokens. */
function leadingVersion(chunk: string, base: number, emit: TokenSink): number {
  const c = chunk.charCodeAt(0);
  if (!(isDigit(c) || (c | 0x20) === 0x76)) return 0;
  const m = LEADING_VERSION.exec(chunk);
  if (!m) return 0;
  const pieces = m[0].toLowerCase().split(".");
  const starts: number[] = [];
  let at = 0;
  for (const p of pieces) {
    starts.push(at);
    at += p.length + 1;
  }
  return versionWholes(pieces, starts, base, emit);
}

/**
 * Collects one identifier's parts as its pieces are emitted and emits the whole form (joined) after its last piece:
 * at a `/` or `:` (which end an identifier), at the end of the chunk, never after an apostrophe.
 */
class WholeIdentifier {
  private parts: string[] = [];
  private start = -1;
  private end = 0;
  private word = true;
  constructor(private readonly emit: TokenSink) {}
  /** Receives a piece's tokens: forwarded, the non-joined ones kept as parts. */
  readonly sink: TokenSink = (word, start, end, joined) => {
    this.emit(word, start, end, joined);
    if (!joined) this.add(word, start, end);
  };
  /** A plain piece: emitted and kept. */
  part(emit: TokenSink, word: string, start: number, end: number): void {
    emit(word, start, end, false);
    this.add(word, start, end);
  }
  private add(word: string, start: number, end: number): void {
    if (this.start < 0) this.start = start;
    this.end = end;
    this.parts.push(word);
  }
  /** After a piece, given the separator that follows it (0 at the chunk's end): emits the whole form if it ends here. */
  after(separator: number): number {
    if (separator === 0x27 || separator === 0x2019) this.word = false;
    if (separator !== 0 && separator !== 0x2f && separator !== 0x3a) return 0;
    const { parts, word, start, end } = this;
    this.parts = [];
    this.start = -1;
    this.word = true;
    // A date or a number range (`2025-05-05`) is not a name: an identifier has a letter.
    if (!word || parts.length < 2 || parts.length > MAX_IDENT_PARTS || parts.some((w) => CJK.test(w)) || !parts.some((w) => LETTER.test(w))) return 0;
    this.emit(parts.join("_"), start, end, true);
    return 1;
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isAsciiAlnum = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
/** The ASCII identifier punctuation of {@link CHUNK} (`’` is not ASCII: the regex path handles it). */
const isSeparator = (c: number) => c === 0x5f || c === 0x2e || c === 0x2f || c === 0x2d || c === 0x27 || c === 0x3a;

/**
 * Whether ASCII `text[from, to)` is {@link PLAIN}: 1 when already lower case or digits, 2 when capitalised, 0 when
 * not plain.
 */
function plainPiece(text: string, from: number, to: number): 0 | 1 | 2 {
  let c = text.charCodeAt(from);
  if (isDigit(c)) {
    for (let i = from + 1; i < to; i++) if (!isDigit(text.charCodeAt(i))) return 0;
    return 1;
  }
  let i = from;
  const upper = c >= 0x41 && c <= 0x5a;
  if (upper) {
    i++;
    if (i === to) return 0;
  }
  for (; i < to; i++) {
    c = text.charCodeAt(i);
    if (c < 0x61 || c > 0x7a) return 0;
  }
  return upper ? 2 : 1;
}

/** One chunk as {@link CHUNK} matched it at `base`: a version, or its pieces. */
function scanChunk(chunk: string, base: number, emit: TokenSink): number {
  if (VERSION.test(chunk)) return scanVersion(chunk, base, emit);
  let count = 0;
  let offset = 0;
  const whole = new WholeIdentifier(emit);
  for (const piece of chunk.split(SEPARATOR)) {
    const at = chunk.indexOf(piece, offset);
    offset = at + piece.length;
    if (!piece) continue;
    count += pushPiece(piece, base + at, whole.sink);
    // The separator run after the piece: its first character decides (`/`, `:` end an identifier; `'` a word).
    count += whole.after(offset < chunk.length ? chunk.charCodeAt(offset) : 0);
  }
  return count + leadingVersion(chunk, base, emit);
}

function pushPiece(piece: string, start: number, emit: TokenSink): number {
  // Fast path for the common case, a plain lower-case or capitalised ASCII word: nothing to split.
  if (PLAIN.test(piece)) {
    emit(piece.toLowerCase(), start, start + piece.length, false);
    return 1;
  }
  if (CJK.test(piece)) return pushCjk(piece, start, emit);
  // `IPs`, `URLs`: a plural acronym is one word, not `I` + `Ps`.
  const text = piece.replace(/(\p{Lu}{2,})s(?=\p{Lu}|$)/gu, (_, a: string) => a + "S");
  const parts = [...text.matchAll(CAMEL)];
  let count = 0;
  for (const p of parts) {
    const word = fold(p[0]);
    if (!word) continue;
    const end = start + p.index + p[0].length;
    emit(word, start + p.index, end, false);
    count++;
    const letters = DIGIT_SUFFIX.exec(word);
    if (letters) {
      emit(letters[1], start + p.index, end, true);
      count++;
    }
  }
  if (parts.length > 1) {
    emit(fold(piece), start, start + piece.length, true);
    count++;
  }
  return count;
}

function pushCjk(piece: string, start: number, emit: TokenSink): number {
  const chars = [...piece];
  let at = start;
  for (let i = 0; i < chars.length; i++) {
    const next = i + 1 < chars.length ? chars[i + 1] : "";
    const len = chars[i].length;
    emit(fold(chars[i] + next), at, at + len + next.length, false);
    at += len;
  }
  return chars.length;
}
